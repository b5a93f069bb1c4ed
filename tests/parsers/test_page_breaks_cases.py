"""The page-break benchmark's case filter (benchmarks/suites/page_breaks/run.py): a table row
that PDFium's text layer joins into one line of words is no sentence running across a page, and
a justified line of a narrow column is."""

from __future__ import annotations

from benchmarks.suites.page_breaks import run as page_breaks

LAID_OUT = [
    "\n".join(
        [
            "FIELD     TYPE     EXPLANATION",
            "user_id number id number",
            "type    number type of the value",
            "   version        gives       Document, cre-            dorsements or",
            "without ever looking at the contents, which the line goes on to say",
        ]
    )
]


def test_a_row_s_cells_joined_by_one_space_are_a_table_row() -> None:
    assert page_breaks._across_cells(LAID_OUT, 0, "type number type of the value")


def test_a_justified_line_of_a_narrow_column_is_prose() -> None:
    assert not page_breaks._across_cells(LAID_OUT, 0, "version gives")


def test_a_line_of_prose_and_a_line_not_on_the_page_are_no_rows() -> None:
    assert not page_breaks._across_cells(LAID_OUT, 0, "looking at the contents, which")
    assert not page_breaks._across_cells(LAID_OUT, 0, "a line nobody printed")
    assert not page_breaks._across_cells(LAID_OUT, 1, "type number type of the value")
