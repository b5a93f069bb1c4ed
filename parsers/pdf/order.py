"""Reading order: a recursive XY-cut over the page's blocks (pure geometry, no PDFium)."""

from __future__ import annotations

from parsers.pdf.layout import Line, Table

Block = Line | Table


def xy_cut(blocks: list[Block], depth: int = 0) -> list[Block]:
    """Recursive XY-cut: split at the widest horizontal gap, else at a vertical gutter
    (columns); where a few blocks (a title, a figure) span the gutter, cut the page into
    bands above and below them first."""
    if len(blocks) <= 1 or depth > 60:
        return sorted(blocks, key=lambda b: (b.top, b.x0))
    for axis in ("y", "x"):
        parts = _split(blocks, axis)
        if parts is not None:
            return [b for part in parts for b in xy_cut(part, depth + 1)]
    banded = _bands(blocks)
    if banded is not None:
        return [b for part in banded for b in xy_cut(part, depth + 1)]
    return sorted(blocks, key=lambda b: (b.top, b.x0))


def _extent(b: Block, axis: str) -> tuple[float, float]:
    return (b.top, b.bottom) if axis == "y" else (b.x0, b.x1)


def _split(blocks: list[Block], axis: str) -> list[list[Block]] | None:
    def lo(b: Block) -> float:
        return _extent(b, axis)[0]

    def hi(b: Block) -> float:
        return _extent(b, axis)[1]

    ordered = sorted(blocks, key=lo)
    best, best_gap, reach = None, 0.0, hi(ordered[0])
    min_gap = 6.0 if axis == "y" else 4.0
    for i in range(1, len(ordered)):
        gap = lo(ordered[i]) - reach
        if gap > min_gap and gap > best_gap:
            best, best_gap = i, gap
        reach = max(reach, hi(ordered[i]))
    return None if best is None else [ordered[:best], ordered[best:]]


def _bands(blocks: list[Block]) -> list[list[Block]] | None:
    """A gutter that only a few blocks cross: those blocks cut the region into bands."""
    left, right = int(min(b.x0 for b in blocks)), int(max(b.x1 for b in blocks)) + 1
    cover = [0] * (right - left + 1)
    for b in blocks:
        cover[int(b.x0) - left] += 1
        cover[min(len(cover) - 1, int(b.x1) - left + 1)] -= 1
    running, counts = 0, []
    for c in cover:
        running += c
        counts.append(running)
    tolerance = max(1, len(blocks) // 30)
    best: tuple[int, int] | None = None
    start = None
    for x, n in enumerate([*counts, tolerance + 1]):
        if n <= tolerance and 0 < x < len(counts) - 1:
            start = x if start is None else start
        elif start is not None:
            if x - start >= 4 and (best is None or x - start > best[1] - best[0]):
                best = (start, x)
            start = None
    if best is None:
        return None
    gutter = left + (best[0] + best[1]) / 2
    spanning = sorted((b for b in blocks if b.x0 < gutter < b.x1), key=lambda b: b.top)
    if not spanning or len(spanning) == len(blocks):
        return None
    rest = [b for b in blocks if not (b.x0 < gutter < b.x1)]
    parts: list[list[Block]] = []
    upper = float("-inf")
    for span in spanning:
        parts.append([b for b in rest if upper <= b.top < span.top])
        parts.append([span])
        upper = span.top
    parts.append([b for b in rest if b.top >= upper])
    return [p for p in parts if p]
