"""PDFium's lines → the parser's lines (pure geometry on glyphs).

PDFium follows the content stream: it joins runs that only share a baseline (two columns, two
captions side by side, the cells of a table row, a footer with a page number at each end), and
it does not break the line after a line-end hyphen it reports as U+FFFE. Here each PDFium line
is cut where the baseline jumps back to the left (a new visual line) and where a gap between
glyphs is far wider than the line's word spaces (pdfminer's ``char_margin`` idea).
"""

from __future__ import annotations

import itertools
import operator
import statistics
from collections import Counter

from parsegate.parsers.pdf.accents import compose_accents
from parsegate.parsers.pdf.layout import Glyph, Line, Style
from parsegate.parsers.pdf.text import (
    HYPHEN_MARKS,
    has_garbage,
    has_rtl,
    is_garbage,
    is_hyphen_mark,
    is_mark,
    normalize,
    script,
    swapped_lam_alef,
)

_MIN_SPLIT = 1.0  # ems: no gap narrower than this ever cuts a line
_ALWAYS_SPLIT = 2.5  # ems: a gap this wide always cuts
_OVER_WORD_GAPS = 2.0  # between the two: cut when this many times the line's median word space
_SPACE = 0.15  # ems: glyphs further apart than this are separate words
_PROSE_IN_LISTING = 0.1  # share of a listing line's glyphs that may be letters in a text font


def build_lines(runs: list[list[Glyph]], page: int) -> tuple[list[Line], int]:
    """The page's lines in stream order, and how many were dropped as unreadable glyphs."""
    lines: list[Line] = []
    dropped = 0
    for row, (run, ink) in enumerate(_rejoin_runs([compose_accents(run) for run in runs])):
        if _sideways(ink):
            # Text set across the page's direction (a rotated label, a margin note): one
            # line, as PDFium has it; cutting it at "baseline jumps" would cut every glyph.
            line = _line(run, page, row)
            if line is not None and line.text:
                line.sideways = True
                lines.append(line)
            continue
        for visual in _visual_lines(run):
            for fragment in _fragments(visual):
                line = _line(fragment, page, row)
                if line is None:
                    dropped += 1
                elif line.text:
                    lines.append(line)
    return _attach_marks(lines), dropped


def _rejoin_runs(runs: list[list[Glyph]]) -> list[tuple[list[Glyph], list[Glyph]]]:
    """PDFium breaks its line where a run of small raised type ends (the numerator of a fraction
    set as "¹⁄₄", a superscript): the next run goes on on the same baseline, touching it. Such
    runs are one line again. A lone mark or two (a footnote's number) is _attach_marks' to place,
    with a space. Each run with its ink (its glyphs but the spaces), found once."""
    out: list[tuple[list[Glyph], list[Glyph]]] = []
    for run in runs:
        ink = _ink(run)
        if out and _touching(out[-1][1], ink):
            out[-1][0].extend(run)
            out[-1][1].extend(ink)
        elif out and _after_mark(out[-1][1], ink):
            out[-1][0].extend([_space(out[-1][0][-1]), *run])
            out[-1][1].extend(ink)
        else:
            out.append((list(run), ink))
    return out


def _after_mark(a: list[Glyph], b: list[Glyph]) -> bool:
    """PDFium breaks its line after a note's mark set small and raised too ("directory⁹ can be
    used"): the next run goes on a word space to the right, on the baseline of the words before
    the mark. Read apart, the rest of the line was a block of its own, read after the paragraph.
    ``a`` and ``b``: the two runs' ink."""
    if len(b) < 3 or _sideways(a) or _sideways(b):
        return False
    k = len(a) - 1
    while k >= 0 and a[k].text in _NOTE_MARKS:
        k -= 1
    if not 0 <= k < len(a) - 1 or len(a) - 1 - k > 3:
        return False  # no mark at the run's end, or nothing before it
    base, p, g = a[k], a[-1], b[0]
    em = max(base.style.size, g.style.size, 1.0)
    raised = all(_small_raised(m, base) for m in a[k + 1 :])
    return raised and abs(g.bottom - base.bottom) < 0.3 * em and 0 <= g.x0 - p.x1 < _MIN_SPLIT * em


