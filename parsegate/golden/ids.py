"""Chunk ids checked by recomputation, since expected files store none.

A chunk's id is content-addressed: ``chunk_id(chunk_set, doc_id, doc_version, start, end)``
(the fixed-window baseline keeps its reference design's ``doc_id:version:section:start-end`` for
a window kept whole; the pieces of a window cut to the budget get the content-addressed id).
So instead of comparing ids with a stored copy, which changes with every library version that
enters the chunk set, each id is recomputed from its own chunk's set, document, version and span,
and each relation is checked against the chunks it should name: ``parent_id`` a chunk of the same
set holding the child's span, ``prev_id``/``next_id`` the neighbours within the chunk's layer (the
parents one layer, every other chunk the other; without parents, one chain in record order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parsegate.chunkers import ChunkConfig
from parsegate.chunkers.fixed import document_sections, fixed_windows
from parsegate.chunkers.ids import ChunkIds
from parsegate.chunkers.record import Chunk
from parsegate.parsers.model import Document

Record = dict[str, Any]


def span_of(c: Chunk) -> list[int]:
    return [c.start, c.end]


def fixed_ids(doc: Document, config: ChunkConfig) -> dict[tuple[int, int], str]:
    """The fixed baseline's windows (document offsets) and the id each has when kept whole:
    ``doc_id:version:section:start-end``, offsets inside the section."""
    sections = document_sections(doc)
    texts = [(title, doc.text[s:e]) for title, s, e in sections]
    windows = fixed_windows(texts, config.fixed_size, config.fixed_overlap, doc.doc_id, doc.version)
    out = {}
    for w in windows:
        base = sections[w.section_index][1]
        out[(base + w.start, base + w.end)] = f"{doc.doc_id}:{doc.version}:{w.section_index}:{w.start}-{w.end}"
    return out


def recomputed_ids(doc: Document, chunks: Sequence[Chunk], config: ChunkConfig) -> list[str]:
    """What each chunk's id must be, from its own chunk set, document, version and span."""
    whole = fixed_ids(doc, config) if config.strategy == "fixed" else {}
    return [
        whole.get((c.start, c.end)) or ChunkIds(c.chunk_set, c.doc_id, c.doc_version)(c.start, c.end) for c in chunks
    ]


def provenance_problems(doc: Document, chunks: Sequence[Chunk]) -> list[Record]:
    """Every chunk names the case's document, its version, and the one chunk set of the case."""
    found = []
    sets = sorted({c.chunk_set for c in chunks})
    for c in chunks:
        for name, want in (("doc_id", doc.doc_id), ("doc_version", doc.version), ("chunk_set", sets[0])):
            if getattr(c, name) != want:
                found.append({"span": span_of(c), "field": name, "found": getattr(c, name), "expected": want})
    return found


def id_problems(doc: Document, chunks: Sequence[Chunk], config: ChunkConfig) -> list[Record]:
    found: list[Record] = []
    seen: dict[str, list[int]] = {}
    for c, want in zip(chunks, recomputed_ids(doc, chunks, config), strict=True):
        if c.id != want:
            found.append({"span": span_of(c), "field": "id", "found": c.id, "expected": want})
        elif c.id in seen:
            found.append({"span": span_of(c), "field": "id", "found": c.id, "expected": None, "same_as": seen[c.id]})
        seen.setdefault(c.id, span_of(c))
    return found


def _pointer(c: Chunk, name: str, want: Chunk | None, by_id: dict[str, Chunk]) -> Record | None:
    got = getattr(c, name)
    if got == (want.id if want else None):
        return None
    target = by_id.get(got) if got is not None else None
    return {
        "span": span_of(c),
        "field": name,
        "found": got,
        "expected": want.id if want else None,
        "points_at": span_of(target) if target else None,
        "should_point_at": span_of(want) if want else None,
    }


def parent_problems(chunks: Sequence[Chunk], by_id: dict[str, Chunk]) -> list[Record]:
    found = []
    for c in chunks:
        if c.parent_id is None:
            continue
        parent = by_id.get(c.parent_id)
        if parent is None or parent is c or not (parent.start <= c.start and c.end <= parent.end):
            found.append(
                {
                    "span": span_of(c),
                    "field": "parent_id",
                    "found": c.parent_id,
                    "expected": "a chunk of the set holding this span",
                    "points_at": span_of(parent) if parent else None,
                    "should_point_at": None,
                }
            )
    return found


def chain_problems(chunks: Sequence[Chunk], by_id: dict[str, Chunk]) -> list[Record]:
    parents = {c.parent_id for c in chunks if c.parent_id is not None}
    layers = [[c for c in chunks if c.id in parents], [c for c in chunks if c.id not in parents]]
    found = []
    for layer in layers:
        for k, c in enumerate(layer):
            before = layer[k - 1] if k else None
            after = layer[k + 1] if k + 1 < len(layer) else None
            for name, want in (("prev_id", before), ("next_id", after)):
                problem = _pointer(c, name, want, by_id)
                if problem is not None:
                    found.append(problem)
    return found


def check_ids(doc: Document, chunks: Sequence[Chunk], config: ChunkConfig) -> list[Record]:
    """Every way the chunks' ids and relations differ from what their content says they must be."""
    if not chunks:
        return []
    by_id = {c.id: c for c in chunks}
    return [
        *provenance_problems(doc, chunks),
        *id_problems(doc, chunks, config),
        *parent_problems(chunks, by_id),
        *chain_problems(chunks, by_id),
    ]
