"""Tables without (enough) rules, recognised from column alignment.

Rows are lines that share a baseline and follow each other in the content stream (sorting the
page by height instead would weave the column beside a table into its rows). A run of rows
where most rows hold two or more fragments (text cut at a wide gap) is a table candidate. Its
columns are split at *rivers*: vertical strips that no glyph of any of its rows touches, wider
than a word space. Each glyph goes to the column its centre lies in, so a cell PDFium ran into
its neighbour (a gap under an em) still comes apart.

Prose in two columns also gives rows of two fragments: a column whose cells read like prose
(many words, lines filling the column) is no table column. A line below a row that fills only
one column (not the first) is that cell's wrapped line.
"""

from __future__ import annotations

import bisect
import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parsegate.parsers.pdf.layout import Box, Glyph, Line, Page, Table, union
from parsegate.parsers.pdf.tables import cell_text, make_table

_MIN_ROWS = 3
_PROSE_WORDS = 7  # median words per cell from which a column reads as prose
_ROW_GAP = 2.0  # rows of one table are at most this many type sizes apart
_RIVER = 0.45  # ems: a blank strip this wide through every row separates two columns
_EDGE_BAND = 0.08  # of the page's height, at its head and foot: running heads, footers, folios


def unruled_tables(lines: Sequence[Line], page: int) -> list[Table]:
    tables = []
    for run in _runs(_rows(lines)):
        if _justified(run) or _listing(run):
            continue
        table = _table(run, page, _MIN_ROWS)
        if table is not None:
            tables.append(table)
    return tables


@dataclass(frozen=True)
class OpenTable:
    """The columns of the table a page ends with, for the rows the next page begins with."""

    rivers: list[River]
    size: float
    italic: bool
    x0: float
    x1: float


def open_table(page: Page) -> OpenTable | None:
    """The table the page ends with: the one in the rightmost column after which nothing but
    the foot band (a footer, a folio) is read, below it in its column or in a column to its
    right (a column to its left that runs lower is read before it)."""
    foot = page.height * (1 - _EDGE_BAND)
    ends = [
        t for t in page.tables
        if t.lines
        and not any(t.bottom < ln.top < foot and ln.x1 > t.x0 for ln in page.lines)
        and not any(f.top > t.bottom and f.x1 > t.x0 for f in page.figures)
        and not any(o.top > t.bottom and o.x1 > t.x0 for o in page.tables)
    ]  # fmt: skip
    if not ends:
        return None
    last = max(ends, key=lambda t: t.x0)
    size = statistics.median(ln.size for ln in last.lines)
    italic = sum(ln.style.italic for ln in last.lines) * 2 > len(last.lines)
    rivers = _rivers(last.lines, size)
    return OpenTable(rivers, size, italic, last.x0, last.x1) if rivers else None


def continue_table(page: Page, above: OpenTable) -> None:
    """Rows at the top of a page that go on with the table the page before ended with, in its
    columns: too few to be a table on their own (a page break leaves one or two behind), and
    read as lines their cells would go column by column, the rows mixed. They become a table
    that the builder stitches to the one before."""
    head = page.height * _EDGE_BAND  # a running head above them is no row
    lines = [ln for ln in page.lines if ln.bottom > head]
    if not lines:
        return
    # The table goes on at the top of the page's first column, which may stand elsewhere than
    # the column it ended in: its columns move with that first line.
    top = min(ln.top for ln in lines)
    first = min((ln for ln in lines if ln.top <= top + ln.size), key=lambda ln: ln.x0)
    shift = first.x0 - above.x0
    rivers = [(lo + shift, hi + shift) for lo, hi in above.rivers]
    column = [ln for ln in lines if _within(ln, above.x0 + shift, above.x1 + shift)]
    rows = _fitting_rows(column, rivers, above.size, above.italic)
    table = _table(rows, page.number, 1, rivers=rivers) if rows else None
    if table is not None:
        page.tables.append(table)
        taken = {id(ln) for ln in table.lines}
        page.lines = [ln for ln in page.lines if id(ln) not in taken]


