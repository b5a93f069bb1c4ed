"""report.html's drawn PDF pages, kept per document version: a re-run takes them from the store
instead of rendering them again (PDFium rendering was half of a re-run over a folder of PDFs).
The pages a version's chunks draw are the same in every run of the chunk set, so they are
written once, beside the version's result, and go with it when the chunk set is retired."""

from __future__ import annotations

import contextlib
import sqlite3
from typing import Any

import orjson


class StoredPages:
    """reports.PageCache over one chunk set of an open store."""

    def __init__(self, db: sqlite3.Connection, chunk_set: str) -> None:
        self.db = db
        self.chunk_set = chunk_set

    def get(self, doc_id: str, version: str, count: int) -> list[dict[str, Any]] | None:
        row = self.db.execute(
            "SELECT images FROM page_images WHERE chunk_set = ? AND doc_id = ? AND version = ? AND pages = ?",
            (self.chunk_set, doc_id, version, count),
        ).fetchone()
        if row is None:
            return None
        pages: list[dict[str, Any]] = orjson.loads(row[0])
        return pages

    def put(self, doc_id: str, version: str, count: int, pages: list[dict[str, Any]]) -> None:
        # Only beside a stored result (a file that changed during the run has none). A write that
        # fails (a full disk) costs only the next run's drawing: the report has its pages already.
        with contextlib.suppress(sqlite3.Error):
            self.db.execute(
                "INSERT OR IGNORE INTO page_images (chunk_set, doc_id, version, pages, images)"
                " SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM results"
                " WHERE chunk_set = ?1 AND doc_id = ?2 AND version = ?3)",
                (self.chunk_set, doc_id, version, count, orjson.dumps(pages).decode()),
            )
