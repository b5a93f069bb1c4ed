"""Documents whose ``Document.text`` is ours to build (Office, HTML): ``DocBuilder`` appends each
piece to the text and hands back its element; furniture is kept apart and appended after the body,
so no chunk span can ever run across it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parsegate.parsers.build.data import furniture_data, row_data, row_text, table_data
from parsegate.parsers.build.headings import HeadingStack
from parsegate.parsers.build.order import renumbered
from parsegate.parsers.model import (
    Element,
    FurnitureData,
    ParseWarning,
    TextBuilder,
)

PARAGRAPH_SEP = "\n\n"
ROW_SEP = "\n"  # table rows sit one per line, not a paragraph each


@dataclass
class DocBuilder:
    """Builds ``Document.text`` and its elements in reading order."""

    text: TextBuilder = field(default_factory=TextBuilder)
    elements: list[Element] = field(default_factory=list)
    headings: HeadingStack = field(default_factory=HeadingStack)
    warnings: list[ParseWarning] = field(default_factory=list)
    furniture: list[tuple[str, FurnitureData]] = field(default_factory=list)
    _open: list[Element] = field(default_factory=list)  # open containers (lists, tables, quotes)

    def new_id(self) -> str:
        return f"e{len(self.elements)}"

    def parent(self) -> str | None:
        return self._open[-1].id if self._open else None

    def last(self) -> Element | None:
        return self.elements[-1] if self.elements else None

    def emit(self, kind: str, text: str, sep: str = PARAGRAPH_SEP, **fields: Any) -> Element:
        start, end = self.text.add(text, sep)
        fields.setdefault("parent", self.parent())
        el = Element(self.new_id(), kind, start, end, section_path=self.headings.path(), **fields)
        self.elements.append(el)
        return el

    def heading(self, level: int, title: str, **fields: Any) -> Element:
        self.headings.push(level, title)
        return self.emit("heading", title, level=level, **fields)

    def open(self, kind: str, **fields: Any) -> Element:
        """A container (list, table, block quote): it spans what is emitted until it is closed."""
        start = self.text.next_start(PARAGRAPH_SEP)
        fields.setdefault("parent", self.parent())
        el = Element(self.new_id(), kind, start, start, section_path=self.headings.path(), **fields)
        self.elements.append(el)
        self._open.append(el)
        return el

    def close(self, container: Element) -> None:
        while self._open:
            el = self._open.pop()
            el.end = max(el.start, self.text.size)
            if el is container:
                return

    def depth(self, kind: str) -> int:
        return sum(1 for el in self._open if el.kind == kind)

    def table(
        self,
        grid: Sequence[Sequence[str]],
        header_rows: int,
        lead_in: str | None = None,
        page: int | None = None,
        **extra: Any,
    ) -> Element | None:
        """A table container, its header row(s) as one element glued to what follows, and one
        element per body row, one per line. A row whose cells are all empty (a layout table's
        logos and spacer images) holds no evidence and is left out; a table of such rows is none."""
        kept = [n for n, cells in enumerate(grid) if any(cell.strip() for cell in cells)]
        if len(kept) < len(grid):
            header_rows = sum(1 for n in kept if n < header_rows)
            grid = [grid[n] for n in kept]
        if not grid:
            return None
        rows = [row_text(cells) for cells in grid]
        header_text = ROW_SEP.join(rows[:header_rows]) if header_rows else None
        data = table_data(grid[0] if header_rows else [], len(grid) - header_rows, header_text, lead_in, **extra)
        table = self.open("table", page=page, data=data)
        sep = PARAGRAPH_SEP
        if header_text is not None:
            self.emit("table_row", header_text, sep, page=page, data=row_data(grid[0], True))
            sep = ROW_SEP
        for cells, row in zip(grid[header_rows:], rows[header_rows:], strict=True):
            self.emit("table_row", row, sep, page=page, data=row_data(cells, False))
            sep = ROW_SEP
        self.close(table)
        return table

    def add_furniture(self, text: str, reason: str, ref: str | None = None) -> None:
        if text.strip():
            self.furniture.append((text.strip(), furniture_data(reason, ref)))

    def finish(self) -> tuple[str, list[Element]]:
        """The text (body, then furniture) and the elements in reading order."""
        while self._open:
            self.close(self._open[-1])
        for text, data in self.furniture:
            start, end = self.text.add(text, PARAGRAPH_SEP)
            self.elements.append(Element(self.new_id(), "furniture", start, end, data=data))
        return self.text.text(), renumbered(self.elements)
