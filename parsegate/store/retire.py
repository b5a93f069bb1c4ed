"""``parsegate retire``: the only deletion. A chunk set goes with its results, chunks and
memberships (foreign keys cascade), and document versions no chunk set refers to any more."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from parsegate.store.writer import transaction


@dataclass(frozen=True)
class Removal:
    chunk_set: str
    documents: int  # current members
    results: int  # document versions read under it
    chunks: int
    orphan_versions: int  # document versions only this chunk set referred to


def what_goes(db: sqlite3.Connection, chunk_set: str) -> Removal:
    (documents,) = db.execute(
        "SELECT count(*) FROM members WHERE chunk_set = ? AND gone_at IS NULL", (chunk_set,)
    ).fetchone()
    (results,) = db.execute("SELECT count(*) FROM results WHERE chunk_set = ?", (chunk_set,)).fetchone()
    (chunks,) = db.execute("SELECT count(*) FROM chunks WHERE chunk_set = ?", (chunk_set,)).fetchone()
    (orphans,) = db.execute(_ORPHANS.replace("SELECT d.doc_id, d.version", "SELECT count(*)"), (chunk_set,)).fetchone()
    return Removal(chunk_set, documents, results, chunks, orphans)


# Document versions referred to by this chunk set's results and by no other chunk set's.
_ORPHANS = (
    "SELECT d.doc_id, d.version FROM documents d WHERE EXISTS (SELECT 1 FROM results r WHERE"
    " r.doc_id = d.doc_id AND r.version = d.version AND r.chunk_set = ?1) AND NOT EXISTS (SELECT 1"
    " FROM results r WHERE r.doc_id = d.doc_id AND r.version = d.version AND r.chunk_set != ?1)"
)


def retire(db: sqlite3.Connection, chunk_set: str) -> Removal:
    with transaction(db):
        removal = what_goes(db, chunk_set)
        orphans = db.execute(_ORPHANS, (chunk_set,)).fetchall()
        db.execute("DELETE FROM chunk_sets WHERE id = ?", (chunk_set,))
        db.executemany("DELETE FROM documents WHERE doc_id = ? AND version = ?", orphans)
    return removal
