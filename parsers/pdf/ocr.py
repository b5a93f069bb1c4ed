"""Pages without a text layer, read by OCR (parsers/ocr/) into the same glyph runs PDFium's text
gives (read.py), so that lines, tables, reading order and headings come from the same steps as a
born-digital page's. Each OCR line becomes one run; each word's box is shared among its
characters; the type size is the line's height as the engine measures it. The words' confidences
are kept per page, and each element is given the mean confidence of the words inside its box
(weighted by their length), the page its mean over all its words: ``Document.metadata["ocr"]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsegate.parsers.ocr import Reading, TextLine, read_image
from parsegate.parsers.pdf.layout import Box, Glyph, Style
from parsegate.parsers.pdf.read import RawPage

if TYPE_CHECKING:
    from PIL.Image import Image

    from parsegate.parsers.model import Document
    from parsegate.parsers.options import ParseOptions

_POINTS = 72.0
_FONT = "ocr"  # every OCR glyph's font: OCR tells no typeface
_CELL_WORDS = 4  # a line of at most this many words may be a table cell


@dataclass(frozen=True, slots=True)
class PlacedWord:
    """An OCR word in the page's reading space (points), with the engine's confidence."""

    box: Box
    chars: int
    confidence: float


@dataclass
class OcrPages:
    """The words OCR read on each page, for the confidences of the elements built from them."""

    engine: str = ""
    dpi: int = 0
    words: dict[int, list[PlacedWord]] = field(default_factory=dict)

    def add(self, number: int, reading: Reading, words: list[PlacedWord], dpi: int) -> None:
        self.engine, self.dpi = reading.engine, dpi
        self.words[number] = words

    def page_confidence(self, number: int) -> float:
        return _mean(self.words.get(number, []))


def render_page(pdf: Any, index: int, dpi: int) -> Image:
    """The page as PDFium draws it (its /Rotate applied), in grey, at ``dpi``."""
    page = pdf[index]
    try:
        image: Image = page.render(scale=dpi / _POINTS, grayscale=True).to_pil()
        return image
    finally:
        page.close()


def ocr_raw_page(image: Image, number: int, dpi: int, options: ParseOptions, pages: OcrPages) -> RawPage:
    """One page image read by OCR, as the raw page the PDF steps take: its size in points, its
    lines as glyph runs in reading order."""
    reading = read_image(image, options)
    scale = _POINTS / dpi
    width, height = image.size
    out = RawPage(number, round(width * scale, 2), round(height * scale, 2))
    placed: list[PlacedWord] = []
    index = 0
    for line in baseline_rows(reading.lines):
        size = round(line.height * scale * 2) / 2 or 1.0
        style = Style(_FONT, size)
        run: list[Glyph] = []
        for word in line.words:
            if run:
                run.append(Glyph(" ", 0, 0, 0, 0, style, index))
                index += 1
            x0, top, x1, bottom = (v * scale for v in (word.x0, word.top, word.x1, word.bottom))
            step = (x1 - x0) / len(word.text)
            for i, char in enumerate(word.text):
                run.append(Glyph(char, x0 + i * step, top, x0 + (i + 1) * step, bottom, style, index))
                index += 1
            placed.append(PlacedWord((x0, top, x1, bottom), len(word.text), word.confidence))
        out.runs.append(run)
    pages.add(number, reading, placed, dpi)
    return out


def baseline_rows(lines: list[TextLine]) -> list[TextLine]:
    """The engine's lines, in its order, a short line (a cell) joined to an earlier short one on
    the same baseline, left to right, as PDFium's content stream gives a table's row: Tesseract
    reads a table without rules column by column (each cell a block of its own), and the table
    steps find rows only among lines on one baseline. Two lines share it when they overlap
    vertically by most of the smaller one's height and not horizontally. Lines of prose are
    never joined: two columns stay the engine's lines, in its order."""
    rows: list[TextLine] = []
    cells: list[TextLine] = []  # the rows made of short lines only
    for line in lines:
        short = len(line.words) <= _CELL_WORDS
        row = next((r for r in cells if _same_baseline(r, line)), None) if short else None
        if row is None:
            rows.append(TextLine(list(line.words), line.height))
            if short:
                cells.append(rows[-1])
        else:
            row.words = sorted([*row.words, *line.words], key=lambda w: w.x0)
            row.height = max(row.height, line.height)
    return rows


def _same_baseline(row: TextLine, line: TextLine) -> bool:
    overlap = min(_bottom(row), _bottom(line)) - max(_top(row), _top(line))
    smaller = min(_bottom(row) - _top(row), _bottom(line) - _top(line))
    apart = all(w.x1 <= line.words[0].x0 or w.x0 >= line.words[-1].x1 for w in row.words)
    return smaller > 0 and overlap > 0.6 * smaller and apart


def _top(line: TextLine) -> float:
    return min(w.top for w in line.words)


def _bottom(line: TextLine) -> float:
    return max(w.bottom for w in line.words)


def attach_confidence(doc: Document, pages: OcrPages) -> None:
    """Each element on an OCR page gets the confidence of the words inside its box; the document
    names the engine and each OCR page's confidence."""
    if not pages.words:
        return
    for element in doc.elements:
        if element.page in pages.words and element.bbox is not None:
            inside = [w for w in pages.words[element.page] if _within(w.box, element.bbox)]
            if inside:
                element.data.ocr_confidence = _mean(inside)
    doc.metadata["ocr"] = {
        "engine": pages.engine,
        "dpi": pages.dpi,
        "pages": {str(n): pages.page_confidence(n) for n in sorted(pages.words)},
    }


def _within(box: Box, outer: Box, slack: float = 1.0) -> bool:
    """The word's centre lies in the element's box."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] - slack <= x <= outer[2] + slack and outer[1] - slack <= y <= outer[3] + slack


def _mean(words: list[PlacedWord]) -> float:
    chars = sum(w.chars for w in words)
    return round(sum(w.confidence * w.chars for w in words) / chars, 3) if chars else 0.0
