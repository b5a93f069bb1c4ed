"""Born-digital PDF → Document: text and glyph boxes from PDFium (pypdfium2), page by page.

Data flow, one module per step:

1. read: PDFium's glyphs in content-stream order with boxes and styles, images, vector paths
   (the only module that touches PDFium);
2. lines: accents set as glyphs of their own composed with their letters (accents), PDFium's
   lines cut at baseline jumps and at gaps far wider than a word space;
3. navigation, tables, unruled, figures: contents and index entries (declared furniture), ruled
   tables checked against their text, tables recognised from column alignment, figure regions;
   each takes its lines out of the flow;
4. typography: the body style and page furniture, over the whole document;
5. order: lines grouped into blocks, blocks put in reading order by an XY-cut;
6. typography: headings and their levels;
7. build: elements and the document text.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import version
from typing import Any

import pypdfium2 as pdfium

from parsegate.parsers.formats import spec
from parsegate.parsers.model import Document, ParseError, ParseWarning, content_version
from parsegate.parsers.ocr import OcrUnavailable, parser_name
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.pdf.build import Builder, emit_page, finish
from parsegate.parsers.pdf.figures import Mark, figure_regions
from parsegate.parsers.pdf.layout import Bookmark, Box, Line, Page, round_box, union
from parsegate.parsers.pdf.lines import build_lines, rejoin
from parsegate.parsers.pdf.navigation import Navigation, entry_text, navigation_lines
from parsegate.parsers.pdf.ocr import OcrPages, attach_confidence, ocr_raw_page, render_page
from parsegate.parsers.pdf.order import Block, group_lines, item_block, order_blocks
from parsegate.parsers.pdf.outline import Outline, join_labels
from parsegate.parsers.pdf.read import RawPage, open_pdf, read_info, read_outline, read_page
from parsegate.parsers.pdf.tables import ruled_tables
from parsegate.parsers.pdf.text import mostly_rtl
from parsegate.parsers.pdf.typography import body_style, find_headings, folio_in_band, furniture_lines
from parsegate.parsers.pdf.unruled import OpenTable, continue_table, open_table, unruled_tables

NAME = "pdf"
# The structure layer's own version: bump it whenever the elements it makes change.
# Bumped whenever the elements can change (tests/test_versions.py holds it to the golden outputs).
SPEC = spec(NAME)  # parsers/formats.py: suffixes, output version
OUTPUT_VERSION = SPEC.output_version
VERSION = f"{OUTPUT_VERSION}+pypdfium2/{version('pypdfium2')}+pdfplumber/{version('pdfplumber')}"
SUFFIXES = SPEC.suffixes
_WORD = re.compile(r"\w+")
# Producers often write the source file's name as the title ("Microsoft Word - Agenda.doc").
_JUNK_TITLE = re.compile(
    r"^(microsoft \w+ - .*|.*\.(docx?|exe|pdf|rtf|xlsx?|pptx?|tmp|indd)|untitled.*)$", re.IGNORECASE
)


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``suffix`` changes nothing: one form."""
    pdf = open_pdf(data, options.password)
    warnings: list[ParseWarning] = []
    outline = list(read_outline(pdf, warnings))
    ocr = OcrPages()
    builder = build_pages(_raw_pages(pdf, warnings, options, ocr), len(pdf), warnings, outline)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format="pdf",
        text=builder.text(),
        elements=builder.elements,
        metadata=_metadata(pdf, builder),
        parser=parser_name(NAME, VERSION, options),
        warnings=warnings,
    )
    attach_confidence(doc, ocr)
    if not doc.text.strip() and not any(w.code in ("needs_ocr", "ocr_empty") for w in warnings):
        warnings.append(ParseWarning("empty", "the document has no text"))
    return doc


