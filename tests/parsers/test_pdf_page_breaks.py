"""A sentence a PDF's page cuts in two, read by parsegate's own PDF parser: its rest at the top
of the next page is body text (not a running head), and one chunk holds the whole sentence.

Pages printed without running heads (Chromium's, LibreOffice's) start their body at the same
height on every page, so that height alone says nothing about furniture.
"""

from __future__ import annotations

import pytest
from fpdf import FPDF

from parsegate.parsers import pdf

FILLER = (
    "Each entry names an error code and the condition that raises it. "
    "The code is stable across releases and safe to match on. "
)
CUT = "A synchronous read or close call was attempted on a directory handle which has ongoing asynchronous"
REST = "operations."


def _book(rest: str, questions: bool = False) -> bytes:
    """Four pages, no running heads, each opening with body text at the same height (with
    ``questions``, a line of its own set apart, as a FAQ's pages open); page 1 stops
    mid-sentence, page 2 opens with the sentence's ``rest``, set apart from the heading under it."""
    doc = FPDF(format="A4")
    doc.set_auto_page_break(False)
    doc.set_font("Helvetica", size=10)

    def body(text: str) -> None:
        doc.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
        doc.ln(5)

    def heading(text: str) -> None:
        doc.set_font("Helvetica", "B", 13)
        doc.multi_cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
        doc.set_font("Helvetica", size=10)
        doc.ln(2)

    for page in range(4):
        doc.add_page()
        doc.set_y(20)
        body(rest if page == 1 else f"Question {page}: why does the call fail?" if questions else FILLER)
        for n in range(3):
            heading(f"ERR_CODE_{page}_{n}")
            body(FILLER * 3)
        if page == 0:
            heading("ERR_DIR_CONCURRENT_OPERATION")
            body(FILLER + CUT)
    return bytes(doc.output())


@pytest.mark.parametrize("questions", [False, True])
def test_the_rest_of_a_sentence_atop_a_page_is_body_text_not_furniture(questions: bool) -> None:
    doc = pdf.parse(_book(REST, questions), "errors.pdf")
    furniture = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "furniture"]
    assert REST not in furniture
    rest = next(e for e in doc.elements if doc.text[e.start : e.end] == REST)
    assert (rest.kind, rest.page) == ("paragraph", 2)


def test_one_chunk_holds_a_sentence_a_page_cut_in_two(chunker_factory) -> None:
    goes_on = f"{REST} {FILLER * 2}"
    doc = pdf.parse(_book(goes_on), "errors.pdf")
    cut = doc.text.index(CUT)
    rest = doc.text.index(REST, cut)
    assert doc.text[cut + len(CUT) : rest] == "\n\n"  # two paragraphs, one a page, nothing between
    # 45 words: page 1's paragraph (40 words) fits, and with the next page's (45) would not; packed
    # unit by unit, the chunk would end at the page break, in the middle of the sentence.
    chunks = chunker_factory(tokenizer="words", max_tokens=45).chunk(doc)
    whole = [c for c in chunks if c.start <= cut and rest + len(REST) <= c.end]
    assert len(whole) == 1
    assert whole[0].pages == [1, 2]
    # The cuts around it fall where sentences end.
    assert whole[0].text[0].isupper() and doc.text[: whole[0].start].rstrip().endswith(".")
    assert whole[0].text.rstrip().endswith(".")


def test_a_page_number_above_the_outer_band_is_furniture_still() -> None:
    """US letter set on A4 paper: the folio stands at 84 % of the page's height, above the
    outer band where furniture is looked for; as the page's last line, a bare number set well
    apart from the text, it is a page number all the same, and no sentence has it in the way."""
    doc_pdf = FPDF(format="A4")
    doc_pdf.set_auto_page_break(False)
    doc_pdf.set_font("Times", size=11)
    for page in range(3):
        doc_pdf.add_page()
        doc_pdf.set_y(35)
        doc_pdf.multi_cell(0, 5, FILLER * 9 + ("" if page == 2 else CUT), new_x="LMARGIN", new_y="NEXT")
        doc_pdf.set_y(250)
        doc_pdf.cell(0, 5, str(page + 1), align="C")
    doc = pdf.parse(bytes(doc_pdf.output()), "letter-on-a4.pdf")
    assert [doc.text[e.start : e.end] for e in doc.elements if e.kind == "furniture"] == ["1", "2", "3"]
    assert not any(doc.text[e.start : e.end].isdigit() for e in doc.leaves())


def test_small_numbered_rows_atop_a_page_are_no_footnotes_to_hold_to_its_end() -> None:
    """A float at the top of a page, set small, whose rows open with a number ("118dpi 100% …"),
    read like footnotes. Held to the page's end as footnotes are, it came between the halves of
    the sentence the page cuts; it keeps its place, and a real footnote under the text stays
    one."""
    rows = [f"{dpi}dpi 100% thru 120% {dpi}K {dpi * 2}K all mags {dpi * 5}K" for dpi in (118, 180, 240, 300)]
    note = "1 The sizes are rounded to the nearest 50K."
    doc_pdf = FPDF(format="A4")
    doc_pdf.set_auto_page_break(False)
    for page in range(2):
        doc_pdf.add_page()
        doc_pdf.set_y(20)
        if page == 0:
            doc_pdf.set_font("Times", size=9)
            for row in rows:
                doc_pdf.cell(0, 4, row, new_x="LMARGIN", new_y="NEXT")
            doc_pdf.ln(6)
        doc_pdf.set_font("Times", size=11)
        text = FILLER * 6 + CUT if page == 0 else f"{REST} {FILLER * 6}"
        doc_pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
        if page == 0:
            doc_pdf.set_y(270)
            doc_pdf.set_font("Times", size=9)
            doc_pdf.cell(0, 4, note)
    doc = pdf.parse(bytes(doc_pdf.output()), "disk-space.pdf")
    kinds = {doc.text[e.start : e.end]: e.kind for e in doc.leaves()}
    assert [kinds[row] for row in rows] == ["paragraph"] * 4
    assert kinds[note] == "footnote"
    cut, rest = doc.text.index(CUT), doc.text.index(REST)
    assert doc.text.index(rows[-1]) < cut
    # Nothing stands between the halves: the page's footnote waits for the sentence's end.
    assert doc.text[cut + len(CUT) : rest] == "\n\n"
    goes_on = next(e for e in doc.elements if e.start == rest)
    assert (goes_on.kind, goes_on.page) == ("paragraph", 2)
    assert doc.text[goes_on.end : goes_on.end + len(note) + 2] == f"\n\n{note}"
    assert next(e for e in doc.elements if e.kind == "footnote").page == 1
