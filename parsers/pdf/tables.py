"""Ruled tables: pdfplumber's grid algorithm on the page's rules, checked against the glyphs.

pdfplumber finds cells from edges (``merge_edges → edges_to_intersections →
intersections_to_cells → cells_to_tables``); the edges here come from the paths PDFium already
holds (getting them from pdfminer would mean interpreting the page again). pdfplumber is
imported only for a page that has rules.

A grid is a table only when it holds its text exactly (partial grids, open sides and framed
diagrams fail one of these):

* every glyph inside the grid's box is in exactly one cell (no gaps, no nested cells);
* no word crosses a rule;
* no line of text crosses the box's edge.

A grid that fails is tried once more with columns taken from the text's alignment between its
rules (a table ruled only across, or with inner rules only); otherwise its lines stay text.
Text that no cell took is never removed.
"""

from __future__ import annotations

import bisect
import re
import statistics
from collections.abc import Sequence
from typing import Any

from parsegate.parsers.pdf.layout import Box, Glyph, Line, Table
from parsegate.parsers.pdf.lines import glyphs_text
from parsegate.parsers.pdf.text import mostly_rtl

_NEAR = 1.0  # points of slack around a cell or a box
_CAPTION = re.compile(r"^(table|figure|fig\.|chart|exhibit|listing)\s+[\dIVX]+[a-z]?\b", re.IGNORECASE)


def ruled_tables(edges: Sequence[Box], lines: Sequence[Line], page: int, goes_on: bool = False) -> list[Table]:
    """The tables the page's rules draw (``goes_on``: the page before ended with a table, so one
    ruled row may be its last: grid_table)."""
    if len(edges) < 2:
        return []
    from pdfplumber.table import merge_edges

    from parsegate.parsers.pdf.unruled import table_between_rules

    # Snapped and intersected one drawing at a time: pdfplumber snaps a rule to the mean of every
    # rule within 3 pt of the next across the whole page, so the boxes of a diagram in the other
    # column pulled a table's rules together and merged three of its rows into one.
    merged: list[dict[str, Any]] = []
    grids: list[tuple[list[Any], list[list[Any]], bool]] = []  # a grid, its drawing's closed grids, drawn
    for drawing in drawings(edges):
        snapped = merge_edges([_edge(*e) for e in drawing], 3, 3, 3, 3)
        merged += snapped
        sides = _open_sides(snapped)
        closed = _grids(merge_edges(snapped + sides, 3, 3, 3, 3)) if sides else []
        # A drawing with no grid until its sides are closed is read by its closed grids.
        grids += [(g, closed, True) for g in _grids(snapped)] or [(g, [g], False) for g in closed]
    free = list(lines)
    tables: list[Table] = []
    tried: list[Box] = []
    for cells, closed, drawn in grids:
        box = _box_of(cells)
        tried.append(box)
        boxes = [(c[0], c[1], c[2], c[3]) for c in cells]
        table = grid_table(boxes, free, page, goes_on) if drawn else None
        if table is None:
            table = table_between_rules(box, merged, free, page)
            # A grid whose sides were left open, closed: read between its rules, a cell's
            # wrapped lines became rows of their own.
            shut = _closed_table(closed, box, free, page, goes_on)
            if shut is not None and _holds(shut, table):
                table = shut
        if table is not None:
            tables.append(table)
            free = _without(free, table.lines)
    # Rules across with no grid between them (booktabs, or inner rules that close no cell).
    for box in _rule_groups(merged, free, tried):
        table = table_between_rules(box, merged, free, page)
        if table is not None:
            tables.append(table)
            free = _without(free, table.lines)
    return tables


def _grids(edges: list[dict[str, Any]]) -> list[list[Any]]:
    """pdfplumber's grids of cells from snapped rules."""
    from pdfplumber.table import cells_to_tables, edges_to_intersections

    return cells_to_tables(intersections_to_cells(edges_to_intersections(edges, 3, 3)))  # type: ignore[arg-type,no-any-return]


