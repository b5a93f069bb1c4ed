"""Text from glyphs (no PDF): normalization, line-end hyphens, unreadable glyphs, right-to-left
repairs, lines cut at gutters and put back together elsewhere, footnote marks."""

from __future__ import annotations

from dataclasses import replace

from parsegate.parsers.pdf.layout import Glyph, Line
from parsegate.parsers.pdf.lines import build_lines, join_lines, rejoin
from parsegate.parsers.pdf.text import normalize
from tests.pdf_samples import _CHAR as CHAR
from tests.pdf_samples import glyphs


def texts(runs: list[list[Glyph]]) -> list[str]:
    lines, _ = build_lines(runs, 1)
    return [ln.text for ln in lines]


def test_nfc_and_ligatures_but_no_compatibility_folding() -> None:
    assert normalize("e\u0301 \ufb01le  \ufb00") == "é file ff"  # composed, ligatures expanded, spaces
    assert normalize("Acme™ x² ＡＢ ㆍ") == "Acme™ x² ＡＢ ㆍ"  # what NFKC would have folded stays


def test_a_line_end_hyphen_pdfium_marks_joins_the_word_across_the_line_break() -> None:
    # PDFium gives one "line" for two visual lines, with U+FFFE where the hyphen was.
    run = glyphs("manip\ufffe", 50, 100) + glyphs("ulation of data", 50, 112, index=10)
    lines, _ = build_lines([run], 1)
    assert [ln.text for ln in lines] == ["manip", "ulation of data"] and lines[0].hyphen
    assert join_lines(lines) == "manipulation of data"


def test_an_authors_hyphen_at_a_line_end_stays() -> None:
    lines, _ = build_lines([glyphs("well-", 50, 100), glyphs("known rule", 50, 112, index=10)], 1)
    assert join_lines(lines) == "well-known rule"


def test_a_line_of_unreadable_glyphs_is_dropped_and_counted_a_leading_one_is_a_bullet() -> None:
    garbage = glyphs("\x01\x02\x03\x04 \x05", 50, 100)
    listed = glyphs("\x02 First item", 50, 112, index=10)
    lines, dropped = build_lines([garbage, listed], 1)
    assert dropped == 1 and [ln.text for ln in lines] == ["• First item"]


def test_lam_alef_back_in_logical_order_and_a_space_where_scripts_meet() -> None:
    style = glyphs("x", 0, 0)[0].style
    # The lam-alef ligature comes out as alef then lam, both with the ligature's box.
    run = [
        Glyph("\u0633", 90, 100, 100, 110, style, 0),
        Glyph("\u0627", 80, 100, 90, 110, style, 1),
        Glyph("\u0644", 80, 100, 90, 110, style, 2),
        Glyph("\u0645", 70, 100, 80, 110, style, 3),
    ]
    assert texts([run]) == ["\u0633\u0644\u0627\u0645"]
    # A right-to-left word, then a left-to-right one a little apart, and no space between.
    mixed = [Glyph("\u0645", 100, 100, 105, 110, style, 0), Glyph("P", 93, 100, 98, 110, style, 1)]
    assert texts([mixed]) == ["\u0645 P"]


def rtl_word(text: str, x1: float, index: int) -> list[Glyph]:
    """Right-to-left letters in logical order, each 5 pt wide, the first ending at x1."""
    style = glyphs("x", 0, 0)[0].style
    return [Glyph(c, x1 - 5 * (n + 1), 100, x1 - 5 * n, 110, style, index + n) for n, c in enumerate(text)]


def test_a_number_read_the_other_way_in_right_to_left_text_is_no_gap() -> None:
    # "-2-5 استاندارد": the number is set left to right at the line's right end, the word to its
    # left 4 pt on; in logical order the 5 (the number's right end) comes just before the word's
    # first letter: 26 pt apart, the runs' boxes 4 pt. One line, not two.
    number = glyphs("-2-5", 450, 100)
    word = rtl_word("استاندارد", 446, 10)
    assert texts([number + word]) == ["-2-5 استاندارد"]
    # The same word across a gutter from the number stays apart.
    far = rtl_word("استاندارد", 400, 10)
    assert texts([number + far]) == ["-2-5", "استاندارد"]


def test_a_wide_gap_cuts_a_line_but_only_a_gutter_keeps_it_cut() -> None:
    # A justified line with one wide space (a sentence end) has text above and below that gap;
    # two columns PDFium ran together on one baseline have an empty gutter.
    justified = glyphs("end of it.", 50, 100, index=100) + glyphs("Next one starts", 125, 100, index=120)
    above = glyphs("some words that run right over the gap", 50, 88)
    lines, _ = build_lines([above, justified], 1)
    assert len(lines) == 3
    assert [ln.text for ln in rejoin(lines)] == ["some words that run right over the gap", "end of it. Next one starts"]
    columns = glyphs("left column text", 50, 100) + glyphs("right column text", 300, 100, index=20)
    lines, _ = build_lines([columns], 1)
    assert [ln.text for ln in rejoin(lines)] == ["left column text", "right column text"]