def table_between_rules(box: Box, edges: Sequence[dict[str, Any]], lines: Sequence[Line], page: int) -> Table | None:
    """A grid that failed its checks (open sides, inner rules only): the rows between its rules,
    with columns from the text's alignment. Every line the rules' band holds goes in."""
    across = [
        e for e in edges
        if e["orientation"] == "h" and box[1] - 1 <= e["top"] <= box[3] + 1 and e["x0"] <= box[2] and e["x1"] >= box[0]
    ]  # fmt: skip
    x0 = min([box[0], *(e["x0"] for e in across)])
    x1 = max([box[2], *(e["x1"] for e in across)])
    band = [ln for ln in lines if box[1] <= (ln.top + ln.bottom) / 2 <= box[3] and _within(ln, x0, x1)]
    if not band:
        return None
    size = statistics.median(ln.size for ln in band)
    rivers = _rivers(band, size)  # from the rows between the rules: a header may be wider
    above, below = _rows_outside(band, lines, box, x0, x1, rivers)
    inside = _rows(band)
    rows = ([above] if above else []) + inside + ([below] if below else [])
    if below and len(inside) == 1:
        # Rules over and under the header only: the body below, with no rule to close it (the
        # table goes on in the next column or page), runs as far as its rows fit the columns.
        rows += _rows_on(below, lines, (x0, x1), rivers, size)
    return _table(rows, page, 2, every_line=True, rivers=rivers) if len(rows) >= 2 else None


def _rows_outside(
    band: Sequence[Line], lines: Sequence[Line], box: Box, x0: float, x1: float, rivers: list[River]
) -> tuple[list[Line], list[Line]]:
    """A row set right above the first rule (a header) and right below the last (tables ruled
    inside only), each when every one of its lines falls in one of the band's columns: a
    caption or a paragraph beside the rules would not."""
    size = statistics.median(ln.size for ln in band)
    band_italic = sum(ln.style.italic for ln in band) * 2 > len(band)
    taken = {id(ln) for ln in band}
    near = [ln for ln in lines if id(ln) not in taken and _within(ln, x0, x1)]
    above = _nearest_row([ln for ln in near if box[1] - 1.6 * size <= ln.bottom <= box[1] + 1], last=True)
    below = _nearest_row([ln for ln in near if box[3] - 1 <= ln.top <= box[3] + 1.6 * size], last=False)

    return _fits(above, rivers, size, band_italic), _fits(below, rivers, size, band_italic)


def _fits(row: list[Line], rivers: list[River], size: float, band_italic: bool) -> list[Line]:
    """The row, when it is a row of two cells or more of the table whose columns ``rivers``
    separate: no word of it across a river, and a gap as wide as a river wherever it goes from
    one column to the next (a caption's word spaces are not); else nothing."""
    words = sorted((word for ln in row for word in ln.words()), key=lambda w: min(g.x0 for g in w))
    if not rivers or any(_across(word, rivers) for word in words):
        return []
    if any(ln.size > size + 0.5 or (ln.style.italic and not band_italic) for ln in row):
        return []  # set larger, or in italics: a caption's last line, not a header
    columns = [_word_column(word, rivers) for word in words]
    for (a, ca), (b, cb) in itertools.pairwise(zip(words, columns, strict=True)):
        if ca != cb and min(g.x0 for g in b) - max(g.x1 for g in a) < _RIVER * size:
            return []
    return sorted(row, key=lambda ln: ln.x0) if len(set(columns)) >= 2 else []


def _header(row: list[Line], below: list[list[Line]]) -> bool:
    """A row of one line (PDFium joins a bold header's cells when a word space sets them
    apart) that splits into the columns of the rows of several below it, as a row of the
    table would (``_fits``), with a word starting each of those columns."""
    cells = [ln for r in below if len(r) >= 2 for ln in r]
    if len(cells) < 4:
        return False
    size = statistics.median(ln.size for ln in cells)
    rivers = _rivers(cells, size)
    italic = sum(ln.style.italic for ln in cells) * 2 > len(cells)
    words = [word for ln in row for word in ln.words()]
    return bool(_fits(row, rivers, size, italic)) and {_word_column(w, rivers) for w in words} == set(
        range(len(rivers) + 1)
    )


def _rows_on(
    row: list[Line], lines: Sequence[Line], span: tuple[float, float], rivers: list[River], size: float
) -> list[list[Line]]:
    """The rows that follow ``row`` one after another, each fitting the columns."""
    taken = {id(ln) for ln in row}
    later = [ln for ln in lines if id(ln) not in taken and ln.top > row[0].top and _within(ln, *span)]
    italic = sum(ln.style.italic for ln in row) * 2 > len(row)
    return _fitting_rows(later, rivers, size, italic, after=row)


