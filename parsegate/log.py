"""parsegate's logger. Library code logs (a document's warnings, what it wrote, what a run moved
aside) through ``logging.getLogger("parsegate")`` and never prints; a library caller routes or
silences it with the standard ``logging`` set-up. Only the command line attaches a handler
(parsegate/cli/console.py), which prints to stderr: warnings and notes by default, nothing but
errors with ``-q``, details with ``-v``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parsegate.parsers.model import Document

log = logging.getLogger("parsegate")
log.addHandler(logging.NullHandler())  # a library stays silent until its caller configures logging


def log_warnings(doc: Document) -> None:
    for w in doc.warnings:
        log.warning("%s: %s [%s]", doc.doc_id, w.message, w.code)
