"""Ruled tables from PDFium's vector paths, cut into cells by pdfplumber's table algorithm.

pdfplumber finds tables from the page's edges (``merge_edges → edges_to_intersections →
intersections_to_cells → cells_to_tables``), but getting those edges from pdfminer means
interpreting the whole page again, which is most of its cost. Here the edges come from the
path objects PDFium already holds, and each cell's text from PDFium's text page.
"""

from __future__ import annotations

import ctypes
import re
from typing import Any

import pypdfium2.raw as raw
from pdfplumber.table import cells_to_tables, edges_to_intersections, intersections_to_cells, merge_edges

from parsers.pdf.layout import Line, Table

_THIN = 2.0  # a path this thin in one direction is a rule, not a shape
_LINETO, _MOVETO = raw.FPDF_SEGMENT_LINETO, raw.FPDF_SEGMENT_MOVETO


def find_tables(
    page: Any, textpage: Any, frame: Any
) -> list[tuple[tuple[float, float, float, float], list[list[str]]]]:
    """(bbox, rows of cell texts) for each ruled table on the page, in the frame's reading space."""
    edges = _edges(page, frame)
    if len(edges) < 4:
        return []
    merged = merge_edges(edges, 3, 3, 3, 3)
    cells = intersections_to_cells(edges_to_intersections(merged, 3, 3))
    tables = []
    for table_cells in cells_to_tables(cells):
        rows = _rows(table_cells, textpage, frame)
        if len(rows) >= 2 and max(len(r) for r in rows) >= 2:
            x0 = min(c[0] for c in table_cells)
            top = min(c[1] for c in table_cells)
            x1 = max(c[2] for c in table_cells)
            bottom = max(c[3] for c in table_cells)
            tables.append(((x0, top, x1, bottom), rows))
    return tables


def _edge(x0: float, top: float, x1: float, bottom: float) -> dict[str, Any]:
    horizontal = (bottom - top) <= (x1 - x0)
    if horizontal:
        y = (top + bottom) / 2
        top = bottom = y
    else:
        x = (x0 + x1) / 2
        x0 = x1 = x
    return {
        "x0": x0, "x1": x1, "top": top, "bottom": bottom, "width": x1 - x0, "height": bottom - top,
        "orientation": "h" if horizontal else "v", "object_type": "line",
    }  # fmt: skip


def _edges(page: Any, frame: Any) -> list[dict[str, Any]]:
    edges = []
    matrix = raw.FS_MATRIX()  # type: ignore[no-untyped-call]
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=3):
        left, bottom, right, top = obj.get_bounds()
        if right - left <= _THIN or top - bottom <= _THIN:
            edges.append(_edge(*frame.box(left, bottom, right, top)))  # a thin rectangle or a line
            continue
        raw.FPDFPageObj_GetMatrix(obj.raw, ctypes.byref(matrix))  # type: ignore[no-untyped-call]
        edges.extend(_segments(obj.raw, matrix, frame))
    return edges


def _segments(path: Any, m: Any, frame: Any) -> list[dict[str, Any]]:
    """Horizontal and vertical straight segments of one path (a grid drawn as one path, a box)."""
    out: list[dict[str, Any]] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    start = current = None
    for i in range(raw.FPDFPath_CountSegments(path)):
        segment = raw.FPDFPath_GetPathSegment(path, i)
        raw.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y))
        point = (m.a * x.value + m.c * y.value + m.e, m.b * x.value + m.d * y.value + m.f)
        kind = raw.FPDFPathSegment_GetType(segment)
        if kind == _MOVETO or current is None:
            start = current = point
            continue
        if kind == _LINETO:
            _line(out, current, point, frame)
        current = point
        if raw.FPDFPathSegment_GetClose(segment) and start is not None:
            _line(out, current, start, frame)
            current = start
    return out


def _line(out: list[dict[str, Any]], a: tuple[float, float], b: tuple[float, float], frame: Any) -> None:
    if abs(a[1] - b[1]) < 0.5 or abs(a[0] - b[0]) < 0.5:
        x0, x1 = sorted((a[0], b[0]))
        y0, y1 = sorted((a[1], b[1]))
        if x1 - x0 > 1 or y1 - y0 > 1:
            out.append(_edge(*frame.box(x0, y0, x1, y1)))


def _rows(cells: list[tuple[float, float, float, float]], textpage: Any, frame: Any) -> list[list[str]]:
    """Cells grouped into rows by their top, each filled with the text PDFium finds inside it."""
    tops = sorted({round(c[1], 1) for c in cells})
    columns = sorted({round(c[0], 1) for c in cells})
    grid: list[list[str]] = [[""] * len(columns) for _ in tops]
    for x0, top, x1, bottom in cells:
        # A point inside the rules, so glyphs that touch a rule from the next cell stay out.
        left, low, right, high = frame.page_rect(x0 + 1, top + 1, x1 - 1, bottom - 1)
        text = textpage.get_text_bounded(left=left, bottom=low, right=right, top=high)
        grid[tops.index(round(top, 1))][columns.index(round(x0, 1))] = " ".join(text.split())
    return [row for row in grid if any(row)]


def inside(line: Line, table: Table) -> bool:
    return (
        line.top >= table.top - 2
        and line.bottom <= table.bottom + 2
        and line.x0 >= table.x0 - 2
        and line.x1 <= table.x1 + 2
    )


def _numeric(cell: str) -> bool:
    return bool(re.fullmatch(r"[-+$€£(]?[\d.,%]+[)%]?", cell.replace(" ", ""))) if cell else False


def header_rows(rows: list[list[str]]) -> int:
    """A first row is a header when it is complete text over columns whose body is numeric,
    or text over a body that repeats none of it (detected, not assumed)."""
    first, body = rows[0], rows[1:]
    filled = [c for c in first if c]
    # A cell merged across columns leaves the others empty: most, not all, must hold text.
    if len(filled) < max(2, 0.6 * len(first)) or any(_numeric(c) for c in filled):
        return 0
    columns = range(len(first))
    numeric_below = any(first[c] and all(_numeric(r[c]) for r in body if c < len(r) and r[c]) for c in columns)
    return 1 if numeric_below or all(r != first for r in body) else 0
