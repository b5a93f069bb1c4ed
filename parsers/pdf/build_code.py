"""A listing's text (pure geometry on glyphs): its line breaks kept, and its spacing read from
the glyphs' columns, so indentation, comments lined up in a column and line numbers stay where
they are, and no space comes between glyphs in adjacent columns (PDFium puts one wherever a
narrow glyph's ink leaves a gap: ``console .log (add (3 , 5) ) ;``)."""

from __future__ import annotations

import itertools
import statistics

from parsegate.parsers.pdf.layout import Glyph, Line
from parsegate.parsers.pdf.text import normalize


def listing_text(lines: list[Line]) -> str:
    pitch = _pitch(lines)
    left = min((_centre(g) for ln in lines for g in ln.ink()), default=0.0)
    return "\n".join(_listing_row(ln, left, pitch) for ln in lines)


def _listing_row(line: Line, left: float, pitch: float) -> str:
    """The first glyph in its column from the listing's left; then as many spaces between two
    glyphs as the columns between them, counted from their centres (a monospaced font centres
    each glyph in its column; the count from one glyph to the next never drifts)."""
    ink = line.ink()
    if not ink:
        return line.text
    spaced = {id(b) for a, b in itertools.pairwise(line.glyphs) if a.text == " " and b.text != " "}
    row = " " * max(0, round((_centre(ink[0]) - left) / pitch))
    run = [ink[0]]
    for a, b in itertools.pairwise(ink):
        gap = round((_centre(b) - _centre(a)) / pitch) - 1
        if not (a.style.mono and b.style.mono):
            # Beside a glyph of another font (a note's mark, a callout, a word of prose) the
            # columns say nothing: the text layer's space stands.
            gap = max(gap, 1 if id(b) in spaced else 0)
        if gap > 0:
            row += normalize("".join(g.text for g in run)) + " " * gap
            run = []
        run.append(b)
    row += normalize("".join(g.text for g in run))
    if "".join(row.split()) != "".join(line.text.split()):  # glyphs the line's text reads otherwise
        row = " " * max(0, round((ink[0].x0 - min(g.x0 for g in ink)) / pitch)) + line.text
    return row


def _centre(g: Glyph) -> float:
    return (g.x0 + g.x1) / 2


def _pitch(lines: list[Line]) -> float:
    """The listing's column width: the usual step between the centres of two glyphs with no
    space between them (a line of code can hold more spaces than glyphs side by side)."""
    steps = [
        _centre(b) - _centre(a)
        for ln in lines
        for a, b in itertools.pairwise(ln.glyphs)
        if a.text != " " and b.text != " " and _centre(b) > _centre(a)
    ]
    return statistics.median(steps) if steps else 0.6 * lines[0].size
