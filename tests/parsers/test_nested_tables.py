"""A table inside a table's cell is that cell's text, its cells run together in reading order, and
the outer row stays a row under its header (issue 36: Word's rich cells lost the inner table's
words; an HTML table holding one was read as loose paragraphs). A table with no header row that
holds another is still page layout, read as blocks."""

from __future__ import annotations

import io

import pytest

from parsegate.parsers import office
from parsegate.parsers.model import Document

INNER = "<table><tr><td>A</td><td>B</td><td>C</td></tr><tr><td>Cell 1</td><td>Cell 2</td><td>Cell 3</td></tr></table>"
ROWS = [
    "| Activity | How |",
    "| Swim | Gracefully glide on the surface A B C Cell 1 Cell 2 Cell 3 |",
    "| Fly | Flap the wings |",
]


def rows(doc: Document) -> list[str]:
    return [doc.text[e.start : e.end] for e in doc.elements if e.kind == "table_row"]


def page(head: str) -> bytes:
    return (
        f"<html><body><main><p>What a duck does, by activity.</p><table>{head}"
        f"<tr><td>Swim</td><td>Gracefully glide on the surface{INNER}</td></tr>"
        "<tr><td>Fly</td><td>Flap the wings</td></tr></table></main></body></html>"
    ).encode()


@pytest.mark.parametrize(
    "head", ["<thead><tr><th>Activity</th><th>How</th></tr></thead>", "<tr><th>Activity</th><th>How</th></tr>"]
)
def test_html_table_in_a_cell_of_a_headed_table(head: str) -> None:
    doc = office.parse(page(head), "ducks.html")
    assert rows(doc) == ROWS
    (table,) = [e for e in doc.elements if e.kind == "table"]
    assert table.data.header == ["Activity", "How"]  # type: ignore[union-attr]


def test_html_table_holding_a_table_with_no_header_is_layout() -> None:
    doc = office.parse(page("<tr><td>Activity</td><td>How</td></tr>"), "ducks.html")
    assert rows(doc) == ["| A | B | C |", "| Cell 1 | Cell 2 | Cell 3 |"]


def test_word_table_in_a_cell() -> None:
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_paragraph("What a duck does, by activity.")
    t = d.add_table(rows=3, cols=2)
    for (r, c), text in {
        (0, 0): "Activity",
        (0, 1): "How",
        (1, 0): "Swim",
        (2, 0): "Fly",
        (2, 1): "Flap the wings",
    }.items():
        t.cell(r, c).text = text
    cell = t.cell(1, 1)
    cell.text = "Gracefully glide on the surface"
    inner = cell.add_table(rows=2, cols=3)
    for i in range(3):
        inner.cell(0, i).text = "ABC"[i]
        inner.cell(1, i).text = f"Cell {i + 1}"
    out = io.BytesIO()
    d.save(out)
    doc = office.parse(out.getvalue(), "ducks.docx")
    assert rows(doc) == ROWS
