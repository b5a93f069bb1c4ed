"""``python -m parsegate``: the command line."""

from parsegate.cli import main

main()
