"""How a heading's text is compared with a bookmark's title (parsers/pdf/outline.py), on the
pairs the twelve Debian manuals of issue 35 hold."""

from __future__ import annotations

import pytest

from parsegate.parsers.pdf.layout import Bookmark, Line
from parsegate.parsers.pdf.lines import build_lines
from parsegate.parsers.pdf.outline import Outline, readings, same_title
from tests.pdf_samples import glyphs


@pytest.mark.parametrize(
    ("text", "title", "same"),
    [
        ("Appendix B Configuration on a Unix-alike", "B Configuration on a Unix-alike", True),  # R-admin
        ("Appendix C Configuration", "B Configuration", False),
        ("1.3 R and statistics", "R and statistics", True),  # R-intro: "R" a word, not a number
        ("7.31 I installed a package", "I installed a package", True),  # R-FAQ: "I" no roman number
        ("5.1.2 Add-on packages", "5 R Add-On Packages", False),  # R-FAQ: 5.1.2 is not chapter 5
        ("Part II Plotting styles", "II Plotting styles", True),  # gnuplot: a part's label
        ("2.13. Non-regular files", "2.13. Nonregular files", True),  # shared-mime-info
        ("2.1.12 The “Any” type", "The ``Any'' type", True),  # R-lang: TeX's quotes
        ("Using examples", "Using_examples", True),  # gnuplot
        ("binary files.", "5 Binary files", False),  # R-data: a sentence's end, in lower case
        ("• LaTeX", "LaTeX", False),  # AMC: a list's item, not the section "2.3 LaTeX"
    ],
)
def test_a_heading_reads_as_its_bookmark(text: str, title: str, same: bool) -> None:
    assert same_title(readings(text), readings(title)) is same


def _line(*parts: tuple[str, bool], top: float = 100.0) -> Line:
    run, x = [], 72.0
    for text, bold in parts:
        run += glyphs(text, x, top, len(run), bold=bold)
        x += 5.0 * len(text)
    (line,), _ = build_lines([run], 1)
    return line


def test_a_run_in_heading_the_outline_names_is_cut_from_its_line_once() -> None:
    # gnuplot: "Column The column(x) function ..." opens with its \paragraph heading; on the page
    # of the part "Gnuplot", whose title stands on a line of its own, "Gnuplot is a portable ..."
    # (its first word set bold) opens no section.
    outline = Outline.of([Bookmark("Column", 1, 2), Bookmark("I Gnuplot", 1, 3)])  # title, level, page
    column = _line(("Column ", True), ("The column(x) function may be used only", False))
    column.page = 2
    assert [ln.text for ln in outline.cut_run_ins([column])] == ["Column", "The column(x) function may be used only"]
    title = _line(("Gnuplot", True), top=80.0)
    opening = _line(("Gnuplot ", True), ("is a portable command-line driven graphing utility", False))
    title.page = opening.page = 3
    assert [ln.text for ln in outline.cut_run_ins([title, opening])] == [
        "Gnuplot",
        "Gnuplot is a portable command-line driven graphing utility",
    ]
