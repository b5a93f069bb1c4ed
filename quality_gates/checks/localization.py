"""Localization: does each chunk say truthfully where its evidence is?

- text formats: ``text`` is the slice ``[start:end]`` of the source file itself, decoded again
  here, and ``lines`` are the lines that slice covers in that file;
- PDF: every box lies on a page the chunk names, and every word of the chunk is among the words
  PDFium finds inside the chunk's boxes on those pages (not measured for a document with pages
  read by OCR: they have no text layer);
- Office and HTML: every word of the chunk is among the words of docling's own export (for HTML,
  or of the file's text nodes as libxml2 reads them; for DOCX, or of the file's own paragraphs:
  a parser may keep text docling's export drops, such as Word's custom XML; for DOCX and PPTX,
  or of the pictures' alt text in the source XML); a chunk holding text OCR read in a DOCX's or
  PPTX's image is not measured (its own check is ocr_confidence);
- EPUB: every word of the chunk is among the words of the book's title and spine chapters' text
  nodes (references/epub.py).
- E-mail: every word of the chunk is among the words of the mail's subject, header lines and
  body parts as the email package (or extract-msg) reads them (references/mail.py).

Text layers and exports run some words together (PDFium's text in a box joins table cells,
docling joins inline list items): a chunk word counts as present when two or three consecutive
chunk words, joined, are one word of the reference, or when it begins or ends a reference word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject
from parsegate.quality_gates.words import present, runs, words

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.references import Reference
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "localization"
_OPEN_END = re.compile(r"(\w+)[\x02\ufffe\u00ad-]\s*$")  # the last word, hyphenated


@dataclass(frozen=True)
class LocalizationFacts:
    localized: int | None = None


def measure(s: Subject) -> LocalizationFacts:
    from parsegate.quality_gates.references import TEXT_FORMATS

    ref = s.reference
    if ref is None:
        return LocalizationFacts()  # not measured: no independent view of this document
    if "ocr" in s.doc.metadata and s.doc.format not in ("docx", "pptx"):
        # Pages read by OCR have no text layer to find the chunk's words in: not measured (their
        # own checks are ocr_confidence and ocr_recall, the other engine's reading of the page).
        # (A DOCX's or PPTX's chunks holding text OCR read in an image are not measured, below.)
        return LocalizationFacts()
    if s.doc.format in TEXT_FORMATS:
        problems = [_in_source(ref, c) for c in s.chunks]
    elif ref.pdf is not None:
        inside: dict[tuple[int, tuple[float, ...]], tuple[str, str]] = {}
        problems = [_in_boxes(ref, c, inside) for c in s.chunks]
    else:
        sequence = ref.export_words
        shown = set(sequence)
        where = "docling's export of the file"
        if ref.html_nodes is not None:
            shown |= set(ref.shown_words)
            where = "docling's export of the file nor its text (lxml)"
        if ref.paragraphs is not None:
            shown |= set(words(" ".join(ref.paragraphs)))
            where = "docling's export of the file nor its paragraphs (lxml)"
        if s.doc.format == "epub":
            where = "the book's chapters (lxml)"  # its reference is their text nodes alone
        if ref.kind.startswith("the mail's own parts"):
            where = "the mail's own parts (its subject, headers and body as its library reads them)"
        # A word the source writes without a space between two inline items ("docling" +
        # "from") is two consecutive words of docling's export, which adds a space: the runs of
        # the export's words are made (once) only for a chunk with a word not there as it stands.
        exported: set[str] | None = None
        problems = []
        for c, held in zip(s.chunks, s.text_words, strict=True):
            if shown.issuperset(held) or "ocr" in c.metadata:
                problems.append(None)
                continue
            if exported is None:
                exported = shown | set(runs(sequence))
            problems.append(_in_export(exported, held, where))
    for c, problem in zip(s.chunks, problems, strict=True):
        if problem is not None:
            s.faults.chunk(FAULTS, c, problem)
    return LocalizationFacts(sum(p is None for p in problems))


def _in_source(ref: Reference, c: Chunk) -> str | None:
    start, end, source = c.start, c.end, ref.text
    if not (0 <= start <= end <= len(source)):
        return f"span {start}–{end} lies outside the source file ({len(source)} characters)"
    if source[start:end] != c.text:
        at = next((i for i, (a, b) in enumerate(zip(source[start:end], c.text, strict=False)) if a != b), None)
        at = min(len(c.text), end - start) if at is None else at
        return f"text differs from the source file at offset {start + at}"
    lines = list(c.lines) if c.lines else None  # as the record writes them
    expected = ref.lines_of(start, end)
    if lines is None or tuple(lines) != expected:
        return f"lines {lines} but the span covers lines {list(expected)} of the source file"
    return None


def _in_boxes(ref: Reference, c: Chunk, inside: dict[tuple[int, tuple[float, ...]], tuple[str, str]]) -> str | None:
    """A word counts as inside when PDFium's text in the boxes has it as a word, or has it run
    together with its neighbours as one word (table cells "2,839" and "5" come out "2,8395"),
    or begins with the word a box's text ends with a hyphen (the last line of a page or a
    column: a parser may join the word with its rest, which stands in a box elsewhere)."""
    assert ref.pdf is not None
    wanted = set(words(c.text))
    boxes = c.boxes or []
    pages = set(c.pages or [])
    if wanted and not boxes:
        return "no boxes: the chunk does not say where on which page it is"
    texts = []
    for box in boxes:
        page, bbox = box.get("page"), tuple(box.get("bbox") or ())
        if page not in pages or page not in ref.pdf.pages or len(bbox) != 4:
            return f"a box on page {page}, which the chunk does not name or the file does not have"
        key = (page, bbox)
        if key not in inside:
            text = ref.pdf.pages[page].text_in(bbox)  # type: ignore[arg-type]
            end = _OPEN_END.search(text)
            inside[key] = (" ".join(words(text)), " ".join(words(end.group(1))) if end else "")
        texts.append(inside[key])
    inside_words = set(" ".join(t for t, _ in texts).split())
    open_ends = [end for _, end in texts if end]
    absent = sorted(
        w
        for w in wanted - present(words(c.text), inside_words)
        if not any(len(w) > len(end) and w.startswith(end) for end in open_ends)
    )
    if absent:
        return f"{len(absent)} words not inside its boxes on the page: {' '.join(absent[:12])}"
    return None


def _in_export(exported: set[str], held: list[str], where: str) -> str | None:
    """As in a PDF's boxes, words run together in docling's export (its inline groups are
    joined without a space: "WiktionaryMedia") still count (``held``: the chunk's words)."""
    absent = sorted(set(held) - present(held, exported))
    if absent:
        return f"{len(absent)} words not in {where}: {' '.join(absent[:12])}"
    return None


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    return facts.get(LocalizationFacts).localized, facts.chunks


CHECK = Definition(
    name="localization",
    metric="localization",
    label="localization",
    limit=Limit("min_localization", 1.0),
    facts=LocalizationFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    needs_source=True,
    independent=True,
    stored="localized",
)
