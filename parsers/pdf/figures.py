"""Figure regions: images, and clusters of vector paths that draw something (curves, slanted
lines, several boxes), the way pymupdf4llm clusters graphics. Each region is one block for the
reading order, and the text inside it (labels, callouts) is figure text, out of the body flow.

A region whose text reads like prose is a framed or shaded text box, not a figure; one that
covers most of the page is a background; one that holds a heading the outline names is a
section (an admonition's icon and a listing's shading joined around it), not a figure.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parsegate.parsers.pdf.layout import Box, Figure, Line, Table, union

_JOIN = 6.0  # paths this close belong to one drawing
_MIN_SIDE = 24.0  # a smaller region is an icon, a bullet or a rule
_BACKGROUND = 0.6  # share of the page above which a region is a background
_PROSE_WORDS = 8  # a line with this many words is prose
_PROSE_SHARE = 0.3  # share of prose lines above which a region is a text box
_PICTURE = ("image", "curve")


@dataclass
class Mark:
    """An image or a path, as the figure finder sees it."""

    box: Box
    kind: str  # image, curve (Bézier or slanted), box (straight, not thin), rule (thin), dot


@dataclass
class _Cluster:
    box: Box
    marks: list[Mark] = field(default_factory=list)


def figure_regions(
    marks: Sequence[Mark],
    lines: Sequence[Line],
    tables: Sequence[Table],
    width: float,
    height: float,
    page: int,
    named: Callable[[Line], bool] = lambda _: False,
) -> list[Figure]:
    page_area = width * height
    kept = [
        m for m in marks
        if _area(m.box) < _BACKGROUND * page_area and not any(_inside(m.box, _table_box(t)) for t in tables)
    ]  # fmt: skip
    prose = [(ln.x0, ln.top, ln.x1, ln.bottom) for ln in lines if len(ln.text.split()) >= _PROSE_WORDS]
    figures = []
    for cluster in _clusters(kept, prose):
        box = cluster.box
        if box[2] - box[0] < _MIN_SIDE or box[3] - box[1] < _MIN_SIDE or _area(box) >= _BACKGROUND * page_area:
            continue
        kinds = Counter(m.kind for m in cluster.marks)
        inside = [ln for ln in lines if _inside((ln.x0, ln.top, ln.x1, ln.bottom), box, slack=2.0)]
        if not _drawing(kinds, inside) or _banner(box, inside) or any(named(ln) for ln in inside):
            continue
        index = min((ln.index for ln in inside), default=1 << 30)
        figures.append(Figure(page, *box, lines=inside, index=index))
    return figures


def _drawing(kinds: Counter[str], inside: Sequence[Line]) -> bool:
    """An image, curves (drawn, or dotted as TeX's picture mode does), or several boxes with
    labels only: a drawing. A frame or shaded box around prose is a text box."""
    if inside and sum(len(ln.text.split()) >= _PROSE_WORDS for ln in inside) > _PROSE_SHARE * len(inside):
        return False
    if kinds["image"] or kinds["curve"] >= 2 or kinds["dot"] >= 10:
        return True
    labels = not inside or statistics.median(len(ln.text.split()) for ln in inside) <= 3
    return kinds["box"] >= 4 and labels


def _banner(box: Box, inside: Sequence[Line]) -> bool:
    """One row of text on a strip hardly taller than the text: a shaded band or an image set
    behind a heading ("1  Introduction" on a coloured bar), whose text is the body's, not a
    figure's labels."""
    if not inside:
        return False
    top, bottom = min(ln.top for ln in inside), max(ln.bottom for ln in inside)
    size = max(ln.size for ln in inside)
    return bottom - top <= 1.5 * size and box[3] - box[1] <= 3 * size


def _clusters(marks: Sequence[Mark], prose: Sequence[Box] = ()) -> list[_Cluster]:
    """Marks joined while their boxes, grown by _JOIN, overlap (a sweep over x, then merged).
    Pictures (images, curves) are not joined to pictures where the joined box would take in
    prose that neither holds: an image's bounds hold the white around it, and two figures, one
    in each column, whose images reach across the gutter are two figures, not one region over
    both columns' text. (Rules and boxes still join: a frame drawn as four rules is one.)"""
    clusters: list[_Cluster] = []
    for mark in sorted(marks, key=lambda m: m.box[0]):
        grown = _grow(mark.box, _JOIN)
        alone = _Cluster(mark.box, [mark])
        hits = [c for c in clusters if _overlap(grown, c.box) and not _apart(c, alone, prose)]
        if not hits:
            clusters.append(alone)
            continue
        first = hits[0]
        first.marks.append(mark)
        first.box = union(first.box, mark.box)
        for other in hits[1:]:
            if _apart(first, other, prose):
                continue
            first.marks.extend(other.marks)
            first.box = union(first.box, other.box)
            clusters.remove(other)
    # Merging can make clusters that now overlap: repeat until none do.
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(clusters):
            for b in clusters[i + 1 :]:
                if _overlap(_grow(a.box, _JOIN), b.box) and not _apart(a, b, prose):
                    a.marks.extend(b.marks)
                    a.box = union(a.box, b.box)
                    clusters.remove(b)
                    merged = True
                    break
            if merged:
                break
    return clusters


def _apart(a: _Cluster, b: _Cluster, prose: Sequence[Box]) -> bool:
    """Both hold pictures, and the box holding both would hold a line of prose that neither holds."""
    if not any(m.kind in _PICTURE for m in a.marks) or not any(m.kind in _PICTURE for m in b.marks):
        return False
    joined = union(a.box, b.box)
    return any(_inside(ln, joined) and not _inside(ln, a.box) and not _inside(ln, b.box) for ln in prose)


def _table_box(t: Table) -> Box:
    return (t.x0, t.top, t.x1, t.bottom)


def _area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _grow(b: Box, by: float) -> Box:
    return (b[0] - by, b[1] - by, b[2] + by, b[3] + by)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(inner: Box, outer: Box, slack: float = 1.0) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )
