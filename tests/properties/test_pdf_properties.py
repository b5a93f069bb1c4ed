"""A property over generated pages: every word of PDFium's text layer outside furniture appears
exactly once in the elements (nothing lost, nothing read twice), whatever the layout: columns,
headings, ruled tables, text set in a grid of cells, running heads and page numbers."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

import pypdfium2 as pdfium
from fpdf import FPDF
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsegate.parsers import pdf
from parsegate.parsers.model import Document

VOCABULARY = (
    "field teams record every observation shared log before end day entries name site time observer "
    "instrument reading accepted gauge drift service calibration manual chapter water level station week "
    "survey sample result value north south river basin flow rate 12 7.5 2026 A4"
).split()
WORD = st.sampled_from(VOCABULARY)
SENTENCE = st.lists(WORD, min_size=3, max_size=14).map(lambda ws: " ".join(ws).capitalize() + ".")


def words(text: str) -> list[str]:
    """Words as both sides spell them: NFKC, case folded, runs of letters and digits."""
    return re.findall(r"\w+", unicodedata.normalize("NFKC", text).replace("\ufffe", "").casefold())


@dataclass
class Block:
    kind: str  # heading, paragraph, table, grid
    text: str = ""
    rows: tuple[tuple[str, ...], ...] = ()


BLOCK = st.one_of(
    st.builds(Block, st.just("heading"), st.lists(WORD, min_size=1, max_size=5).map(" ".join)),
    st.builds(Block, st.just("paragraph"), st.lists(SENTENCE, min_size=1, max_size=5).map(" ".join)),
    st.builds(
        Block,
        st.sampled_from(["table", "grid"]),
        st.just(""),
        st.integers(2, 4).flatmap(lambda n: st.lists(st.tuples(*[WORD] * n), min_size=2, max_size=6).map(tuple)),
    ),
)


@dataclass
class Spec:
    columns: int
    pages: list[list[Block]]
    running_head: bool


SPEC = st.builds(
    Spec,
    st.integers(1, 3),
    st.lists(st.lists(BLOCK, min_size=1, max_size=8), min_size=1, max_size=3),
    st.booleans(),
)


PAGE_TAGS = ("alpha", "bravo", "charlie")  # a word only its page has: pages differ, as real ones do


def render(spec: Spec) -> bytes:
    doc = FPDF(format="A4")
    doc.set_auto_page_break(False)
    doc.set_margins(20, 25)
    gutter = 8.0
    width = (210 - 40 - gutter * (spec.columns - 1)) / spec.columns
    for number, blocks in enumerate(spec.pages, start=1):
        doc.add_page()
        if spec.running_head:
            doc.set_font("Helvetica", size=8)
            doc.set_xy(20, 10)
            doc.cell(0, 5, "Station Survey Report", align="C")
            doc.set_xy(20, 285)
            doc.cell(0, 5, f"Page {number}", align="C")
        column, y = 0, 25.0
        tag = PAGE_TAGS[number - 1]
        for block in blocks:
            block = Block(block.kind, f"{tag} {block.text}", tuple((tag, *r[1:]) for r in block.rows))
            x = 20 + column * (width + gutter)
            height = _draw(doc, block, x, y, width)
            y += height + 4
            if y > 250:
                column, y = column + 1, 25.0
                if column == spec.columns:
                    break
    return bytes(doc.output())


def _draw(doc: FPDF, block: Block, x: float, y: float, width: float) -> float:
    doc.set_xy(x, y)
    if block.kind == "heading":
        doc.set_font("Helvetica", "B", 14)
        doc.multi_cell(width, 7, block.text, align="L")
    elif block.kind == "paragraph":
        doc.set_font("Helvetica", size=10)
        doc.multi_cell(width, 5, block.text, align="L")
    else:
        doc.set_font("Helvetica", size=9)
        cell = width / len(block.rows[0])
        for r, row in enumerate(block.rows):
            for c, text in enumerate(row):
                doc.set_xy(x + c * cell, y + r * 6)
                doc.cell(cell, 6, text, border=1 if block.kind == "table" else 0)
        return 6.0 * len(block.rows)
    return doc.get_y() - y


def text_layer(data: bytes) -> list[str]:
    document = pdfium.PdfDocument(data)
    try:
        return [w for page in document for w in words(page.get_textpage().get_text_range())]
    finally:
        document.close()


def element_words(doc: Document, furniture: bool) -> list[str]:
    leaves = [e for e in doc.elements if not e.is_container and (e.kind == "furniture") == furniture]
    return [w for e in leaves for w in words(doc.text[e.start : e.end])]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SPEC)
def test_every_text_layer_word_outside_furniture_is_in_the_elements_exactly_once(spec: Spec) -> None:
    data = render(spec)
    doc = pdf.parse(data, "generated.pdf")
    layer = Counter(text_layer(data)) - Counter(element_words(doc, furniture=True))
    assert Counter(element_words(doc, furniture=False)) == layer
