"""Reading PDFium's text layer: every box, size and flag belongs to its own glyph."""

from __future__ import annotations

from parsegate.parsers import pdf
from parsegate.parsers.pdf.lines import build_lines
from parsegate.parsers.pdf.read import open_pdf, read_page
from tests.pdf_samples import one_page


def test_boxes_stay_with_their_glyphs_after_a_left_out_bullet_and_an_astral_char() -> None:
    # 0x95 is a bullet glyph PDFium leaves out of its text (mapped to U+0002); 0x80 maps to
    # U+1D400, which takes two char slots. Both used to shift every later box by one glyph,
    # so that a line's box ended at the previous line's last glyph.
    data = one_page(
        [
            (72, 760, 12, b"\x95 First item here"),
            (72, 740, 12, b"Math \x80 bold A and more words"),
            (72, 720, 12, b"Third line plain"),
            (300, 700, 24, b"Big"),
        ],
        extra_map={0x95: 0x0002, 0x80: 0x1D400},
    )
    lines, dropped = build_lines(read_page(open_pdf(data), 0).runs, 1)
    assert dropped == 0
    # Helvetica 12 pt: "here" ends at 155.7, "words" at 236.3, "plain" at 149.2, "Big" (24 pt) at 333.3.
    assert [(ln.text, round(ln.x1, 1), ln.size) for ln in lines] == [
        ("• First item here", 155.7, 12.0),
        ("Math 𝐀 bold A and more words", 236.3, 12.0),
        ("Third line plain", 149.2, 12.0),
        ("Big", 333.3, 24.0),
    ]
    assert [round(ln.bottom - ln.top) for ln in lines] == [9, 9, 11, 22]  # cap height; "p" descends


def test_bookmarks_mark_headings_set_in_body_type() -> None:
    from fpdf import FPDF

    doc_pdf = FPDF()
    doc_pdf.set_font("Helvetica", size=10)
    for page, (chapter, sections) in enumerate((("1 Methods", ("Sampling",)), ("2 Results", ("Levels", "Trends")))):
        doc_pdf.add_page()
        doc_pdf.start_section(chapter, level=0)
        doc_pdf.multi_cell(0, 5, chapter, new_x="LMARGIN", new_y="NEXT")
        for section in sections:
            doc_pdf.start_section(section, level=1)
            doc_pdf.multi_cell(0, 5, section, new_x="LMARGIN", new_y="NEXT")
            doc_pdf.multi_cell(
                0, 5, f"Body text of {section.lower()} on page {page + 1}.", new_x="LMARGIN", new_y="NEXT"
            )
    doc = pdf.parse(bytes(doc_pdf.output()), "bookmarked.pdf")
    headings = [(doc.text[e.start : e.end], e.level, e.page) for e in doc.elements if e.kind == "heading"]
    assert headings == [
        ("1 Methods", 1, 1),
        ("Sampling", 2, 1),
        ("2 Results", 1, 2),
        ("Levels", 2, 2),
        ("Trends", 2, 2),
    ]
    assert doc.elements[-1].section_path == ("2 Results", "Trends")
