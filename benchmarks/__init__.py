"""parsegate's benchmarks: see benchmarks/README.md."""
