"""``python -m parsegate``: the command line."""

from parsegate.cli.main import main

main()
