"""Lookups for retrieval-side assembly, from the store: a chunk by id, its neighbours in its
document, its parent record (parent-child), and every chunk of its section."""

from __future__ import annotations

import sqlite3
from typing import Any

import orjson

_WHERE = "FROM chunks WHERE id = ?"


def _place(db: sqlite3.Connection, chunk_id: str) -> tuple[str, str, str, int] | None:
    row = db.execute(f"SELECT chunk_set, doc_id, version, seq {_WHERE}", (chunk_id,)).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


def chunk(db: sqlite3.Connection, chunk_id: str) -> dict[str, Any] | None:
    row = db.execute(f"SELECT record {_WHERE}", (chunk_id,)).fetchone()
    return None if row is None else dict(orjson.loads(row[0]))


def neighbours(db: sqlite3.Connection, chunk_id: str, before: int = 1, after: int = 1) -> list[dict[str, Any]]:
    """The chunk with up to ``before`` chunks before it and ``after`` after it, in document order."""
    place = _place(db, chunk_id)
    if place is None:
        return []
    chunk_set, doc_id, version, seq = place
    rows = db.execute(
        "SELECT record FROM chunks WHERE chunk_set = ? AND doc_id = ? AND version = ? AND seq BETWEEN ? AND ?"
        " ORDER BY seq",
        (chunk_set, doc_id, version, seq - before, seq + after),
    )
    return [orjson.loads(r[0]) for r in rows]


def parent(db: sqlite3.Connection, chunk_id: str) -> dict[str, Any] | None:
    """The record a chunk names as its ``parent_id`` (parent-child), or None."""
    record = chunk(db, chunk_id)
    if record is None or not record.get("parent_id"):
        return None
    return chunk(db, record["parent_id"])


def section(db: sqlite3.Connection, chunk_id: str) -> list[dict[str, Any]]:
    """Every chunk of the same document version whose section path is the chunk's own, in order."""
    place = _place(db, chunk_id)
    record = chunk(db, chunk_id)
    if place is None or record is None:
        return []
    chunk_set, doc_id, version, _ = place
    rows = db.execute(
        "SELECT record FROM chunks WHERE chunk_set = ? AND doc_id = ? AND version = ? ORDER BY seq",
        (chunk_set, doc_id, version),
    )
    found = (orjson.loads(r[0]) for r in rows)
    return [c for c in found if c["section_path"] == record["section_path"]]
