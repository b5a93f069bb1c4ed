"""The PDF parser's own data: lines, tables and pages in reading space (x to the right, y
down, in points). Pure data, no PDFium."""

from __future__ import annotations

from dataclasses import dataclass, field

Box = tuple[float, float, float, float]  # x0, top, x1, bottom


@dataclass
class Line:
    page: int
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    height: float  # the line's type size, in points (to half a point)
    bold: bool = False  # most of its characters are set in a bold weight

    @property
    def box(self) -> Box:
        return round_box(self.x0, self.top, self.x1, self.bottom)


@dataclass
class Table:
    page: int
    rows: list[list[str]]
    x0: float
    top: float
    x1: float
    bottom: float
    header_rows: int = 0


@dataclass
class Page:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def round_box(x0: float, top: float, x1: float, bottom: float) -> Box:
    return (round(x0, 1), round(top, 1), round(x1, 1), round(bottom, 1))
