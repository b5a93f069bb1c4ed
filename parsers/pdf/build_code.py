"""A listing's text (pure geometry on glyphs): its line breaks kept, and its spacing: each word
starts in the column (in character widths) its glyphs stand at, so indentation, comments lined up
in a column and line numbers stay where they are."""

from __future__ import annotations

import itertools
import statistics

from parsegate.parsers.pdf.layout import Line
from parsegate.parsers.pdf.text import normalize


def listing_text(lines: list[Line]) -> str:
    left = min(ln.x0 for ln in lines)
    width = _char_width(lines)
    return "\n".join(_listing_row(ln, left, width) for ln in lines)


def _listing_row(line: Line, left: float, width: float) -> str:
    row = ""
    for word in line.words():
        column = round((min(g.x0 for g in word) - left) / width)
        row += " " * max(column - len(row), 1 if row else 0) + normalize("".join(g.text for g in word))
    if row.split() != line.text.split():  # glyphs the line's text reads otherwise (or none kept)
        row = " " * max(0, round((line.x0 - left) / width)) + line.text
    return row


def _char_width(lines: list[Line]) -> float:
    """The listing's advance: the usual step from one glyph's left edge to the next's."""
    steps = [
        b.x0 - a.x0
        for ln in lines
        for a, b in itertools.pairwise(ln.glyphs)
        if a.text != " " and b.text != " " and b.x0 > a.x0
    ]
    return statistics.median(steps) if steps else 0.6 * lines[0].size
