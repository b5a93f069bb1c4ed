"""Everything that touches PDFium: opening the file, each page's text lines with their boxes,
sizes and weights, its ruled tables' edges, the outline and the metadata."""

from __future__ import annotations

import ctypes
import os
import re
import time
from dataclasses import dataclass
from typing import Any

import pypdfium2 as pdfium

from parsers.model import ParseError, ParseWarning
from parsers.pdf.build import Builder
from parsers.pdf.layout import Line, Page, Table
from parsers.pdf.tables import find_tables, header_rows, inside
from parsers.pdf.text import normalize
from parsers.pdf.typography import outline_key

# Producers often write the source file's name as the title ("Microsoft Word - Agenda.doc").
_JUNK_TITLE = re.compile(
    r"^(microsoft \w+ - .*|.*\.(docx?|exe|pdf|rtf|xlsx?|pptx?|tmp|indd)|untitled.*)$", re.IGNORECASE
)


def _setting(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def open_pdf(data: bytes) -> pdfium.PdfDocument:
    if not data:
        raise ParseError("empty", "zero bytes: not a PDF")
    if b"%PDF" not in data[:1024]:
        raise ParseError("not_pdf", "not a PDF (no %PDF header)")
    password = os.environ.get("PARSEGATE_PDF_PASSWORD") or None
    try:
        return pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == 4 or "password" in str(exc).lower():
            raise ParseError("encrypted", "encrypted, needs a password: pass --password") from None
        raise ParseError("malformed", f"PDFium cannot open it: {exc}") from None


def read_pages(pdf: pdfium.PdfDocument, data: bytes, warnings: list[ParseWarning]) -> list[Page]:
    max_pages = int(_setting("PARSEGATE_PDF_MAX_PAGES", 2000))
    max_seconds = _setting("PARSEGATE_PDF_MAX_SECONDS", 300)
    if len(pdf) > max_pages:
        raise ParseError("too_many_pages", f"{len(pdf)} pages, over the limit of {max_pages} (PARSEGATE_PDF_MAX_PAGES)")
    started = time.perf_counter()
    pages: list[Page] = []
    for index in range(len(pdf)):
        if time.perf_counter() - started > max_seconds:
            raise ParseError(
                "timeout", f"over the {max_seconds:.0f} s limit at page {index + 1} (PARSEGATE_PDF_MAX_SECONDS)"
            )
        try:
            page = pdf[index]
            textpage = page.get_textpage()
            frame = Frame.of(page, textpage)
            result = Page(index + 1, frame.width, frame.height, _lines(textpage, index + 1, frame))
        except pdfium.PdfiumError as exc:
            warnings.append(ParseWarning("malformed", f"page {index + 1} cannot be read: {exc}", f"page {index + 1}"))
            continue
        if not result.lines:
            if _has_images(page):
                warnings.append(
                    ParseWarning("needs_ocr", f"page {index + 1} has no text layer (a scan?)", f"page {index + 1}")
                )
        elif _has_rules(page):
            result.tables = _tables(page, textpage, frame, result)
        pages.append(result)
    return pages


@dataclass
class Frame:
    """Reading space: where text runs left to right and lines go down, whatever the page's
    /Rotate or text matrix. Text set sideways to be read upright (a landscape table on a
    rotated page) is turned; a page merely rotated for display reads as it was written."""

    direction: int  # of the text in the page's own space: 0, 90, 180 or 270 degrees
    width: float  # of the page in reading space
    height: float
    page_width: float  # of the page in its own (unrotated) space
    page_height: float

    @classmethod
    def of(cls, page: Any, textpage: Any) -> Frame:
        w, h = page.get_size()
        if page.get_rotation() in (90, 270):
            w, h = h, w  # get_size() is the displayed size; boxes are in the unrotated space
        direction = _text_direction(textpage)
        width, height = (h, w) if direction in (90, 270) else (w, h)
        return cls(direction, width, height, w, h)

    def box(self, left: float, bottom: float, right: float, top: float) -> tuple[float, float, float, float]:
        """(x0, top, x1, bottom) in reading space of a box given in page space."""
        w, h = self.page_width, self.page_height
        if self.direction == 90:
            return bottom, left, top, right
        if self.direction == 270:
            return h - top, w - right, h - bottom, w - left
        if self.direction == 180:
            return w - right, bottom, w - left, top
        return left, h - top, right, h - bottom

    def page_rect(self, x0: float, top: float, x1: float, bottom: float) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) in page space of a box given in reading space."""
        w, h = self.page_width, self.page_height
        if self.direction == 90:
            return top, x0, bottom, x1
        if self.direction == 270:
            return w - bottom, h - x1, w - top, h - x0
        if self.direction == 180:
            return w - x1, top, w - x0, bottom
        return x0, h - bottom, x1, h - top


def _text_direction(textpage: Any) -> int:
    """The direction most characters run in, from their text matrices (a sample suffices)."""
    count = textpage.count_chars()
    matrix = pdfium.raw.FS_MATRIX()  # type: ignore[no-untyped-call]
    votes = {0: 0, 90: 0, 180: 0, 270: 0}
    for i in range(0, count, max(1, count // 200)):
        if pdfium.raw.FPDFText_GetMatrix(textpage.raw, i, ctypes.byref(matrix)):  # type: ignore[no-untyped-call]
            a, b = matrix.a, matrix.b
            if abs(a) >= abs(b):
                votes[0 if a > 0 else 180] += 1
            else:
                votes[90 if b > 0 else 270] += 1
    return max(votes, key=lambda d: votes[d])


def _lines(textpage: Any, number: int, frame: Frame) -> list[Line]:
    count = textpage.count_chars()
    if count == 0:
        return []
    sizes = _type_sizes(textpage, count)
    lines: list[Line] = []
    for run in _char_runs(textpage, count):
        raw_line = "".join(text for _, text in run)
        indices = [i for i, text in run if not text.isspace()]
        boxes = [textpage.get_charbox(i) for i in indices]
        kept = [(i, b) for i, b in zip(indices, boxes, strict=True) if b[2] > b[0] and b[3] > b[1]]
        clean = normalize(raw_line)
        if clean and kept:
            line_sizes = [sizes[i] for i, _ in kept]
            x0, top, x1, bottom = frame.box(
                min(b[0] for _, b in kept),
                min(b[1] for _, b in kept),
                max(b[2] for _, b in kept),
                max(b[3] for _, b in kept),
            )
            # The line's most common type size stands for it.
            bold = _bold(textpage, kept[0][0]) and _bold(textpage, kept[len(kept) // 2][0])
            size = max(set(line_sizes), key=line_sizes.count)
            lines.append(Line(number, clean, x0, top, x1, bottom, size, bold))
    return lines


def _char_runs(textpage: Any, count: int) -> list[list[tuple[int, str]]]:
    """PDFium's lines as (char index, text) pairs, read from the char list itself: the text of
    get_text_range() is not indexed like the chars (it leaves out glyphs mapped to control
    codes, and a char above U+FFFF takes two char slots but is one Python char)."""
    runs: list[list[tuple[int, str]]] = [[]]
    i = 0
    while i < count:
        unit = pdfium.raw.FPDFText_GetUnicode(textpage.raw, i)
        if 0xD800 <= unit < 0xDC00 and i + 1 < count:
            low = pdfium.raw.FPDFText_GetUnicode(textpage.raw, i + 1)
            runs[-1].append((i, chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))))
            i += 2
            continue
        if unit == 0x0A and pdfium.raw.FPDFText_IsGenerated(textpage.raw, i) == 1:
            runs.append([])  # PDFium's own line break (CR LF)
        elif unit != 0x0D and pdfium.raw.FPDFText_GetTextIndexFromCharIndex(textpage.raw, i) >= 0:
            runs[-1].append((i, chr(unit)))
        i += 1
    return [run for run in runs if run]


_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)


def _bold(textpage: Any, index: int) -> bool:
    """Bold by the font's weight, or by its name where the weight is not given (the base 14 fonts)."""
    weight = pdfium.raw.FPDFText_GetFontWeight(textpage.raw, index)
    if weight > 0:
        return bool(weight >= 600)
    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium.raw.FPDFText_GetFontInfo(textpage.raw, index, buffer, 128, ctypes.byref(flags))  # type: ignore[no-untyped-call]
    return bool(_BOLD_NAME.search(buffer.value.decode("latin-1", errors="replace")))


def _type_sizes(textpage: Any, count: int) -> list[float]:
    """Each character's type size in points: the font size times the text matrix's scale."""
    matrix = pdfium.raw.FS_MATRIX()  # type: ignore[no-untyped-call]
    sizes = []
    for i in range(count):
        size = pdfium.raw.FPDFText_GetFontSize(textpage.raw, i)
        if pdfium.raw.FPDFText_GetMatrix(textpage.raw, i, ctypes.byref(matrix)):  # type: ignore[no-untyped-call]
            size *= (matrix.c**2 + matrix.d**2) ** 0.5
        sizes.append(round(size * 2) / 2)
    return sizes


def _has_images(page: Any) -> bool:
    return any(True for _ in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE]))


def _has_rules(page: Any) -> bool:
    """Enough vector paths that a ruled table may be drawn on the page."""
    for paths, _ in enumerate(page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_PATH], max_depth=2), start=1):
        if paths >= 6:
            return True
    return False


# -- tables --------------------------------------------------------------------------------


def _tables(page: Any, textpage: Any, frame: Frame, result: Page) -> list[Table]:
    tables = []
    for (x0, top, x1, bottom), cells in find_tables(page, textpage, frame):
        rows = [[normalize(cell) for cell in row] for row in cells]
        tables.append(Table(result.number, rows, x0, top, x1, bottom, header_rows(rows)))
    page = result
    # Lines inside a table are its cells, not paragraphs.
    page.lines = [ln for ln in page.lines if not any(inside(ln, t) for t in tables)]
    return tables


def read_outline(pdf: pdfium.PdfDocument, warnings: list[ParseWarning]) -> dict[tuple[str, int | None], int]:
    """The bookmarks as {(title key, page number or None): level 1..3}."""
    out: dict[tuple[str, int | None], int] = {}
    for bookmark in pdf.get_toc():
        try:
            title = bookmark.get_title()
        except UnicodeDecodeError:
            warnings.append(ParseWarning("malformed", "a bookmark title is not valid UTF-16; left out"))
            continue
        dest = bookmark.get_dest()
        index = dest.get_index() if dest is not None else None
        page = index + 1 if index is not None else None
        out.setdefault((outline_key(title), page), min(bookmark.level + 1, 3))
    return out


def read_metadata(pdf: pdfium.PdfDocument, builder: Builder) -> dict[str, Any]:
    meta: dict[str, Any] = {"pages": len(pdf)}
    try:
        info = pdf.get_metadata_dict(skip_empty=True)
    except UnicodeDecodeError:  # a metadata string that is not valid UTF-16
        info = {}
    top = [el for el in builder.elements if el.kind == "heading" and el.level == 1]
    title = (info.get("Title") or "").strip()
    if title and not _JUNK_TITLE.match(title):
        meta["title"] = title
    elif len(top) == 1:
        # One top-level heading names the document; several are its sections.
        meta["title"] = builder.text()[top[0].start : top[0].end]
    return meta
