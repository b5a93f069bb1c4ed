"""Localization: does each chunk say truthfully where its evidence is?

- text formats: ``text`` is the slice ``[start:end]`` of the source file itself, decoded again
  here, and ``lines`` are the lines that slice covers in that file;
- PDF: every box lies on a page the chunk names, and every word of the chunk is among the words
  PDFium finds inside the chunk's boxes on those pages;
- Office and HTML: every word of the chunk is among the words of docling's own export (for HTML,
  or of the file's text nodes as libxml2 reads them: a parser may keep text docling's export drops).

Text layers and exports run some words together (PDFium's text in a box joins table cells,
docling joins inline list items): a chunk word counts as present when two or three consecutive
chunk words, joined, are one word of the reference, or when it begins or ends a reference word.
"""

from __future__ import annotations

from typing import Any

from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.reference import TEXT_FORMATS, Reference
from parsegate.quality_gates.words import present, runs, words


def measure_localization(facts: DocFacts, fmt: str, records: list[dict[str, Any]], ref: Reference | None) -> None:
    if ref is None:
        return  # not measured: no independent view of this document
    if fmt in TEXT_FORMATS:
        problems = [_in_source(ref, r) for r in records]
    elif ref.pdf is not None:
        inside: dict[tuple[int, tuple[float, ...]], str] = {}
        problems = [_in_boxes(ref, r, inside) for r in records]
    else:
        sequence = words(ref.everything or ref.text)
        # A word the source writes without a space between two inline items ("docling" +
        # "from") is two consecutive words of docling's export, which adds a space.
        exported = set(sequence) | set(runs(sequence))
        where = "docling's export of the file"
        if ref.html_nodes is not None:
            exported |= set(words(" ".join(ref.html_nodes)))
            where = "docling's export of the file nor its text (lxml)"
        problems = [_in_export(exported, r, where) for r in records]
    facts.localized = sum(p is None for p in problems)
    for r, problem in zip(records, problems, strict=True):
        if problem is not None:
            facts.fault("localization", chunk=r["id"], start=r["start"], end=r["end"], why=problem)


def _in_source(ref: Reference, r: dict[str, Any]) -> str | None:
    start, end, source = r["start"], r["end"], ref.text
    if not (0 <= start <= end <= len(source)):
        return f"span {start}–{end} lies outside the source file ({len(source)} characters)"
    if source[start:end] != r["text"]:
        at = next((i for i, (a, b) in enumerate(zip(source[start:end], r["text"], strict=False)) if a != b), None)
        at = min(len(r["text"]), end - start) if at is None else at
        return f"text differs from the source file at offset {start + at}"
    lines = r.get("lines")
    expected = ref.lines_of(start, end)
    if lines is None or tuple(lines) != expected:
        return f"lines {lines} but the span covers lines {list(expected)} of the source file"
    return None


def _in_boxes(ref: Reference, r: dict[str, Any], inside: dict[tuple[int, tuple[float, ...]], str]) -> str | None:
    """A word counts as inside when PDFium's text in the boxes has it as a word, or has it run
    together with its neighbours as one word (table cells "2,839" and "5" come out "2,8395")."""
    assert ref.pdf is not None
    wanted = set(words(r["text"]))
    boxes = r.get("boxes") or []
    pages = set(r.get("pages") or [])
    if wanted and not boxes:
        return "no boxes: the chunk does not say where on which page it is"
    texts = []
    for box in boxes:
        page, bbox = box.get("page"), tuple(box.get("bbox") or ())
        if page not in pages or page not in ref.pdf.pages or len(bbox) != 4:
            return f"a box on page {page}, which the chunk does not name or the file does not have"
        key = (page, bbox)
        if key not in inside:
            inside[key] = " ".join(words(ref.pdf.pages[page].text_in(bbox)))  # type: ignore[arg-type]
        texts.append(inside[key])
    inside_words = set(" ".join(texts).split())
    absent = sorted(wanted - present(words(r["text"]), inside_words))
    if absent:
        return f"{len(absent)} words not inside its boxes on the page: {' '.join(absent[:12])}"
    return None


def _in_export(exported: set[str], r: dict[str, Any], where: str) -> str | None:
    """As in a PDF's boxes, words run together in docling's export (its inline groups are
    joined without a space: "WiktionaryMedia") still count."""
    held = words(r["text"])
    absent = sorted(set(held) - present(held, exported))
    if absent:
        return f"{len(absent)} words not in {where}: {' '.join(absent[:12])}"
    return None
