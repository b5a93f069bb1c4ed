"""Tables from docling: header rows as docling flags them, XLSX cell ranges and one-cell rows,
and charts' data (the numbers and labels a chart caches, which docling reads into a table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Cells:
    """Where a table sits on its sheet: rows ``top``..``bottom`` (0-based, bottom exclusive)."""

    top: int
    bottom: int
    label: str  # "B4:C8"


@dataclass(frozen=True)
class Title:
    """An XLSX row with one filled cell: a caption if a table follows right below, else a paragraph."""

    text: str
    ref: str
    bottom: int
    cells: str


def xlsx_cells(item: Any) -> Cells | None:
    prov = getattr(item, "prov", None) or []
    if not prov or prov[0].bbox is None:
        return None
    box = prov[0].bbox
    top, bottom = int(box.t), int(box.b)
    return Cells(top, bottom, f"{column(int(box.l))}{top + 1}:{column(int(box.r) - 1)}{bottom}")


def is_title_row(grid: list[list[str]]) -> bool:
    return len(grid) == 1 and sum(1 for text in grid[0] if text) == 1


def title_row(grid: list[list[str]], item: Any, cells: Cells) -> Title:
    return Title(next(text for text in grid[0] if text), item.self_ref, cells.bottom, cells.label)


def header_rows(data: Any, total: int) -> int:
    """Rows at the top whose cells docling flags as column headers (detected, not assumed)."""
    flagged = {cell.start_row_offset_idx for cell in data.table_cells if cell.column_header}
    n = 0
    while n in flagged and n < total:
        n += 1
    return n


def chart_grid(picture: Any) -> tuple[list[list[str]], int, str] | None:
    """A chart's data as a grid, its header row count and the chart's kind, or None."""
    meta = getattr(picture, "meta", None)
    chart = getattr(meta, "tabular_chart", None) if meta is not None else None
    data = getattr(chart, "chart_data", None) if chart is not None else None
    if data is None or not data.num_rows:
        return None
    grid = [[cell.text.strip() for cell in row] for row in data.grid]
    if not any(any(row) for row in grid):
        return None
    predictions = getattr(getattr(meta, "classification", None), "predictions", None) or []
    kind = str(predictions[0].class_name) if predictions else "chart"
    return grid, header_rows(data, len(grid)), kind


def column(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name
