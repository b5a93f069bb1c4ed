"""Incremental planning: before any document goes to a worker, each file's content hash is
looked up in the store. A file whose version the chunk set has already read is taken from the
store (its outcome and chunk lines, byte for byte); every other file is parsed.

Failures are reused only when the bytes alone decide them (a binary file, invalid UTF-8, a
corrupt zip): a timeout, a memory limit, a dead worker or a wrong password depends on the run,
and is tried again. An encrypted PDF met without a password is reused while no password is given
(with one, it is read again: the password may open it)."""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from typing import Any

import orjson

from parsegate.runner.discover import Source, escape
from parsegate.store.writer import Doc

# Failure codes that the file's bytes decide, whatever the run's limits, password or machine.
REUSABLE_FAILURES = frozenset(
    {
        "binary",
        "corrupt",
        "empty",
        "garbage_text",
        "invalid_docling",
        "invalid_json",
        "invalid_utf8",
        "malformed",
        "not_pdf",
        "unknown_language",
    }
)


@dataclass(frozen=True)
class Planned:
    index: int  # place in sorted order
    source: Source
    doc: Doc | None  # None: the file could not be read to hash it (its worker will say why)
    reuse: bool
    outcome: str | None = None  # the stored outcome (JSON) when reused, read with the lookup
    why: str | None = None  # why it is parsed (WHY_*), when it is not reused


def content_version(source: Source) -> Doc | None:
    """The file's version as the parsers name it (sha256 of its bytes; parsers.model.content_version)."""
    try:
        with source.path.open("rb") as file:
            digest = hashlib.file_digest(file, "sha256")
            size = file.tell()
    except OSError:
        return None
    return Doc(source.doc_id, escape(str(source.path)), "sha256:" + digest.hexdigest(), size)


def reusable_failures(password: bool) -> frozenset[str]:
    """The failure codes this run may take from the store: an "encrypted" failure (recorded only
    when no password was given; parsers.registry words a refused password "wrong_password") is
    this run's too unless it gives a password."""
    if password:
        return REUSABLE_FAILURES
    return REUSABLE_FAILURES | {"encrypted"}


def reusable(
    db: sqlite3.Connection, chunk_set: str, doc: Doc, failures: frozenset[str] = REUSABLE_FAILURES
) -> str | None:
    """The stored outcome (JSON) of this version, when this run may take it; else None."""
    row = db.execute(
        "SELECT status, code, outcome FROM results WHERE chunk_set = ? AND doc_id = ? AND version = ?",
        (chunk_set, doc.doc_id, doc.version),
    ).fetchone()
    return None if row is None else _reusable_outcome(tuple(row), failures)


# Why a document is parsed, not taken from the store (run.json's store.written_because counts them).
WHY_NEW = "not in the store under these settings"
WHY_CHANGED = "changed"
WHY_UNREADABLE = "not readable to hash"
WHY_RETRIED = "failed for a reason of its run, tried again"
WHY_GATE = "measured by another gate version"
WHY_SAMPLE = "measured outside an earlier gate sample"


def plan(db: sqlite3.Connection, chunk_set: str, sources: list[Source], password: bool = False) -> list[Planned]:
    failures = reusable_failures(password)
    docs = [content_version(source) if source.path.is_file() else None for source in sources]
    known: set[str] = set()  # documents the chunk set holds some version of
    rows = _results(db, chunk_set, [doc for doc in docs if doc is not None], known)
    planned = []
    for index, (source, doc) in enumerate(zip(sources, docs, strict=True)):
        row = None if doc is None else rows.get((doc.doc_id, doc.version))
        outcome = None if row is None else _reusable_outcome(row, failures)
        if doc is None:
            why: str | None = WHY_UNREADABLE
        elif row is None:
            why = WHY_CHANGED if doc.doc_id in known else WHY_NEW
        else:
            why = None if outcome is not None else WHY_RETRIED
        planned.append(Planned(index, source, doc, outcome is not None, outcome, why))
    return planned


_BATCH = 500  # documents a lookup query names (SQLite allows 32,766 parameters)


def _results(
    db: sqlite3.Connection, chunk_set: str, docs: list[Doc], known: set[str]
) -> dict[tuple[str, str], tuple[Any, ...]]:
    """The stored results of these document versions, in a few queries instead of one each (a
    re-run of 2,000 unchanged files spent a sixth of its time on the lookups); ``known`` takes
    the ids the chunk set holds any version of."""
    found: dict[tuple[str, str], tuple[Any, ...]] = {}
    wanted = {(doc.doc_id, doc.version) for doc in docs}
    ids = sorted({doc.doc_id for doc in docs})
    for n in range(0, len(ids), _BATCH):
        batch = ids[n : n + _BATCH]
        marks = ",".join("?" * len(batch))
        query = (
            "SELECT doc_id, version, status, code, outcome FROM results"
            f" WHERE chunk_set = ? AND doc_id IN ({marks})"  # only "?" marks go in: no user text
        )
        for doc_id, version, *rest in db.execute(query, (chunk_set, *batch)):
            known.add(doc_id)
            if (doc_id, version) in wanted:
                found[(doc_id, version)] = tuple(rest)
    return found


def _reusable_outcome(row: tuple[Any, ...], failures: frozenset[str]) -> str | None:
    status, code, outcome = row
    return str(outcome) if status != "failed" or code in failures else None


def stored(db: sqlite3.Connection, chunk_set: str, item: Planned) -> tuple[dict[str, Any], list[bytes]]:
    """A reused result: the outcome (threshold-free, read by ``plan``) and the chunk lines in order."""
    assert item.doc is not None and item.outcome is not None, "only a reused item is stored"
    doc = item.doc
    lines = [
        bytes(record)
        for (record,) in db.execute(
            "SELECT record FROM chunks WHERE chunk_set = ? AND doc_id = ? AND version = ? ORDER BY seq",
            (chunk_set, doc.doc_id, doc.version),
        )
    ]
    return orjson.loads(item.outcome), lines
