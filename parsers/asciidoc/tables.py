"""An AsciiDoc table's cells and rows, each with its exact span in the source.

``|===`` tables (PSV: a cell starts at an unescaped ``|``, optionally after a cell spec such as
``2+``, ``a`` or ``^.^``); ``,===`` or ``format=csv`` (a row a line, read by the ``csv`` module);
``:===`` or ``format=dsv`` (a row a line, split at ``:``). A cell may run over several lines; rows
are made of ``cols`` columns (the ``cols`` attribute, else the cells on the first line), a ``n+``
cell taking n of them."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass

_SEPARATOR = re.compile(r"(?<!\\)\|")
_CELL_SPEC = re.compile(r"(?:(\d+)\*)?(?:(\d+)?(?:\.\d+)?\+)?[<^>]?(?:\.[<^>])?[aehlmdsv]?$")
_SPEC_BEFORE = re.compile(r"(?:^|(?<=\s))(\S+)$")


@dataclass
class Cell:
    start: int  # where its spec or separator begins
    end: int  # the end of its text, trailing white space left out
    text: str
    line: int  # the index of the line it starts on
    width: int = 1  # columns it spans


@dataclass
class Row:
    start: int
    end: int
    cells: list[str]
    first_line: int  # line indices
    last_line: int


def column_count(cols: str | None) -> int | None:
    """The columns a ``cols`` attribute names: ``3*``, ``1,2,3``, ``"<1,^2"``."""
    if not cols:
        return None
    cols = cols.strip().strip('"')
    m = re.match(r"(\d+)\*", cols)
    if m and "," not in cols:
        return int(m.group(1))
    if cols.isdigit():
        return int(cols)
    total = 0
    for part in re.split(r"[,;]", cols):
        m = re.match(r"\s*(\d+)\*", part)
        total += int(m.group(1)) if m else 1
    return total or None


def psv_cells(text: str, line_spans: list[tuple[int, int]], first_index: int) -> list[Cell]:
    """The cells of a PSV table's lines (``line_spans``: each line's content span in ``text``)."""
    cells: list[Cell] = []
    for n, (start, end) in enumerate(line_spans):
        line = text[start:end]
        seps = [m.start() for m in _SEPARATOR.finditer(line)]
        if not seps:
            if cells and line.strip():  # a cell's text that runs over lines
                _extend(cells[-1], text, start + len(line.rstrip()))
            continue
        lead = line[: seps[0]]
        spec = lead.strip()
        if spec and not _CELL_SPEC.match(spec) and cells:
            _extend(cells[-1], text, start + len(lead.rstrip()))
        for k, sep in enumerate(seps):
            cell_end = seps[k + 1] if k + 1 < len(seps) else len(line)
            body = line[sep + 1 : cell_end]
            nxt = _SPEC_BEFORE.search(body) if k + 1 < len(seps) else None
            if nxt is not None and _CELL_SPEC.match(nxt.group(1)):
                body = body[: nxt.start()]  # the next cell's spec ("2+", "a")
            before = line[:sep]
            own = _SPEC_BEFORE.search(before)
            cell_start = sep
            width = 1
            if own is not None and _CELL_SPEC.match(own.group(1)) and (k == 0 or own.start() > seps[k - 1]):
                cell_start = own.start()
                m = _CELL_SPEC.match(own.group(1))
                # columns taken: a span (``2+``) or a duplication (``2*``: the cell in two columns)
                width = int(m.group(2) or m.group(1) or 1) if m else 1
            stripped = body.rstrip()
            cells.append(
                Cell(start + cell_start, start + sep + 1 + len(stripped), body.strip(), first_index + n, width)
            )
    return cells


def _extend(cell: Cell, text: str, end: int) -> None:
    cell.end = max(cell.end, end)
    cell.text = " ".join(text[cell.start : cell.end].split("|", 1)[-1].split())


def rows_of(cells: list[Cell], columns: int) -> list[Row]:
    rows: list[Row] = []
    current: list[Cell] = []
    used = 0
    for cell in cells:
        current.append(cell)
        used += cell.width
        if used >= columns:
            rows.append(_row(current))
            current, used = [], 0
    if current:
        rows.append(_row(current))
    return rows


def _row(cells: list[Cell]) -> Row:
    return Row(cells[0].start, cells[-1].end, [c.text for c in cells], cells[0].line, cells[-1].line)


def delimited_rows(text: str, line_spans: list[tuple[int, int]], first_index: int, fmt: str) -> list[Row]:
    """CSV or DSV: a row a line (blank lines are none)."""
    rows: list[Row] = []
    for n, (start, end) in enumerate(line_spans):
        line = text[start:end]
        if not line.strip():
            continue
        cells = next(csv.reader([line])) if fmt == "csv" else re.split(r"(?<!\\):", line)
        rows.append(
            Row(start, start + len(line.rstrip()), [c.strip() for c in cells], first_index + n, first_index + n)
        )
    return rows
