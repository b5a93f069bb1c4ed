"""Contents and index entries (parsers/pdf/navigation.py) on lines made by hand; the pdflatex
manual is tests/regressions/test_pdf_tex_navigation.py's."""

from __future__ import annotations

from parsegate.parsers.pdf.navigation import Navigation, entry_text, navigation_lines
from tests.pdf_samples import box_line


def _page(rows: list[tuple[str, str]]) -> list:
    lines = []
    for n, (title, number) in enumerate(rows):
        top = 100 + 40 * n  # spaced wider than an index's letter heads over its entries
        lines.append(box_line(72, top, 400, 2 * n, text=title))
        lines.append(box_line(440, top, 450, 2 * n + 1, text=number))
    return lines


def test_leader_entries_and_the_chapters_in_their_number_column_are_navigation() -> None:
    lines = _page([
        ("1 Introduction", "2"),
        ("1.1 The environment . . . . . . . .", "2"),
        ("1.2 Related software . . . . . . .", "3"),
        ("2 Simple manipulations", "8"),
        ("2.1 Vectors and assignment . . . .", "8"),
    ])  # fmt: skip
    entries = navigation_lines(lines, 842, 40, lambda _: False).entries
    assert [entry_text(e) for e in entries] == [
        "1 Introduction 2",
        "1.1 The environment . . . . . . . . 2",
        "1.2 Related software . . . . . . . 3",
        "2 Simple manipulations 8",
        "2.1 Vectors and assignment . . . . 8",
    ]


def test_leaders_to_amounts_no_page_holds_are_a_table_not_navigation() -> None:
    # A statement of accounts set with leaders: 1250 is no page of a 12-page document.
    lines = _page([
        ("Revenue . . . . . . . . . . . .", "1250"),
        ("Cost of sales . . . . . . . . .", "830"),
        ("Gross margin . . . . . . . . . .", "420"),
        ("Operating costs . . . . . . . .", "310"),
    ])  # fmt: skip
    assert navigation_lines(lines, 842, 12, lambda _: False).entries == []


def test_chapter_entries_alone_end_the_contents_of_the_page_before() -> None:
    # gnuplot's last contents page: "V Bugs 303", "Known limitations 303" with no leader; its
    # page numbers stand where the page before's ended.
    lines = _page([("V Bugs", "30"), ("Known limitations", "30"), ("VI Index", "31")])
    assert navigation_lines(lines, 842, 40, lambda _: False).entries == []  # alone: three titles
    before = Navigation([[lines[0]]], column=450.0)
    entries = navigation_lines(lines, 842, 40, lambda _: False, before).entries
    assert [entry_text(e) for e in entries] == ["V Bugs 30", "Known limitations 30", "VI Index 31"]
