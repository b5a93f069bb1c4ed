"""Tables that lost their markup: runs of lines with the same number of ``|``- or
tab-separated cells, as most exporters write them (``a | b | c``, no GFM delimiter row),
or with the same number of figures at their end, as PDF-to-text tools write financial
tables (``Net revenue 7,085.3 6,840.6 5,336.5``). Such a run is a table: each line a row,
the first its header (``(in millions) 2020 2019 2018`` heads a run of figures). And tables
written one cell per paragraph, as poppler's pdftotext writes them (``find_cell_tables``).
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
# Tabs that stand for spaces (see _tabs_are_spacing): a paragraph read with its tabs expanded.
_WRAP_MIN_LINES = 3
_WRAP_MIN_WIDTH = 40  # columns: nobody wraps prose narrower than this
_WRAP_NEAR = 0.8
_WIDTH_QUANTILE = 0.9
_PROSE_WORDS_PER_CELL = 2.5  # a table's cells hold a word or two; sentence fragments hold more


@dataclass(frozen=True)
class FlatTable:
    lines: list[tuple[int, int]]  # (start, end) of each row, without its line break
    cells: list[list[str]]
    # The header of the table this one goes on from (cells, text), when pdftotext broke a table
    # in two: then every row is a body row, and each carries that header.
    carried: tuple[list[str], str] | None = None


def find_tables(text: str, lines: list[tuple[int, int]]) -> list[FlatTable]:
    """Runs of at least two consecutive lines with one consistent separator and cell count."""
    found: list[FlatTable] = []
    run: list[tuple[int, int]] = []
    run_cells: list[list[str]] = []
    run_key: tuple[str, int] | None = None
    before: tuple[int, int] | None = None  # the line before the run

    def close() -> None:
        spacing = run_key is not None and run_key[0] == "\t" and _tabs_are_spacing(text, lines, run, run_cells)
        if len(run) >= _MIN_ROWS and _cell_sizes_plausible(run_cells) and not spacing:
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
    header, header_text = table.carried or (table.cells[0], header_line(text, table))
    container = Element(
        f"t{ids}",
        "table",
        first_start,
        last_end,
        section_path=section,
        data=TableData(
            header=header,
            header_text=header_text,
            rows=len(table.lines) - (0 if table.carried else 1),
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
            data=RowData(cells=cells, header=n == 0 and table.carried is None),
        )
        for n, ((start, end), cells) in enumerate(zip(table.lines, table.cells, strict=True))
    ]
    return [container, *rows]


def header_line(text: str, table: FlatTable) -> str:
    start, end = table.lines[0]
    return text[start:end].strip()


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


def _tabs_are_spacing(
    text: str, block: list[tuple[int, int]], run: list[tuple[int, int]], cells: list[list[str]]
) -> bool:
    """Whether a run of lines with the same number of tabs is wrapped prose whose tabs stand
    for spaces. Text set with tabs as whitespace compression (man pages as groff and col(1) write
    them, files passed through unexpand) has a tab wherever padding reached a tab stop: in a
    justified paragraph, line after line holds one or two, and runs of lines with the same count
    happen by chance. Read with its tabs expanded, such a run is full lines of its paragraph (as
    wide as most of the paragraph's lines), and its "cells" are fragments of sentences, several
    words each; a table's rows end where their last cell ends, and its cells hold a word or two."""
    if len(block) < _WRAP_MIN_LINES:
        return False
    words = [len(cell.split()) for row in cells for cell in row]
    if sum(words) < _PROSE_WORDS_PER_CELL * len(words):
        return False
    widths = sorted(_columns(text, start, end) for start, end in block)
    width = widths[int(_WIDTH_QUANTILE * (len(widths) - 1))]
    return width >= _WRAP_MIN_WIDTH and all(_columns(text, s, e) >= _WRAP_NEAR * width for s, e in run[:-1])


def _columns(text: str, start: int, end: int) -> int:
    """How wide a line is on screen, from its line's first column to ``end`` (trailing space
    left out), tabs expanded to the next multiple of eight columns."""
    line_start = text.rfind("\n", 0, start) + 1
    return len(text[line_start:end].rstrip().expandtabs(8))


def _cell_sizes_plausible(rows: list[list[str]]) -> bool:
    sizes = [len(c) for row in rows for c in row]
    return bool(sizes) and sum(sizes) / len(sizes) <= _MAX_MEAN_CELL


# -- tables written one cell per paragraph ----------------------------------------------------
# poppler's pdftotext (in its default reading-order mode) writes a table's cells as paragraphs:
# "Net revenue", blank line, "4,677.1", blank line, "4,555.0", ... A row is a label paragraph
# and the figures after it; rows with the same number of figures, one after another, are a
# table, headed by its first row when that row's figures are years, or by a label paragraph
# right above it ("Net revenue Gross profit Net income Diluted EPS").
_CELL_LABEL_MAX = 80
_CONTINUED_GAP = 4  # blocks between two pieces of one table that pdftotext broke in two


@dataclass(frozen=True)
class CellTable:
    first: int  # index of its first block
    last: int  # index of its last block (inclusive)
    table: FlatTable
    continues: bool = False  # goes on from the table before it (see _continued)


@dataclass
class _CellRow:
    first: int  # block index of the label, or of the first figure without one
    last: int
    label: str
    figures: list[str]


def find_cell_tables(text: str, blocks: list[tuple[int, int, int]]) -> list[CellTable]:
    """Tables among ``blocks`` ((start, end, line count) of paragraphs) written a cell per block."""
    kinds = [_cell_kind(text[s:e], count) for s, e, count in blocks]
    found: list[CellTable] = []
    i = 0
    while i < len(blocks):
        j = i
        while j < len(blocks) and kinds[j] is not None:
            j += 1
        if j - i >= 2 * (1 + _MIN_FIGURES):
            found.extend(_cell_tables(text, blocks, kinds, i, j))
        i = max(j, i + 1)
    return _continued(text, found)


def _continued(text: str, found: list[CellTable]) -> list[CellTable]:
    """A table whose first row is figures without a label (not a row of years) a few paragraphs
    after a table of as many columns goes on from it: pdftotext broke the table where it put a
    row's figures before their label or two labels on one line. It is marked to carry that
    table's header (``carry``) instead of taking a row of figures for one."""
    out: list[CellTable] = []
    for table in found:
        first = table.table.cells[0]
        before = out[-1] if out else None
        continues = (
            before is not None
            and not first[0]
            and not _years(first)
            and table.first - before.last <= _CONTINUED_GAP
            and len(before.table.cells[0]) == len(first)
        )
        out.append(CellTable(table.first, table.last, table.table, continues) if continues else table)
    return out


def carry(text: str, before: CellTable, table: CellTable) -> CellTable:
    """``table`` with the header of the table it goes on from (as that one carries it, its own
    first row or the header it carries in turn)."""
    header = before.table.carried or (before.table.cells[0], header_line(text, before.table))
    flat = FlatTable(table.table.lines, table.table.cells, header)
    return CellTable(table.first, table.last, flat, table.continues)


def label_above(text: str, block: tuple[int, int, int], found: CellTable) -> tuple[tuple[int, int, int], CellTable]:
    """A header row of years with no label of its own takes the label that ends the paragraph
    above it ("... Consolidated Statements of Operations / (in millions) | 2022 | 2021"): the
    paragraph loses that line, the table's first row starts with it."""
    start, end, count = block
    first = found.table.cells[0]
    if count < 2 or first[0] or not _years(first):
        return block, found
    line_start = text.rfind("\n", start, end) + 1
    line = text[line_start:end].strip()
    if _cell_kind(line, 1) != "label":
        return block, found
    kept_end = line_start
    while kept_end > start and text[kept_end - 1].isspace():
        kept_end -= 1
    spans = [(line_start, found.table.lines[0][1]), *found.table.lines[1:]]
    cells = [[line, *first[1:]], *found.table.cells[1:]]
    return (start, kept_end, count - 1), CellTable(found.first, found.last, FlatTable(spans, cells), found.continues)


def _cell_kind(line: str, count: int) -> str | None:
    """'figures' for a paragraph of figures alone, 'label' for a short line that ends no
    sentence, None for anything else (prose, several lines)."""
    words = line.split()
    if count != 1 or not words:
        return None
    if all(_FIGURE.fullmatch(w) for w in words):
        return "figures"
    if len(line) <= _CELL_LABEL_MAX and line.rstrip()[-1] not in ".!?;:," and any(c.isalpha() for c in line):
        return "label"
    return None


def _cell_tables(
    text: str, blocks: list[tuple[int, int, int]], kinds: list[str | None], i: int, j: int
) -> list[CellTable]:
    rows: list[_CellRow] = []
    for b in range(i, j):
        words = text[blocks[b][0] : blocks[b][1]].split()
        if kinds[b] == "label":
            rows.append(_CellRow(b, b, " ".join(words), []))
        elif rows and rows[-1].last == b - 1 and (rows[-1].label or rows[-1].figures):
            rows[-1].figures.extend(words)
            rows[-1].last = b
        else:
            rows.append(_CellRow(b, b, "", list(words)))
    rows = _split_long_rows(text, blocks, rows)
    out: list[CellTable] = []
    r = 0
    while r < len(rows):
        n = len(rows[r].figures)
        s = r
        while s < len(rows) and n >= _MIN_FIGURES and len(rows[s].figures) == n:
            s += 1
        if s - r >= _MIN_ROWS:
            group = rows[r:s]
            above = rows[r - 1] if r > 0 else None
            if not _years(["", *group[0].figures]) and above is not None and above.label and not above.figures:
                group = [above, *group]  # column names above the first row of figures
            out.append(_cell_table(text, blocks, group))
            r = s
        else:
            r += 1
    return out


def _split_long_rows(text: str, blocks: list[tuple[int, int, int]], rows: list[_CellRow]) -> list[_CellRow]:
    """Figures that pdftotext moved away from their label follow the row before them: a row of
    twice the usual count of figures is that row and an unlabelled one."""
    counts = [len(r.figures) for r in rows if r.label and len(r.figures) >= _MIN_FIGURES]
    if not counts:
        return rows
    n = max(set(counts), key=counts.count)
    out: list[_CellRow] = []
    for row in rows:
        bounds = _figure_blocks(text, blocks, row)
        ends = range(n - 1, len(row.figures) - 1, n)  # the last figure of each row but the last
        if len(row.figures) <= n or len(row.figures) % n or any(bounds[k] == bounds[k + 1] for k in ends):
            out.append(row)
            continue
        first = row.first
        for k in range(0, len(row.figures), n):
            last = bounds[k + n - 1]
            out.append(_CellRow(first, last, row.label if k == 0 else "", row.figures[k : k + n]))
            first = last + 1
    return out


def _figure_blocks(text: str, blocks: list[tuple[int, int, int]], row: _CellRow) -> list[int]:
    """The block each of a row's figures is in ("1,073.6 1,045.9" puts two in one): a row splits
    only where one block ends and the next begins."""
    out: list[int] = []
    for b in range(row.first + (1 if row.label else 0), row.last + 1):
        out.extend([b] * len(text[blocks[b][0] : blocks[b][1]].split()))
    return out


def _cell_table(text: str, blocks: list[tuple[int, int, int]], rows: list[_CellRow]) -> CellTable:
    spans = [(blocks[row.first][0], blocks[row.last][1]) for row in rows]
    cells = [[row.label, *row.figures] if row.figures else row.label.split() for row in rows]
    return CellTable(rows[0].first, rows[-1].last, FlatTable(spans, cells))
