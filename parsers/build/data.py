"""Element data, built per kind (typed in parsers/model/kinds.py), so each kind carries the same
fields whichever parser made it; a table row as one line of text."""

from __future__ import annotations

from collections.abc import Sequence

from parsegate.parsers.model import (
    CodeData,
    FurnitureData,
    ListData,
    RowData,
    TableData,
)


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


def row_text(cells: Sequence[str]) -> str:
    """A table row as one line: ``| a | b |`` (line breaks inside a cell become spaces)."""
    return "| " + " | ".join(" ".join(cell.split()) for cell in cells) + " |"
