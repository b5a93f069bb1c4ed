"""Chunks: a document that yields no chunk is quarantined, not silently absent, unless it has
nothing to say: a file whose text is empty or whitespace (an empty ``__init__.py``; the parser warns
``empty``) is counted and reported as empty, not failed (issue 36: every Python repository's first
run failed on them). A scanned page, a page whose content the parser dropped as chrome, a document
of front matter alone: text that is there and reached no chunk, and so a failure. So is a document
with no text whose parser says it could not read what is there (``needs_ocr``: a scan without the
OCR engine; ``ocr_empty``: a page image in which OCR found no word)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class ChunksFacts:
    empty_text: bool = False  # Document.text is empty or whitespace: nothing a chunk could hold


UNREAD = frozenset({"needs_ocr", "ocr_empty"})  # warnings that say content is there, unread


def measure(s: Subject) -> ChunksFacts:
    if s.doc.format == "notebook" and s.reference is not None and s.reference.cells is not None:
        # A notebook's file is never empty (its JSON): it has nothing to say when its cells and
        # outputs, as json.loads reads them, hold no text (references/notebook.py).
        return ChunksFacts(not s.reference.cells)
    if s.doc.format == "asciidoc" and s.reference is not None and s.reference.rendered is not None:
        # A header alone, or includes alone (never followed): nothing to say when asciidoc-py's
        # rendering of the file holds no text (references/asciidoc.py).
        return ChunksFacts(not s.reference.rendered)
    return ChunksFacts(not s.doc.text.strip() and not any(w.code in UNREAD for w in s.doc.warnings))


def empty(facts: DocFacts) -> bool:
    """A document with nothing to say: no chunk, and no text."""
    return facts.chunks == 0 and facts.get(ChunksFacts).empty_text


def value(facts: DocFacts, thresholds: Thresholds) -> int | None:
    return None if empty(facts) else facts.chunks


def total(all_facts: list[DocFacts], thresholds: Thresholds) -> int:
    return sum(f.chunks for f in all_facts)


CHECK: Definition[ChunksFacts] = Definition(
    name="chunks",
    metric="chunks",
    label="chunks",
    limit=Limit("min_chunks", 1, int),
    facts=ChunksFacts,
    measure=measure,
    value=value,
    total=total,
)