def build_pages(
    raw_pages: Iterable[RawPage], count: int, warnings: list[ParseWarning], outline: list[Bookmark]
) -> Builder:
    """Steps 2-7 over ``count`` raw pages (PDFium's, or OCR's: parsers/pdf/ocr.py), into a
    builder holding the elements and the text."""
    index = Outline.of(outline)
    named = index.names
    pages = list(_pages(raw_pages, count, warnings, index))
    body = body_style(pages)
    furniture = furniture_lines(pages, body)
    laid_out = [(page, _order(page, furniture, named)) for page in pages]
    headings, doubtful = find_headings(laid_out, body, outline)
    for block, weighing in doubtful:
        where = f"page {block.lines[0].page}"
        why = "; ".join(weighing.against) or "weak signs"
        text = " ".join(ln.text for ln in block.lines)
        warnings.append(
            ParseWarning(
                "suspect_heading",
                f"not a heading, read as text: {text[:60]!r} (confidence {weighing.score:.2f}: {why})",
                where,
            )
        )
    words = frozenset(w.lower() for page in pages for ln in page.lines for w in _WORD.findall(ln.text))
    builder = Builder(body=body, words=words)
    for _, blocks in laid_out:
        emit_page(builder, blocks, headings)
    finish(
        builder,
        [(ln.text, page.number, ln.box) for page in pages for ln in page.lines if ln in furniture],
        [_navigation(page) for page in pages if page.navigation],
        [_hidden(page) for page in pages if page.hidden],
    )
    return builder


def _raw_pages(
    pdf: pdfium.PdfDocument, warnings: list[ParseWarning], options: ParseOptions, ocr: OcrPages
) -> Iterator[RawPage]:
    """Each page's glyphs, images and paths from PDFium; a scanned page's glyphs from OCR."""
    max_pages, max_seconds = options.pdf_max_pages, options.pdf_max_seconds
    if len(pdf) > max_pages:
        raise ParseError("too_many_pages", f"{len(pdf)} pages, over the limit of {max_pages} (PARSEGATE_PDF_MAX_PAGES)")
    started = time.perf_counter()
    for index in range(len(pdf)):
        where = f"page {index + 1}"
        if time.perf_counter() - started > max_seconds:
            raise ParseError("timeout", f"over the {max_seconds:.0f} s limit at {where} (PARSEGATE_PDF_MAX_SECONDS)")
        try:
            raw = read_page(pdf, index)
        except pdfium.PdfiumError as exc:
            warnings.append(ParseWarning("malformed", f"{where} cannot be read: {exc}", where))
            continue
        if raw.images and not any(g.text.strip() for run in raw.runs for g in run):
            raw = _read_by_ocr(pdf, raw, options, warnings, ocr)
        yield raw


def _pages(raw_pages: Iterable[RawPage], count: int, warnings: list[ParseWarning], outline: Outline) -> Iterator[Page]:
    above: OpenTable | None = None  # the table the page before ended with
    navigation = Navigation()  # the contents or index entries the page before held
    for raw in raw_pages:
        page, navigation = _page(raw, warnings, count, outline, navigation, goes_on=above is not None)
        if above is not None:
            continue_table(page, above)
        above = open_table(page)  # while the page still has its glyphs
        _let_go_of_glyphs(page)
        yield page


def _read_by_ocr(
    pdf: pdfium.PdfDocument, raw: RawPage, options: ParseOptions, warnings: list[ParseWarning], ocr: OcrPages
) -> RawPage:
    """A page with images and no text layer (a scan), read by OCR; kept as it is, with a
    ``needs_ocr`` warning saying why, when OCR is off or not installed."""
    where = f"page {raw.number}"
    pixels = raw.width * raw.height * (options.ocr_dpi / 72) ** 2
    try:
        if pixels > options.max_image_pixels:
            raise OcrUnavailable(f"at {options.ocr_dpi} dpi its image would be over {options.max_image_pixels} pixels")
        image = render_page(pdf, raw.number - 1, options.ocr_dpi)
        read = ocr_raw_page(image, raw.number, options.ocr_dpi, options, ocr)
        if not read.runs:
            warnings.append(ParseWarning("ocr_empty", f"{where} has no text layer and OCR found no word in it", where))
        return read
    except OcrUnavailable as exc:
        warnings.append(ParseWarning("needs_ocr", f"{where} has no text layer (a scan?): {exc}", where))
        return raw


def _let_go_of_glyphs(page: Page) -> None:
    """Past its page, a line needs its glyphs only to lay out a code listing's spacing (its
    lines, and the numbers or braces among them):
    a long document would otherwise hold every glyph of every page until the end."""
    for line in [
        *page.lines,
        *(ln for t in page.tables for ln in t.lines),
        *(ln for f in page.figures for ln in f.lines),
        *(ln for entry in page.navigation for ln in entry),
        *page.hidden,
    ]:
        if not (line.listing or line.letterless):
            line.glyphs = []


