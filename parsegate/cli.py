"""The ``parsegate`` console script. An unchanged re-run is answered before the command line is
built (parsegate/chunkstore/quick.py: about a third of such a run was importing typer, rich, the
chunker and the gate); everything else is parsegate/cli_app.py, whose names this module gives too
(``from parsegate.cli import app``)."""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    """The console script (exit statuses: cli_app.main)."""
    if "run" in sys.argv[1:]:
        from parsegate.chunkstore.quick import rerun

        status = rerun(sys.argv[1:])
        if status is not None:
            sys.exit(status)
    from parsegate.cli_app import main as full

    full()


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system asks for __path__ and the like: not the command line
        raise AttributeError(name)
    from parsegate import cli_app

    return getattr(cli_app, name)


if __name__ == "__main__":
    main()
