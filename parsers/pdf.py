"""Born-digital PDF → Document: text and character boxes from pypdfium2, page by page.

Data flow: page text lines with boxes (pypdfium2) → page furniture (running headers, footers,
page numbers repeated across pages) → tables on pages with ruling lines (pdfplumber's table
finder, only there) → reading order by XY-cut over the page's blocks (columns, full-width
titles) → paragraphs rebuilt from lines (hyphenation joined, ligatures normalized) → headings
from line height relative to the body text and the PDF outline → elements with page and box.
"""

from __future__ import annotations

import ctypes
import os
import re
import time
import unicodedata
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Any

import pypdfium2 as pdfium

from parsers.model import Document, Element, ParseError, ParseWarning, TextBuilder, content_version
from parsers.pdf_tables import find_tables

NAME = "pdf"
VERSION = f"pypdfium2/{version('pypdfium2')}+pdfplumber/{version('pdfplumber')}"
SUFFIXES = (".pdf",)
_SEP = "\n\n"
_MARGIN = 0.08  # top and bottom share of a page where running headers and footers live
_PAGE_NUMBER = re.compile(r"^(page\s*)?\d{1,4}(\s*(of|/)\s*\d{1,4})?$", re.IGNORECASE)
# Producers often write the source file's name as the title ("Microsoft Word - Agenda.doc").
_JUNK_TITLE = re.compile(
    r"^(microsoft \w+ - .*|.*\.(docx?|exe|pdf|rtf|xlsx?|pptx?|tmp|indd)|untitled.*)$", re.IGNORECASE
)
_CAPTION = re.compile(r"^(table|figure|fig\.)\s+\d+", re.IGNORECASE)


def _setting(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


@dataclass
class Line:
    page: int
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    height: float  # the line's type size, in points (to half a point)
    bold: bool = False  # most of its characters are set in a bold weight

    @property
    def box(self) -> tuple[float, float, float, float]:
        return _box(self.x0, self.top, self.x1, self.bottom)


@dataclass
class Table:
    page: int
    rows: list[list[str]]
    x0: float
    top: float
    x1: float
    bottom: float
    header_rows: int = 0


@dataclass
class Page:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def parse(data: bytes, doc_id: str) -> Document:
    pdf = _open(data)
    warnings: list[ParseWarning] = []
    pages = _read_pages(pdf, data, warnings)
    furniture = _furniture(pages)
    body = _body_height(pages)
    levels = _heading_levels(pages, body, furniture)
    outline = _outline(pdf, warnings)
    builder = _Builder()
    for page in pages:
        _emit_page(builder, page, furniture, body, levels, outline)
    # Furniture goes after the body, so no chunk (a contiguous slice) can take it in.
    for page in pages:
        for line in page.lines:
            if (page.number, line.text) in furniture:
                builder.emit("furniture", line.text, page.number, line.box)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format="pdf",
        text=builder.text(),
        elements=builder.elements,
        metadata=_metadata(pdf, builder),
        parser=f"{NAME} {VERSION}",
        warnings=warnings,
    )
    if not doc.text.strip() and not any(w.code == "needs_ocr" for w in warnings):
        warnings.append(ParseWarning("empty", "the document has no text"))
    return doc


# -- opening ------------------------------------------------------------------------------


def _open(data: bytes) -> pdfium.PdfDocument:
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


def _read_pages(pdf: pdfium.PdfDocument, data: bytes, warnings: list[ParseWarning]) -> list[Page]:
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
        clean = _normalize(raw_line)
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


