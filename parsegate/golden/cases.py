"""Golden cases on disk, and what parsegate makes of them today.

A case is a folder ``<root>/<...>/<case>/`` holding ``input.<ext>``, an optional
``config.json`` (chunker settings), ``evidence.json`` and ``expected/elements.json`` +
``expected/chunks.json``. A case's document id is the input's path relative to the root
(it appears in chunk ids and in the context code chunks carry), so a tree is always checked
from its root; ``--case`` selects cases.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.chunk import Chunk
from parsegate.golden.evidence import EVIDENCE_FILE, EvidenceError, Question, load_evidence
from parsegate.parsers.model import Document
from parsegate.parsers.registry import parse_file

EXPECTED = "expected"
ELEMENTS = "elements.json"
CHUNKS = "chunks.json"
CONFIG = "config.json"


class CaseError(ValueError):
    """A case folder that cannot be checked (no input, a bad config or evidence file)."""


@dataclass(frozen=True)
class Case:
    root: Path
    path: Path

    @property
    def name(self) -> str:
        return self.path.relative_to(self.root).as_posix()

    @property
    def source(self) -> Path:
        inputs = sorted(self.path.glob("input.*"))
        if not inputs:
            raise CaseError(f"{self.name}: no input.* file")
        return inputs[0]

    @property
    def doc_id(self) -> str:
        return self.source.relative_to(self.root).as_posix()

    def config(self) -> ChunkConfig:
        path = self.path / CONFIG
        if not path.exists():
            return ChunkConfig()
        try:
            return ChunkConfig(**json.loads(path.read_text(encoding="utf-8")))
        except (json.JSONDecodeError, TypeError) as exc:
            raise CaseError(f"{self.name}: {CONFIG}: {exc}") from None

    def questions(self) -> list[Question]:
        path = self.path / EVIDENCE_FILE
        if not path.exists():
            return []
        try:
            return load_evidence(path, self.name)
        except EvidenceError as exc:
            raise CaseError(str(exc)) from None

    def expected(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
        folder = self.path / EXPECTED
        if not (folder / ELEMENTS).exists() or not (folder / CHUNKS).exists():
            return None
        return _read_list(folder / ELEMENTS), _read_list(folder / CHUNKS)


def _read_list(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise CaseError(f"{path}: expected a JSON list")
    return data


def discover(root: Path, selected: list[str] | None = None) -> list[Case]:
    """Every case under ``root`` (a folder holding ``input.*``), or those whose name equals or
    starts with one of ``selected`` (``markdown`` selects every Markdown case)."""
    found = sorted({p.parent for p in root.glob("**/input.*") if p.parent.name != EXPECTED})
    cases = [Case(root, p) for p in found]
    if selected:
        wanted = [s.strip("/") for s in selected]
        cases = [c for c in cases if any(c.name == w or c.name.startswith(w + "/") for w in wanted)]
    return cases


@lru_cache(maxsize=16)
def chunker_for(config: ChunkConfig) -> Chunker:
    return Chunker(config)


@dataclass
class Snapshot:
    """One case as parsegate reads and chunks it now, in the expected files' compact form."""

    doc: Document
    chunks: list[Chunk]
    elements: list[dict[str, Any]]
    records: list[dict[str, Any]]


def chunk_record(c: Chunk) -> dict[str, Any]:
    return {
        "id": c.id,
        "chunk_set": c.chunk_set,
        "start": c.start,
        "end": c.end,
        "lines": list(c.lines) if c.lines else None,
        "pages": c.pages,
        "tokens": c.tokens,
        "section_path": c.section_path,
        "kinds": c.kinds,
        "language": c.language,
        "symbol": c.symbol,
        "text": c.text,
        "embed_text": c.embed_text,
    }


def snapshot(case: Case, chunker: Chunker | None = None) -> Snapshot:
    """Parse and chunk a case (with its own config unless a chunker is given). Parse errors
    propagate as ``ParseError``."""
    doc = parse_file(case.source, case.doc_id)
    chunker = chunker or chunker_for(case.config())
    chunks = chunker.chunk(doc)
    return Snapshot(doc, chunks, [e.to_dict(doc.text) for e in doc.elements], [chunk_record(c) for c in chunks])


def write_expected(case: Case, snap: Snapshot) -> None:
    out = case.path / EXPECTED
    out.mkdir(exist_ok=True)
    for name, data in ((ELEMENTS, snap.elements), (CHUNKS, snap.records)):
        (out / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
