"""Elements and the document text, in reading order: headings, paragraphs, footnotes,
captions, tables with their rows, furniture last."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from parsers.model import Element, TextBuilder
from parsers.pdf.layout import Line, Page, Table, round_box
from parsers.pdf.order import Block, xy_cut
from parsers.pdf.typography import label, outline_level, wordy

_SEP = "\n\n"
_CAPTION = re.compile(r"^(table|figure|fig\.)\s+\d+", re.IGNORECASE)


@dataclass
class Builder(TextBuilder):
    elements: list[Element] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    last_table: Element | None = None  # for a table continued on the next page

    def emit(
        self, kind: str, text: str, page: int, box: tuple[float, float, float, float], sep: str = _SEP, **fields: Any
    ) -> Element:
        start, end = self.add(text, sep)
        el = Element(f"e{len(self.elements)}", kind, start, end, section_path=tuple(t for _, t in self.headings),
                     page=page, bbox=box, **fields)  # fmt: skip
        self.elements.append(el)
        return el


def emit_page(
    b: Builder,
    page: Page,
    furniture: set[tuple[int, str]],
    body: float,
    levels: dict[float, int],
    outline: dict[tuple[str, int | None], int],
) -> None:
    kept = [ln for ln in page.lines if (page.number, ln.text) not in furniture]
    # Bold marks headings only on a page where bold is rare (not a form or a bold table).
    bold_heads = sum(ln.bold for ln in kept) <= 0.2 * len(kept)
    blocks: list[Block] = [*kept, *page.tables]
    paragraph: list[Line] = []
    for block in xy_cut(blocks):
        if isinstance(block, Table):
            _flush(b, paragraph, body)
            paragraph = []
            _emit_table(b, block)
            continue
        level = outline_level(outline, block) or (levels.get(round(block.height, 1)) if wordy(block.text) else None)
        if not level and bold_heads and block.bold and block.height <= body * 1.15 and label(block.text):
            # A short bold line at body size heads what follows, one level below the sized headings.
            level = min(3, max(levels.values(), default=0) + 1)
        if level:
            _flush(b, paragraph, body)
            paragraph = []
            if not _extend_heading(b, block, level):
                while b.headings and b.headings[-1][0] >= level:
                    b.headings.pop()
                b.headings.append((level, block.text))
                b.emit("heading", block.text, page.number, block.box, level=level)
            continue
        if paragraph and not _continues(paragraph[-1], block):
            _flush(b, paragraph, body)
            paragraph = []
        paragraph.append(block)
    _flush(b, paragraph, body)


def _extend_heading(b: Builder, line: Line, level: int) -> bool:
    """A heading set over two lines is one heading: the second line joins the first."""
    last = b.elements[-1] if b.elements else None
    box = last.bbox if last is not None else None
    if last is None or last.kind != "heading" or last.level != level or last.page != line.page or box is None:
        return False
    if not (0 <= line.top - box[3] <= line.height) or abs(line.x0 - box[0]) > line.height * 4:
        return False
    joined = f"{b.pieces[-1]} {line.text}"
    b.size += len(joined) - len(b.pieces[-1])
    b.pieces[-1] = joined
    last.end = b.size
    last.bbox = (min(box[0], line.x0), box[1], max(box[2], line.x1), line.bottom)
    b.headings[-1] = (level, joined)
    last.section_path = (*last.section_path[:-1], joined)
    return True


def _continues(prev: Line, line: Line) -> bool:
    """Same paragraph: the next line starts just below, in the same column, at the same size."""
    gap = line.top - prev.bottom
    close = -2 <= gap <= max(prev.height, line.height) * 0.9
    return close and abs(line.height - prev.height) <= 2.0 and line.x0 < prev.x1


def _join(lines: list[Line]) -> str:
    text = lines[0].text
    for line in lines[1:]:
        if text.endswith("-") and line.text[:1].islower():
            text = text[:-1] + line.text  # a word hyphenated at the line end
        else:
            text += " " + line.text
    return text


def _flush(b: Builder, lines: list[Line], body: float) -> None:
    if not lines:
        return
    text = _join(lines)
    box = (min(ln.x0 for ln in lines), lines[0].top, max(ln.x1 for ln in lines), lines[-1].bottom)
    box = round_box(*box)
    page = lines[0].page
    if body and max(ln.height for ln in lines) < body * 0.85 and re.match(r"^(\d{1,3}|[*†‡§])\s", text):
        b.emit("footnote", text, page, box)  # small type that starts with a mark: kept apart from the body
    elif _CAPTION.match(text):
        b.emit("caption", text, page, box)
    else:
        b.emit("paragraph", text, page, box)


def _row_text(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _emit_table(b: Builder, table: Table) -> None:
    rows = table.rows
    previous = b.last_table
    header = previous.data.get("header") if previous is not None else None
    # A table that goes on from the previous page: the same columns, a repeated header or none.
    last = b.elements[-1] if b.elements else None
    continues = previous is not None and last is not None and last.parent == previous.id
    if continues and previous is not None and header is not None and len(rows[0]) == len(header):
        if rows[0] == header:
            rows = rows[1:]  # the header repeated on the new page: the table already has it
        _rows(b, previous, rows, table, first=False)
        previous.data["rows"] += len(rows)
        previous.data["pages"].append(table.page)
        previous.end = b.size
        return
    box = round_box(table.x0, table.top, table.x1, table.bottom)
    lead_in = b.elements[-1].id if b.elements and b.elements[-1].kind == "caption" else None
    start = b.next_start(_SEP)
    data: dict[str, Any] = {
        "header": rows[0] if table.header_rows else None,
        "header_text": _row_text(rows[0]) if table.header_rows else None,
        "rows": len(rows) - table.header_rows,
        "pages": [table.page],
    }
    if lead_in:
        data["lead_in"] = lead_in
    el = Element(f"e{len(b.elements)}", "table", start, start, section_path=tuple(t for _, t in b.headings),
                 page=table.page, bbox=box, data=data)  # fmt: skip
    b.elements.append(el)
    if table.header_rows:
        b.emit("table_row", _row_text(rows[0]), table.page, box, parent=el.id, data={"cells": rows[0], "header": True})
        rows = rows[1:]
        _rows(b, el, rows, table, first=False)
    else:
        _rows(b, el, rows, table, first=True)
    el.end = b.size
    b.last_table = el


def _rows(b: Builder, table: Element, rows: list[list[str]], source: Table, first: bool) -> None:
    box = round_box(source.x0, source.top, source.x1, source.bottom)
    for n, cells in enumerate(rows):
        b.emit("table_row", _row_text(cells), source.page, box, sep=_SEP if first and n == 0 else "\n",
               parent=table.id, data={"cells": cells, "header": False})  # fmt: skip
