"""Builders every parser needs, written once: the heading stack, element data by kind, table
emission, "sort, renumber ids, remap references", and the title-from-first-heading rule.

Element data (typed per kind in parsers/model.py) is built here (``*_data`` functions), so each
kind carries the same fields whichever parser made it. ``DocBuilder`` is for formats whose ``Document.text`` is ours to
build (Office, HTML): it appends each piece to the text and hands back its element; furniture is
kept apart and appended after the body, so no chunk span can ever run across it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsegate.parsers.model import (
    CONTAINER_KINDS,
    CodeData,
    Element,
    FurnitureData,
    ListData,
    ParseWarning,
    RowData,
    TableData,
    TextBuilder,
)

PARAGRAPH_SEP = "\n\n"
ROW_SEP = "\n"  # table rows sit one per line, not a paragraph each


# -- the heading stack ------------------------------------------------------------------


@dataclass
class HeadingStack:
    """The headings above the current position: a heading closes every open heading of the same
    or a deeper level."""

    open: list[tuple[int, str]] = field(default_factory=list)
    _path: tuple[str, ...] = ()

    def push(self, level: int, title: str) -> tuple[str, ...]:
        while self.open and self.open[-1][0] >= level:
            self.open.pop()
        self.open.append((level, title))
        self._path = tuple([title for _, title in self.open])  # (a list, not a generator: half the time)
        return self._path

    def reset(self, entries: Iterable[tuple[int, str]] = ()) -> None:
        self.open = list(entries)
        self._path = tuple([title for _, title in self.open])

    def path(self) -> tuple[str, ...]:
        return self._path


# -- element data, by kind --------------------------------------------------------------


def list_data(ordered: bool, lead_in: str | None = None) -> ListData:
    return ListData(ordered=ordered, lead_in=lead_in)


def table_data(
    header: Sequence[str],
    rows: int,
    header_text: str | None,
    lead_in: str | None = None,
    *,
    caption: str | None = None,
    sheet: str | None = None,
    cells: str | None = None,
    chart: str | None = None,
    ref: str | None = None,
) -> TableData:
    """A table container: its header cells, body row count, the header line(s) every row group
    carries as context, and the sentence (or caption) that introduces it."""
    return TableData(
        header=list(header),
        rows=rows,
        header_text=header_text,
        lead_in=lead_in,
        caption=caption,
        sheet=sheet,
        cells=cells,
        chart=chart,
        ref=ref,
    )


def row_data(cells: Sequence[str], header: bool) -> RowData:
    return RowData(cells=list(cells), header=header)


def code_data(language: str | None, info: str | None = None) -> CodeData:
    return CodeData(language=None if language is None else str(language), info=info or None)


def furniture_data(reason: str, ref: str | None = None) -> FurnitureData:
    return FurnitureData(reason=reason, ref=ref)


# -- ids and order ------------------------------------------------------------------------


def renumbered(elements: list[Element]) -> list[Element]:
    """Elements in reading order (a container before its first child), ids ``e0``, ``e1``, …
    renumbered to match, parents and references remapped."""
    ordered = sorted(elements, key=lambda e: (e.start, -e.end, e.kind not in CONTAINER_KINDS))
    new_ids = {el.id: f"e{n}" for n, el in enumerate(ordered)}
    for el in ordered:
        el.id = new_ids[el.id]
        el.parent = new_ids.get(el.parent) if el.parent else None
        data = el.data
        # A tuple, not a union: isinstance of a union type costs several times as much, per element.
        if isinstance(data, (ListData, TableData, CodeData)) and data.lead_in is not None:
            data.lead_in = new_ids.get(data.lead_in)  # a lead-in no longer there introduces nothing
    return ordered


def in_reading_order(elements: list[Element]) -> bool:
    """True when ``renumbered`` would keep this order (its sort is stable): each element's key
    (start, -end, leaf) is at least the one before it. Checking costs a fraction of the sort."""
    for before, el in itertools.pairwise(elements):
        if el.start != before.start:
            if el.start < before.start:
                return False
        elif el.end > before.end or (
            el.end == before.end and before.kind not in CONTAINER_KINDS and el.kind in CONTAINER_KINDS
        ):
            return False  # (a container sorts before a leaf of the same span)
    return True


def title_from_first_heading(elements: Iterable[Element], text: str) -> str | None:
    """A document's title: its first level-1 heading."""
    first = next((e for e in elements if e.kind == "heading" and e.level == 1), None)
    return None if first is None else text[first.start : first.end]


# -- documents whose text is ours to build --------------------------------------------------


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


def row_text(cells: Sequence[str]) -> str:
    """A table row as one line: ``| a | b |`` (line breaks inside a cell become spaces)."""
    return "| " + " | ".join(" ".join(cell.split()) for cell in cells) + " |"
