"""Reading the store: chunk sets, what a chunk set holds now (its members not gone, at the
version last seen), and their chunk records, byte for byte as the run wrote them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from parsegate.store.schema import StoreError


@dataclass(frozen=True)
class ChunkSetInfo:
    id: str
    created_at: str
    config: dict[str, Any]
    documents: int  # current (not gone)
    gone: int
    versions: int  # results stored: every document version ever read under it
    chunks: int  # chunks of the current documents


def chunk_sets(db: sqlite3.Connection) -> list[ChunkSetInfo]:
    rows = db.execute("SELECT id, created_at, config FROM chunk_sets ORDER BY created_at").fetchall()
    return [info(db, ident, created, config) for ident, created, config in rows]


def info(db: sqlite3.Connection, ident: str, created: str, config: str) -> ChunkSetInfo:
    documents, gone = db.execute(
        "SELECT count(*) FILTER (WHERE gone_at IS NULL), count(*) FILTER (WHERE gone_at IS NOT NULL)"
        " FROM members WHERE chunk_set = ?",
        (ident,),
    ).fetchone()
    (versions,) = db.execute("SELECT count(*) FROM results WHERE chunk_set = ?", (ident,)).fetchone()
    (chunks,) = db.execute(
        "SELECT count(*) FROM members m JOIN chunks c ON c.chunk_set = m.chunk_set AND c.doc_id = m.doc_id"
        " AND c.version = m.version WHERE m.chunk_set = ? AND m.gone_at IS NULL",
        (ident,),
    ).fetchone()
    return ChunkSetInfo(ident, created, orjson.loads(config), documents, gone, versions, chunks)


def resolve(db: sqlite3.Connection, ident: str) -> str:
    """A chunk set id, or an unambiguous prefix of one (``cs-1a2b``), or the chunk set one format's
    chunks carry (a record's ``chunk_set``; the store's chunk set is the run's, over all formats)."""
    rows = [r[0] for r in db.execute("SELECT id FROM chunk_sets WHERE id LIKE ? || '%'", (ident,))]
    if not rows:
        rows = [
            r[0]
            for r in db.execute("SELECT id, config FROM chunk_sets")
            if any(str(v).startswith(ident) for v in orjson.loads(r[1]).get("chunk_sets", {}).values())
        ]
    if len(rows) == 1:
        return str(rows[0])
    if not rows:
        known = ", ".join(r[0] for r in db.execute("SELECT id FROM chunk_sets ORDER BY created_at")) or "none"
        raise StoreError(f"no chunk set {ident} in the store (chunk sets: {known})")
    raise StoreError(f"{ident} names {len(rows)} chunk sets: {', '.join(rows)}")


@dataclass(frozen=True)
class Member:
    corpus: str
    doc_id: str
    version: str
    verdict: str | None


def members(db: sqlite3.Connection, chunk_set: str) -> list[Member]:
    """The chunk set's current documents, in corpus and doc_id order."""
    rows = db.execute(
        "SELECT corpus, doc_id, version, verdict FROM members WHERE chunk_set = ? AND gone_at IS NULL"
        " ORDER BY corpus, doc_id",
        (chunk_set,),
    )
    return [Member(*row) for row in rows]


def chunk_lines(db: sqlite3.Connection, chunk_set: str, doc_id: str, version: str) -> list[bytes]:
    rows = db.execute(
        "SELECT record FROM chunks WHERE chunk_set = ? AND doc_id = ? AND version = ? ORDER BY seq",
        (chunk_set, doc_id, version),
    )
    return [bytes(r[0]) for r in rows]


def current_lines(db: sqlite3.Connection, chunk_set: str, passed_only: bool = True) -> Iterator[bytes]:
    """Every chunk line of the chunk set's current documents (by default only the documents that
    passed the gate when last seen: what chunks.jsonl held)."""
    for member in members(db, chunk_set):
        if passed_only and member.verdict != "pass":
            continue
        yield from chunk_lines(db, chunk_set, member.doc_id, member.version)
