"""HTML tables: data tables become a grid (merged cells repeated in every cell they cover, as
docling does), with header rows from ``<thead>`` or rows of ``<th>`` only (or, with neither, a first row set in bold
over rows that are not); layout tables (a
table inside a table with no header row, or headings inside cells) are read as ordinary blocks; a
table inside a headed table's cell is that cell's text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

MAX_SPAN = 1000  # a colspan or rowspan larger than this is read as this (a browser caps at 1000 and 65534)
MAX_CELLS = 2_000_000  # a table's grid, after merged cells are repeated


@dataclass
class Cell:
    text: str
    colspan: int = 1
    rowspan: int = 1


@dataclass
class Row:
    header: bool  # inside <thead>, or every cell a <th>
    cells: list[Cell] = field(default_factory=list)
    all_th: bool = True
    all_bold: bool = True  # every cell with text is bold throughout (<b>, <strong>)


@dataclass
class TableFrame:
    rows: list[Row] = field(default_factory=list)
    caption: str = ""
    in_head: bool = False

    def new_row(self) -> None:
        self.rows.append(Row(header=self.in_head))

    def add_cell(self, text: str, is_th: bool, colspan: int, rowspan: int, bold: bool = False) -> None:
        if not self.rows:
            self.new_row()
        row = self.rows[-1]
        row.cells.append(Cell(text, colspan, rowspan))
        row.all_th = row.all_th and is_th
        row.all_bold = row.all_bold and (bold or not text)

    def grid(self) -> tuple[list[list[str]], int]:
        """The cells as a rectangular grid, and how many rows at the top are header rows."""
        rows = [r for r in self.rows if any(cell.text for cell in r.cells)]
        width = max((sum(c.colspan for c in r.cells) for r in rows), default=0)
        merged = len(rows) * width <= MAX_CELLS  # else each cell once: a hostile span never inflates
        taken: dict[tuple[int, int], str] = {}
        width = 0
        for r, row in enumerate(rows):
            c = 0
            for cell in row.cells:
                while (r, c) in taken:
                    c += 1
                down, across = (min(cell.rowspan, len(rows) - r), cell.colspan) if merged else (1, 1)
                for dr in range(down):
                    for dc in range(across):
                        taken[(r + dr, c + dc)] = cell.text
                c += across
                width = max(width, c)
        grid = [[taken.get((r, c), "") for c in range(width)] for r in range(len(rows))]
        headers = 0
        while headers < len(rows) and (rows[headers].header or rows[headers].all_th):
            headers += 1
        if headers == len(rows):
            headers = min(headers, 1)  # a table of <th> only: its first row heads the rest
        if headers == 0 and len(rows) > 1 and _bold_head(rows):
            headers = 1  # no <thead> and no <th>: a first row set in bold, over rows that are not
        return grid, headers


def _bold_head(rows: list[Row]) -> bool:
    first = rows[0]
    return first.all_bold and sum(1 for c in first.cells if c.text) >= 2 and not any(r.all_bold for r in rows[1:])


def span(value: str | None) -> int:
    try:
        return max(1, min(MAX_SPAN, int((value or "1").strip())))
    except ValueError:
        return 1


def layout_tables(body: etree._Element) -> set[etree._Element]:
    """Tables used for page layout: one that holds another table, or a heading in a table of
    one column (a page wrapped in ``<table><tr><td>``). Each path upwards is walked only to a
    node already seen, and each row is looked at once: linear in the page."""
    with_table = {t for t in _tables_above(body.iter("table")) if not _headed(t)}
    with_heading = _tables_above(body.iter("h1", "h2", "h3", "h4", "h5", "h6"))
    return with_table | {t for t in with_heading if _one_column(t)}


def _headed(table: etree._Element) -> bool:
    """A table that says what its columns are (a ``<thead>``, or a first row of ``<th>`` cells over
    more than one column) is data even when a cell holds a table of its own: the inner table is
    that cell's text (docling reads it so too)."""
    if table.find("thead") is not None:
        return True
    first = next(iter(table.xpath("./tr|./tbody/tr")), None)
    if first is None:
        return False
    cells = first.xpath("./td|./th")
    return len(cells) > 1 and all(c.tag == "th" for c in cells)


def _tables_above(starts: Iterable[etree._Element]) -> set[etree._Element]:
    marked: set[etree._Element] = set()
    seen: set[etree._Element] = set()
    for el in starts:
        parent = el.getparent()
        while parent is not None and parent not in seen:
            seen.add(parent)
            if parent.tag == "table":
                marked.add(parent)
            parent = parent.getparent()
    return marked


def _one_column(table: etree._Element) -> bool:
    return all(len(row.xpath("./td|./th")) <= 1 for row in table.xpath("./tr|./*/tr"))
