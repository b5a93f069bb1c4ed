"""The chunk record: the contract ``parsegate.chunk/1`` that other tools consume."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SCHEMA = "parsegate.chunk/1"


@dataclass
class Chunk:
    id: str
    doc_id: str
    doc_version: str
    chunk_set: str
    start: int
    end: int
    text: str
    embed_text: str
    tokens: int
    tokenizer: str
    section_path: list[str]
    kinds: list[str]
    parent_id: str | None = None
    prev_id: str | None = None
    next_id: str | None = None
    pages: list[int] | None = None
    boxes: list[dict[str, Any]] | None = None
    lines: tuple[int, int] | None = None
    language: str | None = None
    symbol: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    warnings: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "id": self.id,
            "doc_id": self.doc_id,
            "doc_version": self.doc_version,
            "chunk_set": self.chunk_set,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "embed_text": self.embed_text,
            "tokens": self.tokens,
            "tokenizer": self.tokenizer,
            "section_path": self.section_path,
            "kinds": self.kinds,
            "parent_id": self.parent_id,
            "prev_id": self.prev_id,
            "next_id": self.next_id,
            "pages": self.pages,
            "boxes": self.boxes,
            "lines": list(self.lines) if self.lines else None,
            "language": self.language,
            "symbol": self.symbol,
            "metadata": self.metadata,
            "warnings": self.warnings,
        }
