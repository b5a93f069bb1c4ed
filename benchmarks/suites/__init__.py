"""One folder per suite; each runs as ``python -m benchmarks.suites.<suite>`` from the repository root."""
