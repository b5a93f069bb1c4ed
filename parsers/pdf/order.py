"""Reading order of one page (pure geometry on boxes, no PDFium).

Lines are grouped into blocks first (a paragraph, a heading, a table, a figure), so that the gaps
between lines of a column never count as cuts. A recursive XY-cut then orders the blocks:

* a cut is a band or strip that no block crosses; between two lines of text it is no cut at all;
* where both a column gutter and a horizontal gap are possible, the order that agrees with
  PDFium's content stream wins (it is right on most born-digital files); with no say from the
  stream, columns win unless the horizontal gap is clearly wider than the gaps between
  paragraphs (two stacked two-column sections);
* where no cut is possible, blocks that cross a gutter (a title, a figure spanning columns) are
  masked, the rest is cut into columns, and the masked blocks cut the page into bands
  (XY-Cut++);
* where nothing works, the content stream decides.

Never worse than the text layer: where the result disagrees with the stream on most pairs of
blocks and no column was found, the page keeps the stream's order.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parsegate.parsers.pdf.layout import Figure, Line, Table

_STREAM_SAYS = 0.7  # share of votes with which the content stream decides between two cuts
_MIN_COLUMN_LINES = 3  # lines on each side of a gutter that make it evidence of columns
_PITCH = 1.35  # ems from line to line within a paragraph, at the most (a listing is spaced off)


@dataclass(eq=False)
class Block:
    x0: float
    top: float
    x1: float
    bottom: float
    index: int  # stream order: the smallest char index in it
    lines: list[Line] = field(default_factory=list)
    item: Table | Figure | None = None

    @property
    def size(self) -> float:
        return statistics.median(ln.size for ln in self.lines) if self.lines else 0.0

    @property
    def line_count(self) -> int:
        return len(self.lines) if self.lines else 3

    def add(self, line: Line) -> None:
        self.lines.append(line)
        self.x0, self.x1 = min(self.x0, line.x0), max(self.x1, line.x1)
        self.top, self.bottom = min(self.top, line.top), max(self.bottom, line.bottom)
        self.index = min(self.index, line.index)


def text_block(lines: Sequence[Line]) -> Block:
    first = lines[0]
    block = Block(first.x0, first.top, first.x1, first.bottom, first.index, [first])
    for line in lines[1:]:
        block.add(line)
    return block


def item_block(item: Table | Figure, lines: Sequence[Line] = ()) -> Block:
    return Block(item.x0, item.top, item.x1, item.bottom, item.index, list(lines), item)


# -- lines into blocks ---------------------------------------------------------------------------


def group_lines(lines: Sequence[Line], alone: Callable[[Line], bool] = lambda _: False) -> list[Block]:
    """Lines into blocks: each line joins the block right above it that it overlaps, in the
    same style, at the block's line spacing. A line ``alone`` says so (one the outline names
    as a heading) is a block of its own."""
    blocks: list[Block] = []
    open_blocks: list[Block] = []
    for line in sorted(lines, key=lambda ln: (ln.top, ln.x0)):
        open_blocks = [b for b in open_blocks if line.top - b.lines[-1].bottom < 3 * line.size]
        single = alone(line)
        fits = [] if single else [b for b in open_blocks if _continues(b, line) and not alone(b.lines[-1])]
        if fits:
            min(fits, key=lambda b: line.top - b.lines[-1].bottom).add(line)
            continue
        block = text_block([line])
        blocks.append(block)
        open_blocks.append(block)
    return blocks


def _continues(block: Block, line: Line) -> bool:
    last = block.lines[-1]
    code = block.lines[0].listing
    # A listing goes on with its lines, and with its braces or numbers set in another font.
    if code and not (line.listing or line.letterless):
        return False
    if not code and line.listing and not _runs_on(block, line):
        return False
    if not (code and line.letterless) and (abs(last.size - line.size) > 0.6 or last.style.bold != line.style.bold):
        return False
    if line.top < last.bottom - 0.3 * line.size:
        return False  # beside it, not below
    if len(block.lines) == 1 and (_side_heading(last, line) or _stray(last)):
        return False  # a stray period or comma (after a superscript) starts nothing below it
    pitch = line.top - last.top
    if len(block.lines) >= 2:
        usual = statistics.median(b.top - a.top for a, b in zip(block.lines, block.lines[1:], strict=False))
        if pitch > max(usual * 1.3, usual + 0.25 * line.size):
            return False
    elif pitch > 1.9 * max(line.size, last.size):  # small type on generous leading: 1.8 em
        return False
    overlap = min(last.x1, line.x1) - max(last.x0, line.x0)
    # Under it, or starting a little left of it (the line after an indented first line).
    return overlap > 0.5 * min(last.width, line.width) or -3 * line.size < line.x0 - last.x0 < 0.5 * line.size


def _runs_on(block: Block, line: Line) -> bool:
    """A line of prose that a path or a URL in typewriter type fills, or one of prose after
    such a line, goes on with its paragraph: at the paragraph's line spacing and left edge,
    after a line that introduces no listing. A listing stands apart, indented or spaced off."""
    first, last = block.lines[0], block.lines[-1]
    return (
        not first.listing
        and abs(line.x0 - block.x0) <= 0.5 * line.size
        # by baselines or tops, whichever a note's raised mark or a subscript leaves alone
        and min(line.top - last.top, line.bottom - last.bottom) <= _PITCH * max(line.size, last.size)
        and not last.text.endswith(":")
    )


def _stray(line: Line) -> bool:
    """A line that is only a period or a comma, left alone by a superscript or a fraction."""
    text = line.text.strip()
    return bool(text) and len(text) <= 2 and all(c in ".,;:" for c in text)


def _side_heading(first: Line, line: Line) -> bool:
    """A short line set wholly in italic above a line that is not: a side heading at the body's
    size (a manual's "Boots Self-Locking Nut" over its paragraph), which keeps its own block so
    that typography can weigh it as a heading. A long italic line, or one ending as a sentence or
    a clause does, is the paragraph's own first line."""
    if not first.uniform or not first.style.italic or line.style.italic:
        return False
    text = first.text.rstrip()
    return bool(text) and text[-1] not in ".,;:" and first.width < 0.7 * line.width


# -- the XY-cut ----------------------------------------------------------------------------------


@dataclass
class _Cutter:
    columns: bool = False  # a gutter with text on both sides was cut


def order_blocks(blocks: list[Block], rtl: bool = False) -> list[Block]:
    """The page's blocks in reading order; on a page read from the right (Arabic, Persian,
    Hebrew) columns and the cells of a row go from right to left: the cut runs on the page's
    mirror image."""
    if rtl:
        _mirror(blocks)
        try:
            return order_blocks(blocks)
        finally:
            _mirror(blocks)
    cutter = _Cutter()
    ordered = _cut(blocks, cutter, 0)
    if not cutter.columns and _agreement(ordered) < 0.5:
        return sorted(blocks, key=lambda b: b.index)  # never worse than the text layer
    return ordered


def _mirror(blocks: list[Block]) -> None:
    for b in blocks:
        b.x0, b.x1 = -b.x1, -b.x0


def _cut(blocks: list[Block], cutter: _Cutter, depth: int) -> list[Block]:
    if len(blocks) <= 1:
        return list(blocks)
    if depth > 60:
        return sorted(blocks, key=lambda b: b.index)
    rows = _gaps(blocks, "y")
    gutter = _widest(_gaps(blocks, "x"), _min_gutter(blocks))
    spanning: list[Block] = []
    if gutter is None:
        # No gutter runs clear through: mask the blocks that cross the likeliest one (XY-Cut++).
        gutter, spanning = _masked_gutter(blocks)
    parts: list[list[Block]] | None
    if gutter is not None and spanning:
        parts = _bands(blocks, spanning)
    elif gutter is not None:
        across = _cut_across(blocks, gutter, rows) if rows else None
        if across is None:
            left = [b for b in blocks if _left_of(b, gutter)]
            right = [b for b in blocks if not _left_of(b, gutter)]
            if min(sum(b.line_count for b in left), sum(b.line_count for b in right)) >= _MIN_COLUMN_LINES:
                cutter.columns = True
            parts = [left, right]
        else:
            parts = _split_rows(blocks, [across])  # stacked sections
    else:
        parts = _split_rows(blocks, rows) if rows else None  # one column: cut at every gap
    if parts is None or len(parts) < 2:
        return sorted(blocks, key=lambda b: b.index)
    return [b for part in parts for b in _cut(part, cutter, depth + 1)]


def _left_of(block: Block, gutter: float) -> bool:
    """On the gutter's left (by its centre: a block may lean over the gutter a little)."""
    return (block.x0 + block.x1) / 2 < gutter


def _gaps(blocks: list[Block], axis: str) -> list[tuple[float, float]]:
    """The empty bands (axis "y") or strips (axis "x") between the blocks, as (start, end).
    Blocks that touch vertically (a heading right above its paragraph) still leave a band."""
    spans = sorted((b.top, b.bottom) if axis == "y" else (b.x0, b.x1) for b in blocks)
    least = -0.5 if axis == "y" else 1.0
    out = []
    reach = spans[0][1]
    for lo, hi in spans[1:]:
        if lo - reach > least:
            out.append((reach, max(lo, reach)))
        reach = max(reach, hi)
    return out


def _min_gutter(blocks: list[Block]) -> float:
    sizes = [b.size for b in blocks if b.lines]
    return 0.6 * statistics.median(sizes) if sizes else 4.0


def _widest(gaps: list[tuple[float, float]], minimum: float) -> float | None:
    wide = [g for g in gaps if g[1] - g[0] >= minimum]
    if not wide:
        return None
    lo, hi = max(wide, key=lambda g: g[1] - g[0])
    return (lo + hi) / 2


def _split_rows(blocks: list[Block], cuts: list[tuple[float, float]]) -> list[list[Block]]:
    edges = sorted((lo + hi) / 2 for lo, hi in cuts)
    parts: list[list[Block]] = [[] for _ in range(len(edges) + 1)]
    for b in blocks:
        parts[sum(b.top >= e for e in edges)].append(b)
    return [p for p in parts if p]


def _cut_across(blocks: list[Block], gutter: float, rows: list[tuple[float, float]]) -> tuple[float, float] | None:
    """Both a gutter and horizontal gaps: the gap to cut across first (stacked sections), or
    None to read column by column. The content stream decides where it says: for each gap,
    the two orders disagree on the blocks above it right of the gutter against those below it
    left of the gutter. Where it does not say, a gap clearly wider than the gaps between
    paragraphs is a section break."""
    decided = False
    best: tuple[float, float, float, tuple[float, float]] | None = None
    for gap in rows:
        y = (gap[0] + gap[1]) / 2
        early = [b for b in blocks if b.bottom <= y and not _left_of(b, gutter)]
        late = [b for b in blocks if b.top >= y and _left_of(b, gutter)]
        votes = [a.index < b.index for a in early for b in late if a.index != b.index]
        if not votes:
            continue
        decided = True
        share = sum(votes) / len(votes)
        if share >= _STREAM_SAYS and (best is None or (share, len(votes), gap[1] - gap[0]) > best[:3]):
            best = (share, len(votes), gap[1] - gap[0], gap)
    if best is not None:
        return best[3]
    if decided:
        return None
    widest = max(rows, key=lambda g: g[1] - g[0])
    y = (widest[0] + widest[1]) / 2
    sides = any(b.bottom <= y and not _left_of(b, gutter) for b in blocks) and any(
        b.top >= y and _left_of(b, gutter) for b in blocks
    )
    return widest if sides and _section_gap(blocks, widest) else None


def _section_gap(blocks: list[Block], gap: tuple[float, float]) -> bool:
    """A horizontal gap clearly wider than the gaps between the paragraphs of the columns."""
    size = statistics.median(b.size for b in blocks if b.lines) if any(b.lines for b in blocks) else 10.0
    inner = []
    for a in blocks:
        below = [b.top - a.bottom for b in blocks if b is not a and b.top >= a.bottom - 1 and _overlap_x(a, b) > 0]
        if below:
            inner.append(min(below))
    usual = statistics.median(inner) if inner else 0.0
    return gap[1] - gap[0] >= max(1.5 * usual, 1.5 * size)


def _overlap_x(a: Block, b: Block) -> float:
    return min(a.x1, b.x1) - max(a.x0, b.x0)


def _masked_gutter(blocks: list[Block]) -> tuple[float | None, list[Block]]:
    """XY-Cut++'s mask: the gutter crossed by the fewest blocks, with columns side by side on
    either side of it, and the blocks that reach well across it (a title, a figure or a table
    across the columns). A block that only leans over it (a figure a little too wide for its
    column) is not masked: it stays in its column."""
    best: tuple[tuple[int, int, float], float] | None = None
    for level, lo, hi in _sparse_strips(blocks):
        gutter = (lo + hi) / 2
        left = [b for b in blocks if b.x1 <= gutter]
        right = [b for b in blocks if b.x0 >= gutter]
        if not any(min(a.bottom, b.bottom) > max(a.top, b.top) for a in left for b in right):
            continue
        score = (len(blocks) - len(left) - len(right), level, lo - hi)
        if best is None or score < best[0]:
            best = (score, gutter)
    if best is None:
        return None, []
    gutter = best[1]
    return gutter, sorted((b for b in blocks if _spans(b, gutter)), key=lambda b: b.top)


def _bands(blocks: list[Block], spanning: list[Block]) -> list[list[Block]]:
    """The masked blocks cut the region into bands above and below each of them."""
    rest = [b for b in blocks if b not in spanning]
    parts: list[list[Block]] = []
    upper = float("-inf")
    for span in spanning:
        middle = (span.top + span.bottom) / 2
        parts.append([b for b in rest if upper <= (b.top + b.bottom) / 2 < middle])
        parts.append([span])
        upper = middle
    parts.append([b for b in rest if (b.top + b.bottom) / 2 >= upper])
    return [p for p in parts if p]


def _spans(block: Block, gutter: float) -> bool:
    """Reaches across the gutter by a good part of its width on both sides."""
    return min(gutter - block.x0, block.x1 - gutter) > 0.15 * (block.x1 - block.x0)


def _sparse_strips(blocks: list[Block]) -> list[tuple[int, float, float]]:
    """Vertical strips (at least a gutter wide) that at most half of the blocks cross, as
    (how many blocks cross it at most, start, end)."""
    left, right = int(min(b.x0 for b in blocks)), int(max(b.x1 for b in blocks)) + 1
    cover = [0] * (right - left + 2)
    for b in blocks:
        cover[int(b.x0) - left] += 1
        cover[int(b.x1) - left + 1] -= 1
    counts = []
    running = 0
    for change in cover[:-1]:
        running += change
        counts.append(running)
    inner = counts[1:-1]
    minimum = _min_gutter(blocks)
    strips = []
    for level in range(min(inner, default=0), max(1, len(blocks) // 2) + 1):
        start = None
        for x, n in enumerate([*counts, level + 1]):
            if n <= level and 0 < x < len(counts) - 1:
                start = x if start is None else start
            elif start is not None:
                if x - start >= minimum:
                    strips.append((level, float(left + start), float(left + x)))
                start = None
    return strips


def _agreement(ordered: list[Block]) -> float:
    """Share of pairs of blocks, weighted by their lines, that the content stream orders alike."""
    concordant = total = 0.0
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            weight = a.line_count * b.line_count
            total += weight
            concordant += weight if a.index <= b.index else 0.0
    return concordant / total if total else 1.0
