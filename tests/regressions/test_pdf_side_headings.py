"""A side heading set in italic at the body's size, at the body's line spacing above its paragraph
(the AMT handbook's "Boots Self-Locking Nut"), joined the paragraph's block and was never weighed
as a heading (issue 35: no heading found on the manual page). A long italic first line of a
paragraph stays the paragraph's."""

from __future__ import annotations

import pytest

import parsegate

fpdf = pytest.importorskip("fpdf")

BODY = (
    "The Boots self-locking nut is of one piece, all-metal construction designed to hold tight "
    "despite severe vibration. Note that it has two sections and is essentially two nuts in one, "
    "a locking nut and a load-carrying nut."
)


def _pdf(first: str, stray: bool = False) -> bytes:
    doc = fpdf.FPDF(unit="pt", format="letter")
    doc.add_page()
    doc.set_font("Times", size=10)
    doc.set_xy(72, 72)
    doc.multi_cell(
        240, 12.5, "Self-locking nuts are used on aircraft to provide tight connections that will not shake loose."
    )
    doc.set_xy(72, doc.get_y() + 10)
    if stray:  # a period left on a line of its own just above (after a superscript fraction)
        doc.text(72.5, doc.get_y() - 2, ".")
    doc.set_font("Times", style="I", size=10)
    doc.multi_cell(240, 12.5, first)
    doc.set_font("Times", size=10)
    doc.set_x(72)
    doc.multi_cell(240, 12.5, BODY)
    return bytes(doc.output())


@pytest.mark.parametrize("stray", [False, True])
def test_an_italic_side_heading_at_body_size_is_a_heading(stray: bool) -> None:
    doc = parsegate.parse(_pdf("Boots Self-Locking Nut", stray), format="pdf")
    headings = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "heading"]
    assert headings == ["Boots Self-Locking Nut"]
    body = next(e for e in doc.elements if doc.text[e.start : e.end].startswith("The Boots"))
    assert body.section_path == ("Boots Self-Locking Nut",)


def test_a_long_italic_first_line_stays_its_paragraphs() -> None:
    doc = parsegate.parse(
        _pdf("An italic opening sentence that runs the whole width of the column here,"), format="pdf"
    )
    assert [e for e in doc.elements if e.kind == "heading"] == []