def _holds(shut: Table, between: Table | None) -> bool:
    """A closed grid's table is kept where it holds every line the reading between its rules took,
    in as many columns (a table ruled only in part shows more columns in its text)."""
    if between is None:
        return True
    taken = {id(ln) for ln in shut.lines}
    return len(shut.rows[0]) >= len(between.rows[0]) and all(id(ln) in taken for ln in between.lines)


def _closed_table(closed: list[list[Any]], box: Box, lines: Sequence[Line], page: int, goes_on: bool) -> Table | None:
    for cells in closed:
        outer = _box_of(cells)
        if outer[0] <= box[2] and box[0] <= outer[2] and outer[1] <= box[3] and box[1] <= outer[3]:
            return grid_table([(c[0], c[1], c[2], c[3]) for c in cells], lines, page, goes_on)
    return None


_DRAWING_GAP = 6.0  # points: rules closer than this belong to one drawing


def _open_sides(edges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A table ruled across, with rules between its columns but none at its sides (common in
    reports: the grid's outer verticals left out): the sides its rules across end at, from the
    first of those rules to the last, where the drawing has none. Without them only the middle
    column made cells, and the grid held text in no cell."""
    across = [e for e in edges if e["orientation"] == "h"]
    if len(across) < 2:
        return []
    x0, x1 = min(e["x0"] for e in across), max(e["x1"] for e in across)
    full = [e["top"] for e in across if e["x0"] <= x0 + 3 and e["x1"] >= x1 - 3]
    if len(full) < 2:
        return []
    top, bottom = min(full), max(full)
    down = [e for e in edges if e["orientation"] == "v" and e["top"] <= top + 3 and e["bottom"] >= bottom - 3]
    if not any(x0 + 3 < e["x0"] < x1 - 3 for e in down):
        return []  # no column rule runs through the rows: not this kind of table
    return [_edge(x, top, x, bottom) for x in (x0, x1) if not any(abs(e["x0"] - x) <= 3 for e in down)]


def drawings(edges: Sequence[Box]) -> list[list[Box]]:
    """The page's rules in groups that touch or nearly touch, in the order first seen: each rule
    covers the cells of a grid of _DRAWING_GAP-pt squares that its box, grown by half that gap,
    covers, and rules sharing a cell are one drawing (union-find). So rules apart by more than
    twice the gap are never joined through that cell.

    Each grid row is swept once: the rules crossing it, as spans of cells sorted by their first
    cell, share a cell with the span before exactly when they start at or before the furthest
    end seen so far. The cost grows with the rules' height in rows, never with pairs of rules
    nor with a rule's length (the 301 x 301 grid page's 602 rules: 0.02 s)."""
    parent = list(range(len(edges)))

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    rows: dict[int, list[tuple[int, int, int]]] = {}
    half = _DRAWING_GAP / 2
    for n, (x0, top, x1, bottom) in enumerate(edges):
        span = (int((x0 - half) // _DRAWING_GAP), int((x1 + half) // _DRAWING_GAP), n)
        for row in range(int((top - half) // _DRAWING_GAP), int((bottom + half) // _DRAWING_GAP) + 1):
            rows.setdefault(row, []).append(span)
    for spans in rows.values():
        spans.sort()
        reach, joined = spans[0][1], root(spans[0][2])
        for first, last, n in spans[1:]:
            if first <= reach:  # shares a cell with the span reaching furthest so far
                if (mine := root(n)) != joined:
                    parent[mine] = joined
                reach = max(reach, last)
            else:
                reach, joined = last, root(n)
    groups: dict[int, list[Box]] = {}
    for n, edge in enumerate(edges):
        groups.setdefault(root(n), []).append(edge)
    return list(groups.values())


def _without(lines: list[Line], taken: Sequence[Line]) -> list[Line]:
    gone = {id(ln) for ln in taken}
    return [ln for ln in lines if id(ln) not in gone]


def _rule_groups(edges: Sequence[dict[str, Any]], lines: Sequence[Line], tried: Sequence[Box]) -> list[Box]:
    """Boxes spanned by two or more horizontal rules of the same extent, outside the grids
    already tried, cut where a line of prose lies between two of them."""
    across = [
        e for e in edges
        if e["orientation"] == "h" and e["width"] >= 20
        and not any(_within(((e["x0"] + e["x1"]) / 2, e["top"]), t) for t in tried)
    ]  # fmt: skip
    groups: list[list[dict[str, Any]]] = []
    for e in sorted(across, key=lambda e: e["top"]):
        same = [g for g in groups if abs(g[0]["x0"] - e["x0"]) <= 4 and abs(g[0]["x1"] - e["x1"]) <= 4]
        if same:
            same[0].append(e)
        else:
            groups.append([e])
    boxes = []
    for rules in groups:
        inside = [ln for ln in lines if rules[0]["top"] < ln.top < rules[-1]["top"] and _under(ln, rules[0])]
        size = statistics.median(ln.size for ln in inside) if inside else 0.0
        run = [rules[0]]
        for rule in [*rules[1:], None]:
            if rule is None or _apart(run[-1], rule, inside, size):
                if len(run) >= 2:
                    boxes.append((run[0]["x0"], run[0]["top"], run[0]["x1"], run[-1]["top"]))
                run = [rule] if rule is not None else []
            else:
                run.append(rule)
    return boxes


def _under(line: Line, rule: dict[str, Any]) -> bool:
    return bool(line.x1 > rule["x0"] and line.x0 < rule["x1"])


def _apart(upper: dict[str, Any], lower: dict[str, Any], lines: Sequence[Line], size: float) -> bool:
    """Two rules of two tables, not of one: between them a line of prose, a caption, or a line
    set larger than the text around (a heading)."""
    between = [ln for ln in lines if upper["top"] < ln.top < lower["top"]]
    return _prose_between(upper, lower, between) or any(
        ln.size > 1.15 * size or _CAPTION.match(ln.text) for ln in between
    )


def _prose_between(upper: dict[str, Any], lower: dict[str, Any], lines: Sequence[Line]) -> bool:
    width = upper["x1"] - upper["x0"]
    return any(
        upper["top"] < ln.top < lower["top"] and ln.x1 > upper["x0"] and ln.x0 < upper["x1"]
        and len(ln.text.split()) >= 7 and ln.width >= 0.6 * width
        for ln in lines
    )  # fmt: skip


def _edge(x0: float, top: float, x1: float, bottom: float) -> dict[str, Any]:
    horizontal = (bottom - top) <= (x1 - x0)
    if horizontal:
        top = bottom = (top + bottom) / 2
    else:
        x0 = x1 = (x0 + x1) / 2
    return {
        "x0": x0, "x1": x1, "top": top, "bottom": bottom, "width": x1 - x0, "height": bottom - top,
        "orientation": "h" if horizontal else "v", "object_type": "line",
    }  # fmt: skip


def intersections_to_cells(intersections: dict[tuple[float, float], dict[str, list[Any]]]) -> list[Box]:
    """pdfplumber's ``intersections_to_cells``, the same cells in the same order, with the points
    below and to the right of each point looked up in an index instead of found by scanning every
    point (pdfplumber's scan is quadratic in the points: a page ruled 301 x 301 took minutes)."""
    points = sorted(intersections)
    column: dict[float, list[float]] = {}
    row: dict[float, list[float]] = {}
    for x, y in points:  # sorted by x, then y: each list comes out sorted
        column.setdefault(x, []).append(y)
        row.setdefault(y, []).append(x)
    for xs in row.values():
        xs.sort()
    boxes: dict[tuple[float, float], tuple[set[Any], set[Any]]] = {}

    def edges(point: tuple[float, float]) -> tuple[set[Any], set[Any]]:
        if point not in boxes:
            found = intersections[point]
            boxes[point] = ({_bbox(e) for e in found["v"]}, {_bbox(e) for e in found["h"]})
        return boxes[point]

    def connects(p1: tuple[float, float], p2: tuple[float, float]) -> bool:
        if p1[0] == p2[0] and edges(p1)[0] & edges(p2)[0]:
            return True
        return p1[1] == p2[1] and bool(edges(p1)[1] & edges(p2)[1])

    def smallest(pt: tuple[float, float]) -> Box | None:
        ys, xs = column[pt[0]], row[pt[1]]
        below = [(pt[0], y) for y in ys[bisect.bisect_right(ys, pt[1]) :]]
        right = [(x, pt[1]) for x in xs[bisect.bisect_right(xs, pt[0]) :]]
        for below_pt in below:
            if not connects(pt, below_pt):
                continue
            for right_pt in right:
                if not connects(pt, right_pt):
                    continue
                corner = (right_pt[0], below_pt[1])
                if corner in intersections and connects(corner, right_pt) and connects(corner, below_pt):
                    return (pt[0], pt[1], corner[0], corner[1])
        return None

    return [cell for cell in map(smallest, points) if cell is not None]


def _bbox(edge: dict[str, Any]) -> tuple[float, float, float, float]:
    return (edge["x0"], edge["top"], edge["x1"], edge["bottom"])


def _box_of(cells: Sequence[Sequence[float]]) -> Box:
    return (min(c[0] for c in cells), min(c[1] for c in cells), max(c[2] for c in cells), max(c[3] for c in cells))


# -- the checks ------------------------------------------------------------------------------------


def grid_table(cells: Sequence[Box], lines: Sequence[Line], page: int, goes_on: bool = False) -> Table | None:
    """The table these cells make, or None when the grid does not hold its text exactly. One
    row is no table (a letterhead's boxes, a form's one line of fields) unless ``goes_on``: the
    page before ended with a table, and a page break can leave its last row alone."""
    box = _box_of(cells)
    index = _CellIndex(cells)
    if nested(cells, index):
        return None
    placed = [(ln, within) for ln in lines if (within := _centred_in(ln.glyphs, box))]
    inside = [ln for ln, _ in placed]
    if any(crosses_box(ln, box) for ln in inside) or _row_goes_on(inside, lines, box):
        return None
    where: dict[int, int] = {}  # id(glyph) → cell
    for _, within in placed:
        for g in within:  # its other glyphs lie outside the box: the line crosses it (checked above)
            homes = index.containing(_centre(g))
            if len(homes) != 1:
                return None  # in no cell (a partial grid) or in several (nested cells)
            where[id(g)] = homes[0]
    if any(word_crosses_rule(ln, where) for ln in inside):
        return None
    rows, row_boxes = _rows(cells, inside, where)
    if len(rows) < (1 if goes_on else 2) or sum(any(r[c] for r in rows) for c in range(len(rows[0]))) < 2:
        return None
    return make_table(rows, row_boxes, box, inside, page, ruled=True)


class _CellIndex:
    """Cells bucketed on a coarse grid, so a point is tested against a few cells only."""

    _STEP = 24.0

    def __init__(self, cells: Sequence[Box]) -> None:
        self.cells = cells
        self.buckets: dict[tuple[int, int], list[int]] = {}
        for n, (x0, top, x1, bottom) in enumerate(cells):
            for bx in range(int((x0 - _NEAR) // self._STEP), int((x1 + _NEAR) // self._STEP) + 1):
                for by in range(int((top - _NEAR) // self._STEP), int((bottom + _NEAR) // self._STEP) + 1):
                    self.buckets.setdefault((bx, by), []).append(n)

    def containing(self, point: tuple[float, float], slack: float = _NEAR) -> list[int]:
        x, y = point
        near = self.buckets.get((int(x // self._STEP), int(y // self._STEP)), [])
        cells = self.cells
        return [  # _within, written out: asked of every glyph in a grid
            n for n in near if (c := cells[n])[0] - slack <= x <= c[2] + slack and c[1] - slack <= y <= c[3] + slack
        ]


def nested(cells: Sequence[Box], index: _CellIndex | None = None) -> bool:
    """One cell contains another's centre: a frame around a drawing, not a grid."""
    index = index or _CellIndex(cells)
    return any(len(index.containing(((c[0] + c[2]) / 2, (c[1] + c[3]) / 2), slack=-_NEAR)) > 1 for c in cells)


def crosses_box(line: Line, box: Box) -> bool:
    """A line with glyphs both inside the box and beyond its left or right edge."""
    return any(g.x1 < box[0] - _NEAR or g.x0 > box[2] + _NEAR for g in line.ink())


def _row_goes_on(inside: Sequence[Line], lines: Sequence[Line], box: Box) -> bool:
    """Part of a line inside the box and part of it (cut off at a wide gap) outside."""
    rows = {ln.row for ln in inside}
    taken = {id(ln) for ln in inside}
    return any(ln.row in rows and id(ln) not in taken and box[1] <= (ln.top + ln.bottom) / 2 <= box[3] for ln in lines)


def word_crosses_rule(line: Line, where: dict[int, int]) -> bool:
    return any(len({where.get(id(g)) for g in word}) > 1 for word in line.words())


def _centre(g: Glyph) -> tuple[float, float]:
    return ((g.x0 + g.x1) / 2, (g.top + g.bottom) / 2)


def _centred_in(glyphs: Sequence[Glyph], box: Box) -> list[Glyph]:
    """The ink glyphs (spaces left out) whose centre is within the box (_within, written out)."""
    left, top, right, bottom = box[0] - _NEAR, box[1] - _NEAR, box[2] + _NEAR, box[3] + _NEAR
    return [
        g for g in glyphs
        if g.text != " " and left <= (g.x0 + g.x1) / 2 <= right and top <= (g.top + g.bottom) / 2 <= bottom
    ]  # fmt: skip


def _within(point: tuple[float, float], box: Sequence[float], slack: float = _NEAR) -> bool:
    return box[0] - slack <= point[0] <= box[2] + slack and box[1] - slack <= point[1] <= box[3] + slack


# -- cells into rows -------------------------------------------------------------------------------


def _rows(cells: Sequence[Box], lines: Sequence[Line], where: dict[int, int]) -> tuple[list[list[str]], list[Box]]:
    """Cells grouped into rows by their top and into columns by their left edge, each holding
    the text of the glyphs inside it; and each row's box. A ruled band that holds several rows
    of values (rules every few rows, as statistical tables draw them) is cut into those rows."""
    tops = sorted({round(c[1]) for c in cells})
    lefts = sorted({round(c[0]) for c in cells})
    parts: dict[int, list[tuple[Line, list[Glyph]]]] = {}
    for line in lines:
        mine: dict[int, list[Glyph]] = {}
        for g in line.ink():
            mine.setdefault(where[id(g)], []).append(g)
        for n, glyphs in mine.items():
            parts.setdefault(n, []).append((line, glyphs))
    bands: list[dict[int, list[tuple[Line, list[Glyph]]]]] = [{} for _ in tops]
    boxes: list[Box | None] = [None] * len(tops)
    for n, cell in enumerate(cells):
        row = tops.index(round(cell[1]))
        bands[row][lefts.index(round(cell[0]))] = parts.get(n, [])
        box = boxes[row]
        boxes[row] = cell if box is None else (min(box[0], cell[0]), box[1], max(box[2], cell[2]), max(box[3], cell[3]))
    out_rows: list[list[str]] = []
    out_boxes: list[Box] = []
    for band, box in zip(bands, boxes, strict=True):
        if box is None:
            continue
        for cells_text, row_box in _band_rows(band, len(lefts), box):
            if any(cells_text):
                out_rows.append(cells_text)
                out_boxes.append(row_box)
    return out_rows, out_boxes


def _band_rows(band: dict[int, list[tuple[Line, list[Glyph]]]], width: int, box: Box) -> list[tuple[list[str], Box]]:
    """One ruled band as table rows: one row, or one per text row when every filled cell holds
    the same number of text rows on the same baselines and most of those cells hold only values
    (figures): wrapped text in two cells never looks like that, a block of figures does."""
    lines = {col: _text_rows(parts) for col, parts in band.items() if any(gs for _, gs in parts)}
    whole = [cell_text(band.get(col, [])) for col in range(width)]
    counts = {len(rows) for rows in lines.values()}
    if len(lines) < 2 or len(counts) != 1 or counts == {1}:
        return [(whole, box)]
    texts = {col: [cell_text(r) for r in rows] for col, rows in lines.items()}
    if 2 * sum(all(_numeric(t) for t in column) for column in texts.values()) < len(texts):
        return [(whole, box)]
    first = next(iter(lines.values()))
    for rows in lines.values():
        for mine, theirs in zip(rows, first, strict=True):
            mid = (mine[0][0].top + mine[0][0].bottom) / 2
            if not theirs[0][0].top - _NEAR <= mid <= theirs[0][0].bottom + _NEAR:
                return [(whole, box)]
    split: list[tuple[list[str], Box]] = []
    for i in range(counts.pop()):
        parts = [part for rows in lines.values() for part in rows[i]]
        top, bottom = min(ln.top for ln, _ in parts), max(ln.bottom for ln, _ in parts)
        split.append(([texts[col][i] if col in texts else "" for col in range(width)], (box[0], top, box[2], bottom)))
    return split


def _text_rows(parts: Sequence[tuple[Line, list[Glyph]]]) -> list[list[tuple[Line, list[Glyph]]]]:
    """A cell's pieces of lines grouped by baseline, top to bottom."""
    rows: list[list[tuple[Line, list[Glyph]]]] = []
    for part in sorted((p for p in parts if p[1]), key=lambda p: p[0].top):
        first = rows[-1][0][0] if rows else None
        if first is not None and first.top <= (part[0].top + part[0].bottom) / 2 <= first.bottom:
            rows[-1].append(part)
        else:
            rows.append([part])
    return rows


def cell_text(parts: Sequence[tuple[Line, list[Glyph]]]) -> str:
    """The text of some glyphs of some lines, in line order, with the lines' own spacing; a
    word hyphenated at a line end is joined."""
    out = ""
    hyphenated = False
    for line, glyphs in _in_rows([(ln, gs) for ln, gs in parts if gs]):
        first, last = line.glyphs.index(glyphs[0]), line.glyphs.index(glyphs[-1])
        text = glyphs_text(line.glyphs[first : last + 1])
        out = out + text if hyphenated or not out else f"{out} {text}"
        hyphenated = line.hyphen and glyphs[-1] is line.ink()[-1]
    return out


def _in_rows(parts: list[tuple[Line, list[Glyph]]]) -> list[tuple[Line, list[Glyph]]]:
    """Top to bottom by baseline (tops of one row differ a little), and along one in the way its
    script reads: from the left, or from the right where it is mostly right-to-left."""
    out = []
    for row in _text_rows(parts):
        if len(row) > 1 and mostly_rtl([ln.text for ln, _ in row]):
            row.sort(key=lambda p: -p[0].x1)
        else:
            row.sort(key=lambda p: p[0].x0)
        out += row
    return out


def make_table(
    rows: list[list[str]], row_boxes: list[Box], box: Box, lines: Sequence[Line], page: int, ruled: bool
) -> Table:
    top = min((ln.top for ln in lines), default=0.0)
    header = header_rows(rows, [ln for ln in lines if ln.top <= top + 1])
    index = min((ln.index for ln in lines), default=0)
    return Table(page, rows, *box, header_rows=header, index=index, ruled=ruled, lines=list(lines), row_boxes=row_boxes)


# -- header rows -----------------------------------------------------------------------------------


def _numeric(cell: str) -> bool:
    return bool(re.fullmatch(r"[-+$€£(]?[\d.,%]+[)%]?", cell.replace(" ", ""))) if cell else False


def header_rows(rows: list[list[str]], first_lines: Sequence[Line] = ()) -> int:
    """A first row is a header when it is complete text over columns whose body is numeric,
    or text over a body that repeats none of it, or set bold over a body that is not
    (detected, not assumed)."""
    first, body = rows[0], rows[1:]
    filled = [c for c in first if c]
    # A cell merged across columns leaves the others empty: most, not all, must hold text.
    if len(filled) < max(2, 0.6 * len(first)) or any(_numeric(c) for c in filled):
        return 0
    if first_lines and all(ln.bold for ln in first_lines):
        return 1
    columns = range(len(first))
    numeric_below = any(first[c] and all(_numeric(r[c]) for r in body if c < len(r) and r[c]) for c in columns)
    return 1 if numeric_below or all(r != first for r in body) else 0
