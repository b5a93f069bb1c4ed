from benchmarks.suites.manuals.run import main

main()
