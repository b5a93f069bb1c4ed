"""Tables that lost their markup: runs of lines with the same number of ``|``- or
tab-separated cells, as most exporters write them (``a | b | c``, no GFM delimiter row),
or with the same number of figures at their end, as PDF-to-text tools write financial
tables (``Net revenue 7,085.3 6,840.6 5,336.5``). Such a run is a table: each line a row,
the first its header (``(in millions) 2020 2019 2018`` heads a run of figures).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parsegate.parsers.model import Element, RowData, TableData

_MIN_ROWS = 2
_MAX_MEAN_CELL = 80  # characters: prose with a stray "|" has long "cells"
# A figure: an amount, a percentage, a year, a negative in parentheses, or a dash for none.
_FIGURE = re.compile(r"\(?[$€£¥]?[-+−]?\d[\d,]*(?:\.\d+)?%?\)?|[—–-]|n/?a", re.IGNORECASE)
_MIN_FIGURES = 2
_HEADER_WORDS = 16
_YEAR = re.compile(r"(?:fiscal\s*|fy\s*)?(?:19|20)\d\d", re.IGNORECASE)
_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class FlatTable:
    lines: list[tuple[int, int]]  # (start, end) of each row, without its line break
    cells: list[list[str]]


def find_tables(text: str, lines: list[tuple[int, int]]) -> list[FlatTable]:
    """Runs of at least two consecutive lines with one consistent separator and cell count."""
    found: list[FlatTable] = []
    run: list[tuple[int, int]] = []
    run_cells: list[list[str]] = []
    run_key: tuple[str, int] | None = None
    before: tuple[int, int] | None = None  # the line before the run

    def close() -> None:
        if len(run) >= _MIN_ROWS and _cell_sizes_plausible(run_cells):
            heads_itself = _years(run_cells[0]) and not all(_years(row) for row in run_cells[1:])
            if run_key is not None and run_key[0] == "figures" and before is not None and not heads_itself:
                _add_header(text, before, run, run_cells, found)
            found.append(FlatTable(list(run), list(run_cells)))
        run.clear()
        run_cells.clear()

    previous: tuple[int, int] | None = None
    for start, end in lines:
        line = text[start:end]
        key, cells = _row(line)
        if key is None or (run_key is not None and key != run_key):
            close()
        if key is not None:
            if not run:
                before = previous
            run.append((start, end))
            run_cells.append(cells)
        run_key = key
        previous = (start, end)
    close()
    return found


def _add_header(
    text: str, line: tuple[int, int], run: list[tuple[int, int]], cells: list[list[str]], found: list[FlatTable]
) -> None:
    """Column names above a run of figures ("Segment Fiscal 2019 Fiscal 2018 Change"): a short
    line that ends no sentence, right above the run, heads it (unless a table already took it)."""
    start, end = line
    words = text[start:end].split()
    taken = any(start >= t.lines[0][0] and end <= t.lines[-1][1] for t in found)
    if taken or not words or len(words) > _HEADER_WORDS or text[start:end].rstrip()[-1] in ".!?;,:":
        return
    run.insert(0, line)
    cells.insert(0, words)


def table_elements(text: str, table: FlatTable, section: tuple[str, ...], ids: int) -> list[Element]:
    """A table container, its header row (glued to what follows) and one row per line."""
    first_start, _ = table.lines[0]
    _, last_end = table.lines[-1]
    header_start, header_end = table.lines[0]
    container = Element(
        f"t{ids}",
        "table",
        first_start,
        last_end,
        section_path=section,
        data=TableData(
            header=table.cells[0],
            header_text=text[header_start:header_end].strip(),
            rows=len(table.lines) - 1,
            flat=True,
        ),
    )
    rows = [
        Element(
            f"t{ids}r{n}",
            "table_row",
            start,
            end,
            section_path=section,
            parent=container.id,
            data=RowData(cells=cells, header=n == 0),
        )
        for n, ((start, end), cells) in enumerate(zip(table.lines, table.cells, strict=True))
    ]
    return [container, *rows]


def _row(line: str) -> tuple[tuple[str, int] | None, list[str]]:
    """The separator and cell count of a line that looks like a table row, and its cells."""
    if _DELIMITER.match(line) or not line.strip():
        return None, []
    if "\t" in line.strip():
        cells = [c.strip() for c in line.strip().split("\t")]
        return ("\t", len(cells)), cells
    if "|" in line:
        body = line.strip()
        body = body[1:] if body.startswith("|") else body
        body = body[:-1] if body.endswith("|") else body
        cells = [c.strip() for c in body.split("|")]
        if len(cells) >= 2:
            return ("|", len(cells)), cells
    return _figures_row(line)


def _figures_row(line: str) -> tuple[tuple[str, int] | None, list[str]]:
    """A label followed by two or more figures: the figures are the cells."""
    words = line.split()
    figures = 0
    while figures < len(words) and _FIGURE.fullmatch(words[len(words) - 1 - figures]):
        figures += 1
    if figures < _MIN_FIGURES or (figures == len(words) and figures < 3):
        return None, []
    label = " ".join(words[: len(words) - figures])
    return ("figures", figures), [label, *words[len(words) - figures :]]


def _years(cells: list[str]) -> bool:
    """A figures row whose figures are all years ("(in millions) 2022 2021 2020") is the
    header of the run it opens, not a row under the line above it."""
    return all(_YEAR.fullmatch(c) for c in cells[1:])


def _cell_sizes_plausible(rows: list[list[str]]) -> bool:
    sizes = [len(c) for row in rows for c in row]
    return bool(sizes) and sum(sizes) / len(sizes) <= _MAX_MEAN_CELL
