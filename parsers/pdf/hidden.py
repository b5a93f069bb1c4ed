"""Text a reader of the page cannot see: glyphs in an invisible render mode (3 or 7) that are not
over an image (over an image they are a scan's OCR layer, the page's words), glyphs painted with
a fully transparent colour, white glyphs over nothing drawn (white on a dark box or an image is
seen), and glyphs wholly outside the page. Such text is the classic way to put words into an
index that no person reads (an instruction to a model, keywords); it is kept out of chunks as
furniture with ``reason: "hidden"``, one piece a page, and a ``hidden_text`` warning says how
much and why. The gate's PDF reference finds such glyphs itself (quality_gates/references/pdf.py)
and takes out of its reference no more than it finds."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parsegate.parsers.pdf.layout import Box, Glyph
    from parsegate.parsers.pdf.read import RawPage

INVISIBLE, CLEAR, WHITE, OUTSIDE = "invisible render mode", "transparent colour", "white on nothing", "outside the page"


def hide(page: RawPage) -> None:
    """Moves the glyphs no reader sees out of ``page.runs`` into ``page.hidden`` (runs of them,
    each with its reason)."""
    width, height = page.width, page.height
    suspect = False
    for run in page.runs:
        for g in run:
            if g.style.ink or (g.text != " " and (g.x1 <= 0 or g.x0 >= width or g.bottom <= 0 or g.top >= height)):
                suspect = True
                break
        if suspect:
            break
    if not suspect:
        return
    images = page.images
    covers = [*images, *(d.box for d in page.drawings)]
    kept_runs = []
    for run in page.runs:
        kept: list[Glyph] = []
        hidden: list[Glyph] = []
        reason = why = ""
        for g in run:
            # a space has no box: it goes where the glyph before it went
            why = why if g.text == " " else _why(g, width, height, images, covers)
            if why:
                hidden.append(g)
                reason = reason or why
            else:
                kept.append(g)
        if any(g.text.strip() for g in kept):
            kept_runs.append(kept)
        if any(g.text.strip() for g in hidden):
            page.hidden.append((reason, hidden))
    page.runs = kept_runs


def _why(g: Glyph, width: float, height: float, images: list[Box], covers: list[Box]) -> str:
    ink = g.style.ink
    if g.x1 <= 0 or g.x0 >= width or g.bottom <= 0 or g.top >= height:
        return OUTSIDE
    if ink == INVISIBLE:
        return "" if _over(g, images) else INVISIBLE
    if ink == WHITE:
        return "" if _over(g, covers) else WHITE
    return ink  # CLEAR or ""


def _over(g: Glyph, boxes: list[Box]) -> bool:
    x, y = (g.x0 + g.x1) / 2, (g.top + g.bottom) / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)