def _page(
    raw: RawPage, warnings: list[ParseWarning], pages: int, outline: Outline, before: Navigation, goes_on: bool = False
) -> tuple[Page, Navigation]:
    """Lines, then navigation (contents and index entries), tables and figures, each taking its
    lines out of the flow (``goes_on``: the page before ended with a table)."""
    lines, dropped = build_lines(raw.runs, raw.number)
    if dropped:
        warnings.append(
            ParseWarning(
                "unmapped_glyphs",
                f"{dropped} line(s) of glyphs with no text behind them left out (a font "
                "without a ToUnicode map; OCR would read them)",
                f"page {raw.number}",
            )
        )
    page = Page(raw.number, raw.width, raw.height, lines)
    if raw.hidden:
        page.hidden, _ = build_lines([run for _, run in raw.hidden], raw.number)
        reasons = ", ".join(sorted({why for why, _ in raw.hidden}))
        chars = sum(1 for _, run in raw.hidden for g in run if g.text.strip())
        warnings.append(
            ParseWarning(
                "hidden_text",
                f"{chars} character(s) no reader sees ({reasons}) kept out of chunks, as furniture",
                f"page {raw.number}",
            )
        )
    navigation = navigation_lines(lines, raw.height, pages, outline.names, before)
    page.navigation = navigation.entries
    page.lines = _without(page.lines, [ln for entry in page.navigation for ln in entry])
    if lines and len(raw.edges) >= 4:
        page.tables = ruled_tables(raw.edges, lines, raw.number, goes_on)
        page.lines = _without(page.lines, [ln for t in page.tables for ln in t.lines])
    marks = [
        *(Mark(box, "image") for box in raw.images),
        *(Mark(d.box, "curve" if d.curved else "box") for d in raw.drawings),
        *(Mark(box, "dot" if max(box[2] - box[0], box[3] - box[1]) <= 2.5 else "rule") for box in raw.rules),
    ]
    page.figures = figure_regions(marks, page.lines, page.tables, raw.width, raw.height, raw.number, outline.names)
    for figure in page.figures:
        # A page number set over a drawing at the page's foot (a decorated page) is the page's.
        figure.lines = [ln for ln in figure.lines if not folio_in_band(ln, raw.height)]
    page.lines = _without(page.lines, [ln for f in page.figures for ln in f.lines])
    unruled = unruled_tables(page.lines, raw.number)
    page.tables += unruled
    page.lines = outline.cut_run_ins(rejoin(_without(page.lines, [ln for t in unruled for ln in t.lines])))
    return page, navigation


def _navigation(page: Page) -> tuple[str, int, Box]:
    """The page's contents or index entries as one piece of furniture, an entry a line."""
    box = None
    for entry in page.navigation:
        for line in entry:
            box = line.box if box is None else union(box, line.box)
    assert box is not None
    return "\n".join(entry_text(entry) for entry in page.navigation), page.number, round_box(*box)


def _hidden(page: Page) -> tuple[str, int, Box]:
    """The page's text no reader sees as one piece of furniture, a line a line."""
    box = page.hidden[0].box
    for line in page.hidden[1:]:
        box = union(box, line.box)
    return "\n".join(ln.text for ln in page.hidden), page.number, round_box(*box)


def _without(lines: list[Any], taken: list[Any]) -> list[Any]:
    gone = {id(x) for x in taken}
    return [ln for ln in lines if id(ln) not in gone]


def _order(page: Page, furniture: set[Any], named: Callable[[Line], bool]) -> list[Block]:
    lines = [ln for ln in page.lines if ln not in furniture]
    blocks = group_lines(lines, named)
    blocks += [item_block(t) for t in page.tables]
    blocks += [item_block(f, f.lines) for f in page.figures]
    for table in page.tables:
        if mostly_rtl([cell for row in table.rows for cell in row]):
            table.rows = [row[::-1] for row in table.rows]  # a row read from the right
    return join_labels(order_blocks(blocks, rtl=mostly_rtl([ln.text for ln in lines])), named)


def _metadata(pdf: pdfium.PdfDocument, builder: Builder) -> dict[str, Any]:
    meta: dict[str, Any] = {"pages": len(pdf)}
    info = read_info(pdf)
    top = [el for el in builder.elements if el.kind == "heading" and el.level == 1]
    title = (info.get("Title") or "").strip()
    if title and not _JUNK_TITLE.match(title):
        meta["title"] = title
    elif len(top) == 1:
        # One top-level heading names the document; several are its sections.
        meta["title"] = builder.text()[top[0].start : top[0].end]
    return meta
