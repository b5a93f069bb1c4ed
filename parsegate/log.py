"""parsegate's logger. Library code logs (a document's warnings, what it wrote) through
``logging.getLogger("parsegate")`` and never prints; a library caller routes or silences it
with the standard ``logging`` set-up. Only the command line attaches a handler (``use_cli``),
which prints to stderr: warnings by default, nothing but errors with ``-q``, details with ``-v``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from parsegate.parsers.model import Document

log = logging.getLogger("parsegate")
log.addHandler(logging.NullHandler())  # a library stays silent until its caller configures logging


def log_warnings(doc: Document) -> None:
    for w in doc.warnings:
        log.warning("%s: %s [%s]", doc.doc_id, w.message, w.code)


class ConsoleHandler(logging.Handler):
    """Records to a rich console as plain text: a message is the user's text, never markup."""

    def __init__(self, console: Console) -> None:
        super().__init__()
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        from rich.text import Text

        style = {logging.WARNING: "yellow", logging.ERROR: "bold red"}.get(record.levelno, "dim")
        label = Text(record.levelname.lower() + " ", style=style) if record.levelno >= logging.WARNING else Text()
        self.console.print(label + Text(record.getMessage()), highlight=False, soft_wrap=True)
        if record.exc_info and log.isEnabledFor(logging.DEBUG):
            self.console.print(Text(self.format(record).partition("\n")[2]), highlight=False)


def use_cli(console: Console, verbosity: int) -> None:
    """-q (verbosity -1): errors only; default: warnings and what was written; -v: details."""
    level = {-1: logging.ERROR, 0: logging.INFO}.get(verbosity, logging.DEBUG)
    for handler in [h for h in log.handlers if isinstance(h, ConsoleHandler)]:
        log.removeHandler(handler)
    log.addHandler(ConsoleHandler(console))
    log.setLevel(level)