def _normalize(text: str) -> str:
    """Ligatures (ﬁ → fi) and odd whitespace folded; the text is ours to normalize."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


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
        rows = [[_normalize(cell) for cell in row] for row in cells]
        tables.append(Table(result.number, rows, x0, top, x1, bottom, _header_rows(rows)))
    page = result
    # Lines inside a table are its cells, not paragraphs.
    page.lines = [ln for ln in page.lines if not any(_inside(ln, t) for t in tables)]
    return tables


def _inside(line: Line, table: Table) -> bool:
    return (
        line.top >= table.top - 2
        and line.bottom <= table.bottom + 2
        and line.x0 >= table.x0 - 2
        and line.x1 <= table.x1 + 2
    )


def _numeric(cell: str) -> bool:
    return bool(re.fullmatch(r"[-+$€£(]?[\d.,%]+[)%]?", cell.replace(" ", ""))) if cell else False


def _header_rows(rows: list[list[str]]) -> int:
    """A first row is a header when it is complete text over columns whose body is numeric,
    or text over a body that repeats none of it (detected, not assumed)."""
    first, body = rows[0], rows[1:]
    filled = [c for c in first if c]
    # A cell merged across columns leaves the others empty: most, not all, must hold text.
    if len(filled) < max(2, 0.6 * len(first)) or any(_numeric(c) for c in filled):
        return 0
    columns = range(len(first))
    numeric_below = any(first[c] and all(_numeric(r[c]) for r in body if c < len(r) and r[c]) for c in columns)
    return 1 if numeric_below or all(r != first for r in body) else 0


# -- furniture, type sizes, outline ----------------------------------------------------------


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", text.lower())


def _furniture(pages: list[Page]) -> set[tuple[int, str]]:
    """Lines in the top or bottom margin that repeat (digits aside) on many pages, and page numbers."""
    seen: dict[str, set[int]] = {}
    for page in pages:
        for line in page.lines:
            if _in_margin(line, page):
                seen.setdefault(_key(line.text), set()).add(page.number)
    repeated = {k for k, on in seen.items() if len(on) >= 2 and len(on) >= 0.4 * len(pages)}
    out = set()
    for page in pages:
        for line in page.lines:
            if _in_margin(line, page) and (_key(line.text) in repeated or _PAGE_NUMBER.match(line.text)):
                out.add((page.number, line.text))
    return out


def _in_margin(line: Line, page: Page) -> bool:
    return line.top < page.height * _MARGIN or line.bottom > page.height * (1 - _MARGIN)


def _body_height(pages: list[Page]) -> float:
    heights: dict[float, int] = {}
    for page in pages:
        for line in page.lines:
            size = round(line.height, 1)
            heights[size] = heights.get(size, 0) + len(line.text)
    return max(heights, key=lambda h: heights[h]) if heights else 0.0


def _heading_levels(pages: list[Page], body: float, furniture: set[tuple[int, str]]) -> dict[float, int]:
    """Type sizes clearly above the body's, largest first, as heading levels 1-3."""
    sizes = sorted(
        {
            round(line.height, 1)
            for page in pages
            for line in page.lines
            if body
            and line.height >= body * 1.15
            and len(line.text) <= 120
            and (page.number, line.text) not in furniture
        },
        reverse=True,
    )
    return {size: min(n + 1, 3) for n, size in enumerate(sizes)}


_NUMBERING = re.compile(r"^\s*((\d+|[ivxlc]+|[a-z])([.)]\d+)*[.)]?\s+)", re.IGNORECASE)


def _outline_key(text: str) -> str:
    """Outline titles and heading lines compared without numbering, case or spacing."""
    return " ".join(_NUMBERING.sub("", _normalize(text)).lower().split())


def _outline(pdf: pdfium.PdfDocument, warnings: list[ParseWarning]) -> dict[tuple[str, int | None], int]:
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
        out.setdefault((_outline_key(title), page), min(bookmark.level + 1, 3))
    return out


def _outline_level(outline: dict[tuple[str, int | None], int], line: Line) -> int | None:
    key = _outline_key(line.text)
    return outline.get((key, line.page)) or outline.get((key, None))


def _metadata(pdf: pdfium.PdfDocument, builder: _Builder) -> dict[str, Any]:
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


# -- reading order and elements --------------------------------------------------------------


Block = Line | Table


def _xy_cut(blocks: list[Block], depth: int = 0) -> list[Block]:
    """Recursive XY-cut: split at the widest horizontal gap, else at a vertical gutter
    (columns); where a few blocks (a title, a figure) span the gutter, cut the page into
    bands above and below them first."""
    if len(blocks) <= 1 or depth > 60:
        return sorted(blocks, key=lambda b: (b.top, b.x0))
    for axis in ("y", "x"):
        parts = _split(blocks, axis)
        if parts is not None:
            return [b for part in parts for b in _xy_cut(part, depth + 1)]
    banded = _bands(blocks)
    if banded is not None:
        return [b for part in banded for b in _xy_cut(part, depth + 1)]
    return sorted(blocks, key=lambda b: (b.top, b.x0))


def _extent(b: Block, axis: str) -> tuple[float, float]:
    return (b.top, b.bottom) if axis == "y" else (b.x0, b.x1)


def _split(blocks: list[Block], axis: str) -> list[list[Block]] | None:
    def lo(b: Block) -> float:
        return _extent(b, axis)[0]

    def hi(b: Block) -> float:
        return _extent(b, axis)[1]

    ordered = sorted(blocks, key=lo)
    best, best_gap, reach = None, 0.0, hi(ordered[0])
    min_gap = 6.0 if axis == "y" else 4.0
    for i in range(1, len(ordered)):
        gap = lo(ordered[i]) - reach
        if gap > min_gap and gap > best_gap:
            best, best_gap = i, gap
        reach = max(reach, hi(ordered[i]))
    return None if best is None else [ordered[:best], ordered[best:]]