def _touching(a: list[Glyph], b: list[Glyph]) -> bool:
    """``a`` and ``b``: two runs' ink."""
    if len(a) < 3 or len(b) < 3 or _sideways(a) or _sideways(b):
        return False
    p, g = a[-1], b[0]
    em = max(p.style.size, g.style.size, 1.0)
    overlap = min(p.bottom, g.bottom) - max(p.top, g.top)
    return overlap > 0 and _distance(p, g) < _SPACE * em and abs(g.bottom - a[-2].bottom) < 0.3 * em


def _attach_marks(lines: list[Line]) -> list[Line]:
    """A footnote mark or superscript the content stream set apart (a line of one or two small
    glyphs) joins the line it touches on the left or right."""
    marks = [ln for ln in lines if len(ln.text) <= 2 and not ln.sideways]
    if not marks:
        return lines
    by_height: dict[int, list[int]] = {}  # lines by 10-pt band of their top, for a near lookup
    for n, line in enumerate(lines):
        by_height.setdefault(int(line.top // 10), []).append(n)
    gone: set[int] = set()
    for mark in marks:
        band = int(mark.top // 10)
        near = [n for b in (band - 2, band - 1, band, band + 1) for n in by_height.get(b, ())]
        for n in near:
            line = lines[n]
            if line is mark or id(line) in gone or line.size <= mark.size or len(line.text) <= 2:
                continue
            beside = min(abs(line.x0 - mark.x1), abs(mark.x0 - line.x1)) <= 0.3 * line.size
            level = line.top - 0.5 * line.size <= mark.top and mark.bottom <= line.bottom + 0.25 * line.size
            if beside and level:
                # A space between them, as PDFium's text has a line break: "1 It is assumed" for a
                # note's mark, "patterns 1" for a reference to it ("patterns1" is no word a search
                # finds, and "10⁶" run together reads as 106).
                first, second = (mark, line) if mark.x1 <= line.x0 + 1 else (line, mark)
                gap = [] if " " in (first.glyphs[-1].text, second.glyphs[0].text) else [_space(first.glyphs[-1])]
                glyphs = first.glyphs + gap + second.glyphs
                joined = _line(glyphs, line.page, line.row)
                if joined is not None:
                    lines[n] = joined
                    gone.add(id(mark))
                break
    return [ln for ln in lines if id(ln) not in gone]


def _sideways(ink: list[Glyph]) -> bool:
    """``ink``: a run's glyphs but its spaces."""
    if len(ink) < 3 or abs(ink[-1].x0 - ink[0].x0) > abs(ink[-1].top - ink[0].top):
        return False  # most lines: they run across more than down
    across = sum(abs(b.x0 - a.x0) for a, b in itertools.pairwise(ink))
    down = sum(abs(b.top - a.top) for a, b in itertools.pairwise(ink))
    return down > 3 * across


def _ink(glyphs: list[Glyph]) -> list[Glyph]:
    return [g for g in glyphs if g.text != " "]


def _visual_lines(run: list[Glyph]) -> list[list[Glyph]]:
    """Cut where the next glyph sits on a lower or higher baseline and back to the left."""
    out: list[list[Glyph]] = [[]]
    prev: Glyph | None = None
    for g in run:
        # A line-end hyphen ends its line; a combining mark (a vowel sign, tanween) sits above
        # or below its letter: neither starts a line.
        if g.text not in _NO_BASELINE and not is_mark(g.text):
            if prev is not None and _new_baseline(prev, g):
                out.append([])
            prev = g
        out[-1].append(g)
    return [v for v in out if any(g.text != " " for g in v)]


_NO_BASELINE = frozenset((" ", *HYPHEN_MARKS))  # glyphs that never start a visual line


def _new_baseline(prev: Glyph, g: Glyph) -> bool:
    # The two overlap vertically (min of the bottoms below max of the tops), written out: this
    # runs for every glyph of a page.
    if (prev.bottom if prev.bottom < g.bottom else g.bottom) > (prev.top if prev.top > g.top else g.top):
        return False  # superscripts, subscripts and inline formulas overlap their line
    em = max(prev.style.size, g.style.size, 1.0)
    far = abs((g.top + g.bottom) - (prev.top + prev.bottom)) / 2 > em
    return g.x0 < prev.x0 or far


def _fragments(glyphs: list[Glyph]) -> list[list[Glyph]]:
    ink = [g for g in _ink(glyphs) if not is_mark(g.text)]  # marks sit over their letters
    if len(ink) < 2:
        return [glyphs]
    em = _em(ink)
    gaps = _run_gaps(ink, list(map(_distance, ink, ink[1:])))
    if max(gaps) < _MIN_SPLIT * em:
        return [glyphs]  # most lines: no gap anywhere near wide enough
    words = [gap for gap in gaps if gap > _SPACE * em]
    typical = statistics.median(words) if len(words) >= 3 else 0.0
    cuts = {ink[n + 1].index for n, gap in enumerate(gaps) if _wide(gap, em, typical)}
    if not cuts:
        return [glyphs]
    out: list[list[Glyph]] = [[]]
    for g in glyphs:
        if g.index in cuts and g.text != " " and _ink(out[-1]):
            out.append([])
        out[-1].append(g)
    return out


def _run_gaps(ink: list[Glyph], gaps: list[float]) -> list[float]:
    """The gaps, with each one where the script changes measured between the two runs' boxes:
    a number or a Latin word in right-to-left text is read the other way, so the glyphs either
    side of the change are the far ends of their runs (``-2-5 استاندارد``: the 5 and the alef
    are 26 pt apart, the runs 4 pt)."""
    runs: list[tuple[int, int]] = []
    start, current = 0, ""
    for n, g in enumerate(ink):
        kind = script(g.text)
        if kind and current and kind != current:
            runs.append((start, n))
            start = n
        current = kind or current
    if not runs:
        return gaps
    runs.append((start, len(ink)))
    out = list(gaps)
    for (a0, a1), (b0, b1) in itertools.pairwise(runs):
        left, right = ink[a0:a1], ink[b0:b1]
        ax0, ax1 = min(g.x0 for g in left), max(g.x1 for g in left)
        bx0, bx1 = min(g.x0 for g in right), max(g.x1 for g in right)
        out[a1 - 1] = max(bx0 - ax1, ax0 - bx1, 0.0)
    return out


def _em(ink: list[Glyph]) -> float:
    """The line's em: its largest type size (glyph height where PDFium reports no size)."""
    size = max(map(_SIZE, ink))
    return size if size >= 1.0 else max(max(g.bottom - g.top for g in ink), 1.0)


def _distance(a: Glyph, b: Glyph) -> float:
    """Horizontal space between two glyphs, whichever way the text runs."""
    return max(b.x0 - a.x1, a.x0 - b.x1, 0.0)


def _wide(gap: float, em: float, typical: float) -> bool:
    if gap < _MIN_SPLIT * em:
        return False
    return gap >= _ALWAYS_SPLIT * em or typical == 0.0 or gap >= _OVER_WORD_GAPS * typical


# A glyph's fields read in C (map), not in a generator: _line runs over every glyph of a page.
_STYLE, _X0, _TOP, _X1, _BOTTOM, _INDEX, _TEXT, _SIZE = map(
    operator.attrgetter, ("style", "x0", "top", "x1", "bottom", "index", "text", "style.size")
)


def _line(glyphs: list[Glyph], page: int, row: int) -> Line | None:
    """None when the glyphs are mostly unreadable (a font without a ToUnicode map)."""
    ink = _ink(glyphs)
    garbage = has_garbage("".join(map(_TEXT, ink)))
    if garbage and sum(is_garbage(g.text) for g in ink) * 2 > len(ink):
        return None
    hyphen = is_hyphen_mark(ink[-1].text)
    text = normalize(_text(glyphs, garbage))
    # Unreadable glyphs take no part in the line's box and style, except a leading bullet.
    real = [
        g for n, g in enumerate(ink)
        if (n == 0 or not garbage or not is_garbage(g.text)) and g.x1 > g.x0 and g.bottom > g.top
    ] or ink  # fmt: skip
    styles = list(map(_STYLE, real))
    counts = Counter(map(id, styles))  # by identity: styles are interned by the read step
    seen: dict[int, Style] = dict(zip(map(id, styles), styles, strict=True))
    style = seen[max(counts, key=counts.__getitem__)]
    same = sum(n for key, n in counts.items() if _alike(seen[key], style))
    # A listing's line is set in a monospaced font; a symbol or a line number from another font
    # may stand in it, a word of prose may not (a path or a URL quoted in a sentence).
    mono = any(s.mono for s in seen.values())
    prose = sum(g.text.isalpha() and not g.style.mono for g in real) if mono else 0
    return Line(
        page=page,
        text=text,
        x0=min(map(_X0, real)),
        top=min(map(_TOP, real)),
        x1=max(map(_X1, real)),
        bottom=max(map(_BOTTOM, real)),
        style=style,
        uniform=same >= 0.9 * len(real),
        index=min(map(_INDEX, ink)),
        row=row,
        hyphen=hyphen,
        listing=mono and prose <= _PROSE_IN_LISTING * len(real),
        glyphs=glyphs,
    )


def cut_line(line: Line, at: int) -> tuple[Line, Line] | None:
    """The line cut before its glyph ``at`` (a run-in heading and the rest of its paragraph's
    first line), or None where either side would hold no text."""
    head, rest = line.glyphs[:at], line.glyphs[at:]
    first = _line(head, line.page, line.row) if _ink(head) else None
    second = _line(rest, line.page, line.row) if _ink(rest) else None
    return (first, second) if first is not None and second is not None else None


def glyphs_text(glyphs: list[Glyph]) -> str:
    """Some of a line's glyphs as text, read as a whole line's are (a table cell's share)."""
    return normalize(_text(glyphs, has_garbage("".join(g.text for g in glyphs))))


def _alike(a: Style, b: Style) -> bool:
    return a.size == b.size and a.bold == b.bold and a.italic == b.italic


def _text(glyphs: list[Glyph], garbage: bool) -> str:
    """The glyphs' text: a control code that leads the line is its bullet (a note mark when set
    small and raised), other control codes go; lam-alef put back in logical order; a space
    where scripts change between glyphs that do not touch (PDFium often leaves it out between
    right-to-left and left-to-right runs)."""
    plain = "".join(map(_TEXT, glyphs))
    marks = _note_marks(glyphs)
    if not garbage and not has_rtl(plain) and not marks:
        return plain
    ink = _ink(glyphs)
    lead = ink[0]
    out: list[str] = []
    prev: Glyph | None = None
    for g in glyphs:
        text = g.text
        if id(g) in marks:
            out.append(" ")
        if garbage and text != " " and is_garbage(text):
            text = _lead_mark(ink) if g is lead and len(ink) > 1 else ""
        elif prev is not None and text != " " and out and out[-1] != " ":
            if swapped_lam_alef(prev.text, text) and abs(prev.x0 - g.x0) < 0.01:
                out[-1], text = text, prev.text
            elif _script_change(prev, g):
                out.append(" ")
        out.append(text)
        if g.text != " ":
            prev = g
    return "".join(out)


_NOTE_MARKS = frozenset("0123456789*\u2020\u2021\u00a7\u00b6")  # digits, * † ‡ § ¶


def _note_marks(glyphs: list[Glyph]) -> set[int]:
    """The glyphs (by identity) that start a note's mark set small and raised right after a
    letter ("상해¹⁾", "claim²"): the mark is a word of its own, not the end of the letter's word."""
    out: set[int] = set()
    if len(set(map(id, map(_STYLE, glyphs)))) == 1:
        return out  # most lines: one style throughout (styles are interned by the read step)
    for prev, g in itertools.pairwise(glyphs):
        if g.text in _NOTE_MARKS and prev.text.isalpha() and _small_raised(g, prev):
            out.add(id(g))
    return out


def _small_raised(mark: Glyph, base: Glyph) -> bool:
    """Set smaller than the glyph it follows (or leads) and raised above its baseline: a note's
    mark or a superscript."""
    size = base.style.size
    return mark.style.size <= 0.8 * size and mark.bottom < base.bottom - 0.15 * size


def _lead_mark(ink: list[Glyph]) -> str:
    """What an unreadable glyph leading a line stands for: set smaller than the text after it and
    raised above its baseline, a note's mark (a dagger in a TeX font without a ToUnicode map
    comes out as U+0084), written "*" so that the line stays a footnote; else a bullet."""
    return "*" if _small_raised(ink[0], ink[1]) else "• "


def _script_change(a: Glyph, b: Glyph) -> bool:
    sa, sb = script(a.text), script(b.text)
    return bool(sa and sb and sa != sb) and _distance(a, b) > 0.05 * _em([a, b])


def rejoin(lines: list[Line]) -> list[Line]:
    """Fragments of one PDFium line put back together where their gap is no gutter of the page:
    a wide space in a justified line has text above or below it; a gutter between columns,
    captions or labels is empty for a few lines up and down."""
    rows: dict[int, list[Line]] = {}
    for line in lines:
        rows.setdefault(line.row, []).append(line)
    out: list[Line] = []
    for row in rows.values():
        if len(row) == 1:
            out.extend(row)
            continue
        row.sort(key=lambda ln: ln.index)
        merged = [row[0]]
        for line in row[1:]:
            prev = merged[-1]
            # A listing's line is one line however wide its spaces (a comment lined up in a
            # column, the line's number before it): its spacing is kept when it is built
            # (build._emit_code).
            symbols = not any(c.isalnum() for c in line.text)  # a listing's brace in a math font
            listing = (line.listing and prev.listing) or (prev.text.isdigit() and (line.listing or symbols))
            if _gutter(prev, line, lines) and not (listing and _apart(prev, line)):
                merged.append(line)
            else:
                space = [] if " " in (prev.glyphs[-1].text, line.glyphs[0].text) else [_space(prev.glyphs[-1])]
                joined = _line(prev.glyphs + space + line.glyphs, prev.page, prev.row)
                merged[-1] = joined if joined is not None else prev
        out.extend(merged)
    return sorted(out, key=lambda ln: ln.index)


def _space(after: Glyph) -> Glyph:
    return Glyph(" ", 0, 0, 0, 0, after.style, after.index)


def _gutter(a: Line, b: Line, lines: list[Line]) -> bool:
    if not _apart(a, b):
        return True  # not a pair of fragments of one visual line: keep them apart
    if max(b.x0 - a.x1, a.x0 - b.x1) < _MIN_SPLIT * max(a.size, b.size):
        return False  # a word space (PDFium's runs end where a text object does), never a gutter
    middle = (max(a.x0, b.x0) + min(a.x1, b.x1)) / 2
    y = (a.top + a.bottom) / 2
    reach = 4 * max(a.size, b.size)
    near = [ln for ln in lines if not _level(ln, a) and abs((ln.top + ln.bottom) / 2 - y) <= reach]
    return not any(ln.x0 < middle < ln.x1 for ln in near)


def _level(a: Line, b: Line) -> bool:
    return abs((a.top + a.bottom) - (b.top + b.bottom)) / 2 < 0.5 * max(a.size, b.size)


def _apart(a: Line, b: Line) -> bool:
    """Side by side on one baseline (a line-end hyphen also makes two fragments of one PDFium
    line, one below the other: those are no pair to rejoin)."""
    return _level(a, b) and (a.x1 <= b.x0 or b.x1 <= a.x0)


def join_lines(lines: list[Line]) -> str:
    """Lines into one text: a word hyphenated at a line end is joined."""
    text = lines[0].text
    for prev, line in itertools.pairwise(lines):
        if prev.hyphen:
            text += line.text  # PDFium's line-end hyphen mark: the hyphen is not part of the word
        elif text.endswith("-") and line.text[:1].islower() and text[-2:-1].isalnum():
            text += line.text  # a hyphen PDFium did not mark as a line-end one: a compound word
        else:
            text += " " + line.text
    return text