def test_a_footnote_mark_set_apart_joins_its_line() -> None:
    # With a space, as PDFium's text has a line break there: "3The" is no word (the gate's
    # localization found "1it" and "2n" in TeX Live's manuals in no box of PDFium's), and a
    # reference mark after a word ("replaced3") hid the word from a search.
    mark = glyphs("3", 45, 99, size=6)
    note = glyphs("The gauge was replaced.", 50, 100, index=10)
    assert texts([mark, note]) == ["3 The gauge was replaced."]
    reference = glyphs("4", 50 + 23 * CHAR, 99, index=40, size=6)  # right after "replaced."
    assert texts([note, reference]) == ["The gauge was replaced. 4"]


def test_an_unreadable_mark_set_small_and_raised_before_small_text_is_a_note_mark_not_a_bullet() -> None:
    # TeX's dagger in a font without a ToUnicode map comes out as U+0084 (held-out pdf_structure
    # seed 47): read as a bullet, the note became a list item of the body and cut a table off
    # the rows it goes on with on the next page.
    mark = glyphs("\x84", 72, 772, 0, size=6.0)
    note = glyphs("But at the same time.", 78, 774, 1, size=8.0)  # its baseline 782, the mark's 778
    ((line,), _) = build_lines([mark + note], 1)
    assert line.text == "*But at the same time."
    bullet = glyphs("\x84", 72, 774, 0, size=8.0)  # the same size, on the baseline: a bullet
    ((line,), _) = build_lines([bullet + glyphs(" Keep the receipt", 77, 774, 1, size=8.0)], 1)
    assert line.text.startswith("• ")


def test_a_line_pdfium_breaks_after_small_raised_type_is_one_line_again() -> None:
    # A manual's fractions are set as a small raised numerator, a fraction slash and a small
    # denominator: PDFium ends its line after the numerator, and the rest of the visual line
    # ("⁄4 inch, the Rol-top") stood apart as a paragraph of its own, out of its sentence.
    before = glyphs("ranges up to ", 50, 100) + glyphs("1", 115, 97, index=13, size=5.5)
    after = glyphs("\u20444 inch, the Rol-top", 116, 100, index=14)
    assert texts([before, after]) == ["ranges up to 1\u20444 inch, the Rol-top"]
    # A run that starts apart (a column beside it) or lower down (the next line) stays apart.
    beside = glyphs("other column", 200, 100, index=14)
    below = glyphs("\u20444 inch, the Rol-top", 116, 112, index=14)
    assert len(texts([before, beside])) == 2 and len(texts([before, below])) == 2


def test_a_note_mark_set_small_and_raised_after_a_letter_is_a_word_of_its_own() -> None:
    # "상해1)" in a Korean report, "claim2" in English: the note's mark was read as the end of
    # the word before it, a word no query holds.
    word = glyphs("claim", 50, 100)
    mark = glyphs("2", 75.5, 97, index=5, size=7.0)
    rest = glyphs(" holds", 79, 100, index=6)
    assert texts([word + mark + rest]) == ["claim 2 holds"]
    # Small but on the baseline (a subscript's size, a smaller font): no note mark.
    assert texts([word + glyphs("2", 75.5, 103, index=5, size=7.0) + rest]) == ["claim2 holds"]
    # Raised after a digit: a power ("10³"), one word.
    assert texts([glyphs("10", 50, 100) + glyphs("3", 60.5, 97, index=2, size=7.0)]) == ["103"]


def test_two_runs_a_word_space_apart_are_one_line_with_nothing_above_or_below() -> None:
    # A letterhead's title in a box of its own: PDFium gave its last words as a run of their
    # own, 5 pt on (under an em); with no line above or below, the gap read as a gutter.
    def fragments(gap: float) -> list[Line]:
        title = glyphs("Prospectus for admission", 50, 100, size=14)
        rest = glyphs("- domestic goods", 170 + gap, 100, index=30, size=14)
        lines, _ = build_lines([title, rest], 1)
        return [lines[0], replace(lines[1], row=lines[0].row)]  # two pieces of one PDFium line

    assert [ln.text for ln in rejoin(fragments(10))] == ["Prospectus for admission - domestic goods"]
    assert [ln.text for ln in rejoin(fragments(15))] == ["Prospectus for admission", "- domestic goods"]


def test_a_line_pdfium_breaks_after_a_raised_note_mark_goes_on_as_one_line() -> None:
    # R-admin: "time-zone directory⁹" is one PDFium line and "can be used, …" the next, on the
    # same baseline a word space on; apart, the rest was a block read after the paragraph.
    before = glyphs("time-zone directory", 50, 100) + glyphs("9", 145.5, 97, index=19, size=7.0)
    after = glyphs("can be used", 153, 100, index=21)
    assert texts([before, after]) == ["time-zone directory 9 can be used"]
    # The same mark with the next line's words a column away, or below it: two lines.
    assert len(texts([before, glyphs("can be used", 180, 100, index=21)])) == 2
    assert len(texts([before, glyphs("can be used", 50, 112, index=21)])) == 2
    # No mark: PDFium's lines stay as they are (rejoin decides on gutters).
    assert len(texts([glyphs("time-zone directory", 50, 100), after])) == 2
