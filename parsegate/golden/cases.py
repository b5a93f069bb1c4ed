"""Golden cases on disk, and what parsegate makes of them today.

A case is a folder ``<root>/<...>/<case>/`` holding ``input.<ext>``, an optional
``config.json`` (chunker settings), ``evidence.json`` and ``expected/elements.json`` +
``expected/chunks.json`` + ``expected/chunk_set.json`` (``layout`` checks a tree). A case's
document id is the input's path relative to the root (it appears in chunk ids and in the context
code chunks carry), so a tree is always checked from its root; ``--case`` selects cases.

Expected chunks store no ids: what a person reviews (span, lines, pages, tokens, section path,
kinds, text, embed_text, and a child's ``parent`` as the index of its parent chunk); ids and
relations are checked by recomputation (``ids``), and the chunk set's ingredients are kept once
per case (``chunk_set``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.record import Chunk
from parsegate.golden.chunk_set import made_with
from parsegate.golden.evidence import EVIDENCE_FILE, EvidenceError, Question, load_evidence
from parsegate.parsers.model import Document
from parsegate.parsers.registry import parse_file

EXPECTED = "expected"
ELEMENTS = "elements.json"
CHUNKS = "chunks.json"
CHUNK_SET = "chunk_set.json"
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
        return _read_json(folder / ELEMENTS, list), _read_json(folder / CHUNKS, list)

    def expected_chunk_set(self) -> dict[str, Any] | None:
        """The chunk set's ingredients the expected files were made with (None: not recorded)."""
        path = self.path / EXPECTED / CHUNK_SET
        return _read_json(path, dict) if path.exists() else None


def _read_json(path: Path, kind: type[list[Any]] | type[dict[str, Any]]) -> Any:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CaseError(f"{path}: {exc}") from None
    if not isinstance(data, kind):
        raise CaseError(f"{path}: expected a JSON {'list' if kind is list else 'object'}")
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
    chunk_set: dict[str, Any]  # its ingredients (chunk_set.made_with)
    config: ChunkConfig  # as the chunker resolved it


def chunk_record(c: Chunk, parent: int | None) -> dict[str, Any]:
    """What a person reviews of a chunk: no ids; its parent (if any) as that chunk's index."""
    record: dict[str, Any] = {
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
    if parent is not None:
        record["parent"] = parent
    return record


def chunk_records(chunks: list[Chunk]) -> list[dict[str, Any]]:
    index = {c.id: k for k, c in enumerate(chunks)}
    return [chunk_record(c, index.get(c.parent_id) if c.parent_id else None) for c in chunks]


def snapshot(case: Case, chunker: Chunker | None = None) -> Snapshot:
    """Parse and chunk a case (with its own config unless a chunker is given). Parse errors
    propagate as ``ParseError``."""
    doc = parse_file(case.source, case.doc_id)
    chunker = chunker or chunker_for(case.config())
    chunks = chunker.chunk(doc)
    elements = [e.to_dict(doc.text) for e in doc.elements]
    return Snapshot(doc, chunks, elements, chunk_records(chunks), made_with(doc, chunker), chunker.config)


def write_expected(case: Case, snap: Snapshot) -> None:
    """Write the expected files, leaving alone each one whose content is already that (so that a
    rewrite's diff holds only what changed, not keys a parser now emits in another order)."""
    out = case.path / EXPECTED
    out.mkdir(exist_ok=True)
    for name, data in ((ELEMENTS, snap.elements), (CHUNKS, snap.records), (CHUNK_SET, snap.chunk_set)):
        if not _holds(out / name, data):
            (out / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _holds(path: Path, data: object) -> bool:
    try:
        return bool(json.loads(path.read_text(encoding="utf-8")) == data)
    except (OSError, ValueError):
        return False
