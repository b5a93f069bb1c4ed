from benchmarks.suites.page_breaks.run import main

main()