def _fitting_rows(
    lines: Sequence[Line], rivers: list[River], size: float, italic: bool, after: list[Line] | None = None
) -> list[list[Line]]:
    """The rows of ``lines`` from the top, each fitting the columns and following the one before
    (the first following ``after``, when given), up to the first that does not."""
    out: list[list[Line]] = []
    last = after
    for row in sorted(_rows(lines), key=lambda r: r[0].top):
        fits = _fits(row, rivers, size, italic)
        if not fits or (last is not None and not _follows(last, row)):
            break
        out.append(fits)
        last = fits
    return out


def _nearest_row(lines: list[Line], last: bool) -> list[Line]:
    """The lines on the baseline nearest the rule: the last row above it or the first below."""
    if not lines:
        return []
    rows = _rows(sorted(lines, key=lambda ln: ln.top))
    rows.sort(key=lambda r: r[0].top)
    return rows[-1] if last else rows[0]


def _within(line: Line, x0: float, x1: float) -> bool:
    """Between the ends of a table's rules (a line running past them is the text beside it)."""
    return line.x0 >= x0 - line.size and line.x1 <= x1 + line.size


def _rows(lines: Sequence[Line]) -> list[list[Line]]:
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: ln.index):
        mid = (line.top + line.bottom) / 2
        if rows and rows[-1][0].top <= mid <= rows[-1][0].bottom:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(r, key=lambda ln: ln.x0) for r in rows]


def _runs(rows: list[list[Line]]) -> list[list[list[Line]]]:
    """Runs of rows, each below the one before, where rows of one fragment only come between
    rows of several (a wrapped cell, a cell PDFium ran into its neighbour)."""
    runs: list[list[list[Line]]] = []
    run: list[list[Line]] = []
    for row in rows:
        # A row of one fragment is a row of cells PDFium ran together when it splits at the
        # run's rivers; otherwise one at a time (a cell wrapped over two lines), in the table's
        # type (not a heading); more is a paragraph, and the run ends before it.
        single = len(row) < 2 and not _splits(row[0], run)
        single = single and (
            _prose_line(row[0]) or (bool(run) and (len(run[-1]) < 2 or abs(row[0].size - run[0][0].size) > 1))
        )
        if run and _follows(run[-1], row) and not single:
            run.append(row)
            continue
        runs.append(run)
        run = [row]
    runs.append(run)
    out = []
    for r in runs:
        while r and len(r[-1]) < 2:
            r = r[:-1]  # rows of one fragment only count between rows of several
        while len(r) > 1 and len(r[0]) < 2 and not (len(r[1]) >= 2 and _header(r[0], r[1:])):
            r = r[1:]
        if sum(len(row) >= 2 for row in r) >= 2:
            out.append(r)
    return out


def _justified(run: list[list[Line]]) -> bool:
    """Lines of a justified paragraph, which PDFium cuts where justification opened wide word
    spaces: nearly every row runs from the run's left edge to its right edge, and some row
    of four words or more after the first is not cut at all (a table's row that fills its
    width is cut at its columns)."""
    size = statistics.median(ln.size for row in run for ln in row)
    x0 = min(ln.x0 for row in run for ln in row)
    x1 = max(ln.x1 for row in run for ln in row)
    full = [row for row in run if row[0].x0 <= x0 + 0.5 * size and row[-1].x1 >= x1 - 0.5 * size]
    # The first row may be a header PDFium left whole (its cells a word space apart).
    uncut = any(len(row) == 1 and len(row[0].text.split()) >= 4 for row in full if row is not run[0])
    return uncut and len(full) >= 0.8 * len(run)


def _listing(run: list[list[Line]]) -> bool:
    """Rows of a listing in a monospaced font (its lines numbered or not, a brace in a math
    font): its word spaces, a character wide in every row, line up into blank strips like a
    table's; it is code, kept as such."""
    lines = [ln for row in run for ln in row]
    return any(ln.listing for ln in lines) and all(ln.listing or ln.letterless for ln in lines)


def _splits(line: Line, run: list[list[Line]]) -> bool:
    """The line falls into two or more of the columns the run's rows of several fragments
    make, no word of it across their rivers."""
    cells = [ln for row in run if len(row) >= 2 for ln in row]
    if len(cells) < 4:
        return False
    rivers = _rivers(cells, statistics.median(ln.size for ln in cells))
    words = line.words()
    return not any(_across(w, rivers) for w in words) and len({_word_column(w, rivers) for w in words}) >= 2


def _follows(above: list[Line], row: list[Line]) -> bool:
    size = row[0].size
    top = min(ln.top for ln in row)
    return top >= above[0].top + 0.5 * size and top - max(ln.bottom for ln in above) <= _ROW_GAP * size


