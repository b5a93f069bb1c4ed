"""A listing's text from its glyphs' columns (build_code.py), on synthetic glyphs (no PDF)."""

from __future__ import annotations

from parsegate.parsers.pdf.build_code import listing_text
from parsegate.parsers.pdf.layout import Glyph, Line, Style

MONO = Style("CMTT9", 9.0, mono=True)
PITCH = 5.63  # pdfTeX's listings: each glyph centred in a column of this width
NARROW = {".": 1.1, ",": 1.5, ";": 1.4, "(": 2.4, ")": 2.4, "l": 3.8, "i": 3.0}


def listing_line(source: str, top: float, index: int, spaces: frozenset[int] = frozenset()) -> Line:
    """A line as PDFium gives it: each glyph's ink centred in its column, so a narrow glyph's
    box starts well right of its column; a space glyph of no size at each column in
    ``spaces`` (PDFium's own, put where ink leaves a gap) and at each space of the source."""
    glyphs: list[Glyph] = []
    for column, char in enumerate(source):
        if char == " " or column in spaces:
            glyphs.append(Glyph(" ", 0, 0, 0, 0, MONO, index + len(glyphs)))
        if char != " ":
            centre = 100 + PITCH * (column + 0.5)
            half = NARROW.get(char, 4.2) / 2
            glyphs.append(Glyph(char, centre - half, top, centre + half, top + 6, MONO, index + len(glyphs)))
    ink = [g for g in glyphs if g.text != " "]
    x0, x1 = min(g.x0 for g in ink), max(g.x1 for g in ink)
    text = "".join(g.text for g in glyphs)
    return Line(1, text, x0, top, x1, top + 6, MONO, True, index, index, listing=True, glyphs=glyphs)


def test_a_listing_keeps_its_columns_and_gains_no_space_where_a_narrow_glyph_stands() -> None:
    source = ["function add(a, b) {", "    return a + b;", "}", "console.log(add(3, 5));"]
    # PDFium's spaces in the last line: before ".", each "(", ",", the second ")" and ";".
    pdfium = frozenset({7, 11, 15, 17, 21, 22})
    lines = [listing_line(s, 100 + 12 * n, 100 * n, pdfium if n == 3 else frozenset()) for n, s in enumerate(source)]
    assert lines[3].text == "console .log (add (3 , 5) ) ;"
    assert listing_text(lines) == "\n".join(source)


def test_columns_far_from_the_left_do_not_drift() -> None:
    # A comment lined up at column 40, after code that leaves 20 columns between them.
    source = ["x = 1", "y = compute(x)                          # column 40"]
    lines = [listing_line(s, 100 + 12 * n, 100 * n) for n, s in enumerate(source)]
    assert listing_text(lines) == "\n".join(source)


def test_a_listing_with_more_spaces_than_glyphs_side_by_side_keeps_them() -> None:
    # Most steps from one glyph to the next span a space here: the column width is read where
    # glyphs stand side by side, not from the usual step (which was two columns: no spaces).
    source = ["   V1( 2 ) = V2( 2 ) + ( V1( 1 ) / V2( 1 ) )**2 * V1( 2 )", "END IF"]
    lines = [listing_line(s, 100 + 12 * n, 100 * n) for n, s in enumerate(source)]
    assert listing_text(lines[:1]) == source[0].lstrip()
    assert listing_text(lines) == "\n".join(source)


def test_beside_a_glyph_of_another_font_the_text_layers_space_stands() -> None:
    # AMC's manual: a callout (a circled digit in a symbol font) after "last10", a URL in a
    # listing's font after "and" set in the text's font; PDFium's space between them stays.
    line = listing_line("and https://x.org/", 100, 0)
    prose = Style("Palatino", 9.0)
    line.glyphs[:3] = [Glyph(g.text, g.x0 + 3, g.top, g.x1 + 3, g.bottom, prose, g.index) for g in line.glyphs[:3]]
    assert listing_text([line]) == "and https://x.org/"
