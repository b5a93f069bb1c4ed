"""The character-window baseline of our reference design, reproduced exactly.

It takes sections ``(heading, text)``; windows of ``size`` characters advance by
``size - overlap`` and never cross a section; ids are
``doc_id:version:section_index:start-end`` with offsets inside the section.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parsegate.chunkers.structural.finalize import Draft
from parsegate.parsers.model import Document


@dataclass(frozen=True)
class Window:
    id: str
    section_index: int
    heading: str
    start: int  # offsets inside the section's text
    end: int
    text: str


def _check(size: object, overlap: object) -> tuple[int, int]:
    # bool is an int subclass; a flag passed by mistake must not become a size of 1.
    if type(size) is not int or type(overlap) is not int:
        raise ValueError(f"size and overlap must be ints, got {size!r} and {overlap!r}")
    if size <= 0:
        raise ValueError(f"size must be positive, got {size}")
    if overlap < 0 or overlap >= size:
        raise ValueError(f"overlap must satisfy 0 <= overlap < size, got overlap={overlap}, size={size}")
    return size, overlap


def fixed_windows(
    sections: Sequence[tuple[str, str]], size: int, overlap: int, doc_id: str, version: str
) -> list[Window]:
    size, overlap = _check(size, overlap)
    step = size - overlap
    out: list[Window] = []
    for index, (heading, text) in enumerate(sections):
        start = 0
        while start < len(text):
            end = min(start + size, len(text))
            out.append(Window(f"{doc_id}:{version}:{index}:{start}-{end}", index, heading, start, end, text[start:end]))
            if end == len(text):
                break
            start += step
    return out


def document_sections(doc: Document) -> list[tuple[str, int, int]]:
    """(heading title, body start, body end) for each section; text before the first heading
    is a section with an empty heading."""
    headings = [e for e in doc.elements if e.kind == "heading"]
    body_start = next((e.end for e in doc.elements if e.kind == "front_matter"), 0)
    sections: list[tuple[str, int, int]] = []
    title = ""
    for heading in headings:
        sections.append((title, body_start, heading.start))
        title, body_start = doc.text[heading.start : heading.end].lstrip("#").strip(), heading.end
    sections.append((title, body_start, len(doc.text)))
    return [s for s in sections if s[2] > s[1] and doc.text[s[1] : s[2]].strip()]


def fixed(doc: Document, size: int, overlap: int) -> list[Draft]:
    sections = document_sections(doc)
    windows = fixed_windows([(h, doc.text[s:e]) for h, s, e in sections], size, overlap, doc.doc_id, doc.version)
    drafts = []
    for w in windows:
        heading, base, _ = sections[w.section_index]
        drafts.append(
            Draft(
                start=base + w.start,
                end=base + w.end,
                section_path=(heading,) if heading else (),
                kinds=["window"],
                id=w.id,
            )
        )
    return drafts