def _prose_line(line: Line) -> bool:
    return len(line.text.split()) >= _PROSE_WORDS


def _table(
    run: list[list[Line]], page: int, min_rows: int, every_line: bool = False, rivers: list[River] | None = None
) -> Table | None:
    fragments = [ln for row in run for ln in row]
    if rivers is None:
        rivers = _rivers(fragments, statistics.median(ln.size for ln in fragments))
    if not rivers:
        return None
    where = {id(g): _word_column(word, rivers) for ln in fragments for word in ln.words() for g in word}
    columns = len(rivers) + 1
    cells = [_row_cells(row, where, columns) for row in run]
    prose = {c for c in range(columns) if _prose_column([row[c] for row in cells if row[c][1]])}
    if prose and every_line:
        return None
    keep = [c for c in range(columns) if c not in prose]
    # Prose columns at either side (the other column of the page) are left out; one between
    # table columns means this is no table.
    if len(keep) < 2 or keep != list(range(keep[0], keep[-1] + 1)):
        return None
    grid: list[list[str]] = []
    boxes: list[Box] = []
    taken: list[Line] = []
    for row, parts in zip(run, cells, strict=True):
        kept = [parts[c] for c in keep]
        filled = [n for n, (text, _) in enumerate(kept) if text]
        if not filled:
            continue
        mine = [ln for ln in row if any(where[id(g)] in keep for g in ln.ink())]
        if grid and len(filled) == 1 and filled[0] > 0 and not grid[-1][filled[0]].endswith("."):
            n = filled[0]
            grid[-1][n] = f"{grid[-1][n]} {kept[n][0]}".strip()  # a wrapped line of a cell
            boxes[-1] = union(boxes[-1], _box(mine))
        else:
            grid.append([text for text, _ in kept])
            boxes.append(_box(mine))
        taken.extend(mine)
    if any(not all(where[id(g)] in keep for g in ln.ink()) for ln in taken):
        return None  # a line half in the table, half in the prose beside it
    full = sum(sum(bool(c) for c in r) >= 2 for r in grid)
    if len(grid) < min_rows or full < max(min(2, min_rows), 0.6 * len(grid)):
        return None
    return make_table(grid, boxes, _box(taken), taken, page, ruled=every_line)


def _box(lines: Sequence[Line]) -> Box:
    return (
        min(ln.x0 for ln in lines),
        min(ln.top for ln in lines),
        max(ln.x1 for ln in lines),
        max(ln.bottom for ln in lines),
    )


River = tuple[float, float]  # a blank strip between two columns: from, to


def _rivers(lines: Sequence[Line], size: float) -> list[River]:
    """The blank strips, wider than _RIVER ems, through all the lines' glyphs."""
    spans = sorted((g.x0, g.x1) for ln in lines for g in ln.ink())
    out = []
    reach = spans[0][1]
    for lo, hi in spans[1:]:
        if lo - reach >= _RIVER * size:
            out.append((reach, lo))
        reach = max(reach, hi)
    return out


def _word_column(word: list[Glyph], rivers: list[River]) -> int:
    """The column a word starts in (a header wider than its column runs into the river)."""
    start = min(g.x0 for g in word)
    return bisect.bisect([(lo + hi) / 2 for lo, hi in rivers], start)


def _across(word: list[Glyph], rivers: list[River]) -> bool:
    """A word that spans a whole river: it would join two columns."""
    x0, x1 = min(g.x0 for g in word), max(g.x1 for g in word)
    return any(x0 < lo and x1 > hi for lo, hi in rivers)


def _row_cells(row: list[Line], where: dict[int, int], columns: int) -> list[tuple[str, list[Line]]]:
    """Each column's text in this row, and the lines that gave it."""
    out: list[tuple[str, list[Line]]] = []
    for c in range(columns):
        parts = [(ln, [g for g in ln.ink() if where[id(g)] == c]) for ln in row]
        parts = [(ln, gs) for ln, gs in parts if gs]
        out.append((cell_text(parts), [ln for ln, _ in parts]))
    return out


def _prose_column(cells: list[tuple[str, list[Line]]]) -> bool:
    """Cells of running text: many words, or several words on lines filling the column."""
    if not cells:
        return False
    words = statistics.median(len(text.split()) for text, _ in cells)
    lines = [ln for _, lns in cells for ln in lns]
    left, right = min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)
    full = sum(ln.width >= 0.75 * (right - left) for ln in lines)
    return words >= _PROSE_WORDS or (words >= 3 and full >= 0.6 * len(lines))
