"""Extraction recall of an EPUB, chapter by chapter: the words of each spine file's text nodes
(references/epub.py) against the words of the chunks that name that chapter (their ``pages``: the
chapter's place in the spine), less what the parser declared furniture in that chapter; the book's
title against all chunks. Over the whole book a short chapter dropped was under 1% of a long
book's words (dropping the 40th of the Ubuntu Packaging Guide's 125 files left recall at 0.9992);
by chapter its words are found in no chunk of its own, whatever other chapters hold."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from parsegate.parsers.model import Document, Element
from parsegate.quality_gates.checks.base import Faults

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.quality_gates.references import Reference
    from parsegate.quality_gates.references.epub import EpubReading

Whole = Callable[[Faults, Document, Sequence["Chunk"], "Reference", list[list[str]]], tuple[int, int]]


def by_chapter(
    faults: Faults,
    name: str,
    doc: Document,
    chunks: Sequence[Chunk],
    ref: Reference,
    text_words: list[list[str]],
    whole: Whole,
) -> tuple[int, int]:
    """``whole``: recall over one reading and a set of chunks (recall.py's, as for a web page)."""
    from parsegate.quality_gates.references import Reference

    book: EpubReading | None = ref.book
    assert book is not None
    named: dict[int, list[int]] = {}
    for i, c in enumerate(chunks):
        for page in c.pages or ():
            named.setdefault(page, []).append(i)
    elements: dict[int, list[Element]] = {}
    for e in doc.elements:
        if e.page is not None:
            elements.setdefault(e.page, []).append(e)
    parts: list[tuple[int | None, list[str], list[int]]] = [(None, book.title, list(range(len(chunks))))]
    parts += [(number, nodes, named.get(number, [])) for number, nodes in book.chapters.items()]
    total = found = 0
    for number, nodes, held in parts:
        if not nodes:
            continue
        reading = "\n".join(nodes)
        own = Faults()
        part_doc = replace(doc, elements=elements.get(number, []) if number is not None else [])
        part_ref = Reference(ref.kind, reading, reading, html_nodes=nodes)
        part_total, part_found = whole(
            own, part_doc, [chunks[i] for i in held], part_ref, [text_words[i] for i in held]
        )
        total, found = total + part_total, found + part_found
        for fault in own.lists.get(name, []):
            chapter = (
                doc.metadata.get("chapters", [])[number - 1]
                if number and number <= len(doc.metadata.get("chapters", []))
                else None
            )
            faults.add(name, chapter=chapter, page=number, **fault)
    return total, found