def _bands(blocks: list[Block]) -> list[list[Block]] | None:
    """A gutter that only a few blocks cross: those blocks cut the region into bands."""
    left, right = int(min(b.x0 for b in blocks)), int(max(b.x1 for b in blocks)) + 1
    cover = [0] * (right - left + 1)
    for b in blocks:
        cover[int(b.x0) - left] += 1
        cover[min(len(cover) - 1, int(b.x1) - left + 1)] -= 1
    running, counts = 0, []
    for c in cover:
        running += c
        counts.append(running)
    tolerance = max(1, len(blocks) // 30)
    best: tuple[int, int] | None = None
    start = None
    for x, n in enumerate([*counts, tolerance + 1]):
        if n <= tolerance and 0 < x < len(counts) - 1:
            start = x if start is None else start
        elif start is not None:
            if x - start >= 4 and (best is None or x - start > best[1] - best[0]):
                best = (start, x)
            start = None
    if best is None:
        return None
    gutter = left + (best[0] + best[1]) / 2
    spanning = sorted((b for b in blocks if b.x0 < gutter < b.x1), key=lambda b: b.top)
    if not spanning or len(spanning) == len(blocks):
        return None
    rest = [b for b in blocks if not (b.x0 < gutter < b.x1)]
    parts: list[list[Block]] = []
    upper = float("-inf")
    for span in spanning:
        parts.append([b for b in rest if upper <= b.top < span.top])
        parts.append([span])
        upper = span.top
    parts.append([b for b in rest if b.top >= upper])
    return [p for p in parts if p]


@dataclass
class _Builder(TextBuilder):
    elements: list[Element] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    last_table: Element | None = None  # for a table continued on the next page

    def emit(
        self, kind: str, text: str, page: int, box: tuple[float, float, float, float], sep: str = _SEP, **fields: Any
    ) -> Element:
        start, end = self.add(text, sep)
        el = Element(f"e{len(self.elements)}", kind, start, end, section_path=tuple(t for _, t in self.headings),
                     page=page, bbox=box, **fields)  # fmt: skip
        self.elements.append(el)
        return el


def _emit_page(
    b: _Builder,
    page: Page,
    furniture: set[tuple[int, str]],
    body: float,
    levels: dict[float, int],
    outline: dict[tuple[str, int | None], int],
) -> None:
    kept = [ln for ln in page.lines if (page.number, ln.text) not in furniture]
    # Bold marks headings only on a page where bold is rare (not a form or a bold table).
    bold_heads = sum(ln.bold for ln in kept) <= 0.2 * len(kept)
    blocks: list[Block] = [*kept, *page.tables]
    paragraph: list[Line] = []
    for block in _xy_cut(blocks):
        if isinstance(block, Table):
            _flush(b, paragraph, body)
            paragraph = []
            _emit_table(b, block)
            continue
        level = _outline_level(outline, block) or (levels.get(round(block.height, 1)) if _wordy(block.text) else None)
        if not level and bold_heads and block.bold and block.height <= body * 1.15 and _label(block.text):
            # A short bold line at body size heads what follows, one level below the sized headings.
            level = min(3, max(levels.values(), default=0) + 1)
        if level:
            _flush(b, paragraph, body)
            paragraph = []
            if not _extend_heading(b, block, level):
                while b.headings and b.headings[-1][0] >= level:
                    b.headings.pop()
                b.headings.append((level, block.text))
                b.emit("heading", block.text, page.number, block.box, level=level)
            continue
        if paragraph and not _continues(paragraph[-1], block):
            _flush(b, paragraph, body)
            paragraph = []
        paragraph.append(block)
    _flush(b, paragraph, body)


def _extend_heading(b: _Builder, line: Line, level: int) -> bool:
    """A heading set over two lines is one heading: the second line joins the first."""
    last = b.elements[-1] if b.elements else None
    box = last.bbox if last is not None else None
    if last is None or last.kind != "heading" or last.level != level or last.page != line.page or box is None:
        return False
    if not (0 <= line.top - box[3] <= line.height) or abs(line.x0 - box[0]) > line.height * 4:
        return False
    joined = f"{b.pieces[-1]} {line.text}"
    b.size += len(joined) - len(b.pieces[-1])
    b.pieces[-1] = joined
    last.end = b.size
    last.bbox = (min(box[0], line.x0), box[1], max(box[2], line.x1), line.bottom)
    b.headings[-1] = (level, joined)
    last.section_path = (*last.section_path[:-1], joined)
    return True


def _wordy(text: str) -> bool:
    """Headings are a few words: not a sentence, a URL, a number or a code set large."""
    letters = sum(c.isalpha() for c in text)
    words = len(text.split())
    return letters >= 3 and letters >= 0.6 * len(text.replace(" ", "")) and words <= 14 and text[-1] not in ".,;"


def _label(text: str) -> bool:
    """A short run of words, perhaps after a section number ("2.1 Scope"), not a value."""
    words = re.sub(r"^\d+(\.\d+)*\.?\s+", "", text)
    letters = sum(c.isalpha() for c in words)
    compact = words.replace(" ", "")
    return letters >= 4 and letters >= 0.85 * len(compact) and len(words.split()) <= 8 and text[-1] not in ":.,;"


def _continues(prev: Line, line: Line) -> bool:
    """Same paragraph: the next line starts just below, in the same column, at the same size."""
    gap = line.top - prev.bottom
    close = -2 <= gap <= max(prev.height, line.height) * 0.9
    return close and abs(line.height - prev.height) <= 2.0 and line.x0 < prev.x1


def _join(lines: list[Line]) -> str:
    text = lines[0].text
    for line in lines[1:]:
        if text.endswith("-") and line.text[:1].islower():
            text = text[:-1] + line.text  # a word hyphenated at the line end
        else:
            text += " " + line.text
    return text


def _flush(b: _Builder, lines: list[Line], body: float) -> None:
    if not lines:
        return
    text = _join(lines)
    box = (min(ln.x0 for ln in lines), lines[0].top, max(ln.x1 for ln in lines), lines[-1].bottom)
    box = _box(*box)
    page = lines[0].page
    if body and max(ln.height for ln in lines) < body * 0.85 and re.match(r"^(\d{1,3}|[*†‡§])\s", text):
        b.emit("footnote", text, page, box)  # small type that starts with a mark: kept apart from the body
    elif _CAPTION.match(text):
        b.emit("caption", text, page, box)
    else:
        b.emit("paragraph", text, page, box)


def _box(x0: float, top: float, x1: float, bottom: float) -> tuple[float, float, float, float]:
    return (round(x0, 1), round(top, 1), round(x1, 1), round(bottom, 1))


def _row_text(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _emit_table(b: _Builder, table: Table) -> None:
    rows = table.rows
    previous = b.last_table
    header = previous.data.get("header") if previous is not None else None
    # A table that goes on from the previous page: the same columns, a repeated header or none.
    last = b.elements[-1] if b.elements else None
    continues = previous is not None and last is not None and last.parent == previous.id
    if continues and previous is not None and header is not None and len(rows[0]) == len(header):
        if rows[0] == header:
            rows = rows[1:]  # the header repeated on the new page: the table already has it
        _rows(b, previous, rows, table, first=False)
        previous.data["rows"] += len(rows)
        previous.data["pages"].append(table.page)
        previous.end = b.size
        return
    box = _box(table.x0, table.top, table.x1, table.bottom)
    lead_in = b.elements[-1].id if b.elements and b.elements[-1].kind == "caption" else None
    start = b.next_start(_SEP)
    data: dict[str, Any] = {
        "header": rows[0] if table.header_rows else None,
        "header_text": _row_text(rows[0]) if table.header_rows else None,
        "rows": len(rows) - table.header_rows,
        "pages": [table.page],
    }
    if lead_in:
        data["lead_in"] = lead_in
    el = Element(f"e{len(b.elements)}", "table", start, start, section_path=tuple(t for _, t in b.headings),
                 page=table.page, bbox=box, data=data)  # fmt: skip
    b.elements.append(el)
    if table.header_rows:
        b.emit("table_row", _row_text(rows[0]), table.page, box, parent=el.id, data={"cells": rows[0], "header": True})
        rows = rows[1:]
        _rows(b, el, rows, table, first=False)
    else:
        _rows(b, el, rows, table, first=True)
    el.end = b.size
    b.last_table = el


def _rows(b: _Builder, table: Element, rows: list[list[str]], source: Table, first: bool) -> None:
    box = _box(source.x0, source.top, source.x1, source.bottom)
    for n, cells in enumerate(rows):
        b.emit("table_row", _row_text(cells), source.page, box, sep=_SEP if first and n == 0 else "\n",
               parent=table.id, data={"cells": cells, "header": False})  # fmt: skip
