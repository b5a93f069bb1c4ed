"""Tables and their rows, as elements: a table that goes on from the previous page joins it
(its repeated header is furniture), and a header left as paragraphs at the foot of the column
before is taken back into the table (_orphan_header)."""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from parsegate.parsers.model import Element, RowData, TableData
from parsegate.parsers.pdf.layout import Box, Table, round_box, union
from parsegate.parsers.pdf.tables import header_rows

if TYPE_CHECKING:
    from parsegate.parsers.pdf.build import Builder

_SEP = "\n\n"
SENTENCE_END = re.compile(r"[.!?][\"”’)»\]]*$")


def table_data(table: Table, rows: list[list[str]], lead_in: str | None) -> TableData:
    header = rows[0] if table.header_rows else []
    return TableData(
        header=header,
        header_text=row_text(header) if header else None,
        rows=len(rows) - table.header_rows,
        pages=[table.page],
        lead_in=lead_in or None,
    )


def row_data(cells: list[str], header: bool) -> RowData:
    return RowData(cells=cells, header=header)


def row_text(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def emit_table(b: Builder, table: Table) -> None:
    rows = table.rows
    previous = b.last_table
    header = previous.data.header or None if previous is not None and isinstance(previous.data, TableData) else None
    # A table that goes on from the previous page: the same columns, a repeated header or none.
    last = b.elements[-1] if b.elements else None
    continues = previous is not None and last is not None and last.parent == previous.id
    # Without a header, a table that goes on right after the last one's rows (in the next
    # column or page) with as many columns is the same table.
    last_cells = last.data.cells if last is not None and isinstance(last.data, RowData) else []
    columns = len(header) if header is not None else len(last_cells)
    if continues and previous is not None and len(rows[0]) == columns:
        skip = 0
        if rows[0] == header:
            # The header repeated on the new page: the table has it already; the repeat is
            # the page's furniture (kept, out of the body).
            b.furniture.append((row_text(rows[0]), table.page, _row_box(table, 0)))
            rows, skip = rows[1:], 1
        _emit_rows(b, previous, rows, table, first=False, skip=skip)
        assert isinstance(previous.data, TableData)
        previous.data.rows += len(rows)
        previous.data.pages.append(table.page)
        previous.end = b.size
        return
    orphan = _orphan_header(b, table)
    header_at = (table.page, _row_box(table, 0))
    if orphan is not None:
        cells, paragraphs = orphan
        left = [b.take_back() for _ in range(paragraphs)]  # read as paragraphs before the table was found
        header_box = functools.reduce(union, [el.bbox for el in left if el.bbox is not None])
        header_at = (left[0].page or table.page, header_box)
        rows = [cells, *rows]
        table = replace(table, rows=rows, header_rows=1, row_boxes=[header_box, *table.row_boxes])
    box = round_box(table.x0, table.top, table.x1, table.bottom)
    lead_in = b.elements[-1].id if b.elements and b.elements[-1].kind == "caption" else None
    el = b.container("table", table.page, box, data=table_data(table, rows, lead_in))
    if table.header_rows:
        b.emit("table_row", row_text(rows[0]), *header_at, parent=el.id, data=row_data(rows[0], True))
        _emit_rows(b, el, rows[1:], table, first=False, skip=1)
    else:
        _emit_rows(b, el, rows, table, first=True)
    el.end = b.size
    b.last_table = el


def _orphan_header(b: Builder, table: Table) -> tuple[list[str], int] | None:
    """The header of a table whose rows went on in the next column or page while it stayed at
    the foot of the last one, read as paragraphs of one line right before the table, at the
    foot of another column: one paragraph per cell on one baseline, or one paragraph whose
    words are one per column. Taken (with how many paragraphs it was) when it ends no sentence
    and the header test passes on it over all the table's rows (text over figures, or over
    rows that repeat none of it)."""
    last = b.elements[-1] if b.elements else None
    if last is None or last.kind != "paragraph" or b.paragraph_lines != 1 or last.bbox is None:
        return None
    if last.page == table.page and last.bbox[1] <= table.top:
        return None  # above the table in its own column: text before it, not its header
    row = [last]
    for el in reversed(b.elements[:-1]):
        box = el.bbox
        if el.kind != "paragraph" or el.page != last.page or box is None or abs(box[1] - last.bbox[1]) > 1:
            break
        if abs(box[3] - last.bbox[3]) > 1:
            break
        row.insert(0, el)
    texts = [b.text()[el.start : el.end] for el in sorted(row, key=lambda el: el.bbox[0] if el.bbox else 0)]
    columns = len(table.rows[0]) if table.rows else 0
    cells = texts if len(texts) == columns else texts[0].split() if len(texts) == 1 else []
    if len(cells) != columns or columns < 2 or SENTENCE_END.search(cells[-1]) or cells == table.rows[0]:
        return None
    # The rows' own first row may have been taken for a header by a weaker test (text over rows
    # that repeat none of it): under this header it is a row like the others.
    return (cells, len(row)) if header_rows([cells, *table.rows]) == 1 else None


def _emit_rows(b: Builder, table: Element, rows: list[list[str]], source: Table, first: bool, skip: int = 0) -> None:
    """Rows of ``source`` from its row ``skip`` on, each with its own box."""
    for n, cells in enumerate(rows):
        b.emit("table_row", row_text(cells), source.page, _row_box(source, n + skip),
               sep=_SEP if first and n == 0 else "\n", parent=table.id, data=row_data(cells, False))  # fmt: skip


def _row_box(table: Table, n: int) -> Box:
    if n < len(table.row_boxes):
        return round_box(*table.row_boxes[n])
    return round_box(table.x0, table.top, table.x1, table.bottom)
