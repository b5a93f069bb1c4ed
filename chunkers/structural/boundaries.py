"""Where a span may be cut, from strong boundaries to weak, and the descent through them.

A unit that is alone over budget is cut at the strongest level of boundary it has:
a blank line, a line break that ends a paragraph in practice, a sentence end (strong:
a capital or digit follows; weak: lower case follows, or the next sentence leans on
this one), a clause mark, a comma, a word, and only then between tokens. A piece
still over budget descends to the next level on its own; its neighbours stay whole.
Every piece records the level of the boundary before it, so the packer can choose
the strongest cut in reach (packing.py).
"""

from __future__ import annotations

import bisect
import re
import sys
from collections.abc import Callable
from enum import IntEnum
from functools import lru_cache
from typing import NamedTuple

from parsegate.chunkers.structural.sentences import STRONG, boundaries, continues_previous, mentions_exception
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.model import trim_span
from parsegate.parsers.signals.page_breaks import flows_across, page_break_inside, page_bridge


class Level(IntEnum):
    ELEMENT = 0  # between two elements (paragraphs, items, rows)
    BLANK = 1  # a blank line inside one element
    LINE = 2  # a line break that ends a paragraph in practice
    SENTENCE = 3  # a sentence end before a capital, a digit, an opening mark, CJK
    WEAK = 4  # a sentence end before lower case
    BONDED = 5  # a sentence end before one that leans on it ("However", "It"), or after "Yes."
    CLAUSE = 6  # ; : — and table cells
    COMMA = 7
    WORD = 8
    TOKEN = 9  # between tokens: a word alone over budget


class Piece(NamedTuple):
    start: int
    end: int
    level: Level  # of the boundary before it


class Cut(NamedTuple):
    end: int  # the piece before ends here
    start: int  # the piece after starts here


Finder = Callable[[str, int, int], list[Cut]]

_BLANK = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)\s*")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_LINE_BREAK = re.compile(r"[ \t]*(?:(?:\r\n|\r|\n)[ \t]*)+")
_CLAUSE = re.compile(r"[;:](?=\s)|\s[—–]|—|\s-{1,2}(?=\s)|[；：]")
_COMMA = re.compile(r"[,،](?=\s)|[、，]")
_CELL = re.compile(r"\|(?!\s*$)|\t")
_ATOM = re.compile(r"`[^`\n]+`|<[A-Za-z/][^<>\n]*>|\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*\)|https?://[^\s<>()\[\]]+")
_ATOM_MARKS = ("`", "<", "](", "://")
_SPACE = re.compile(r"\s+")
# Hard-wrapped prose: a line break where the next line's first word would have fitted on
# this line was the writer's, not the wrapper's. Wrapped text has lines near its width that
# mostly break off mid-sentence; text with one paragraph per line has lines of every length,
# each ending its paragraph's last sentence; a list has short lines.
_WRAP_MIN_LINES = 3
_WRAP_MIN_WIDTH = 40  # characters: nobody wraps prose narrower than this
_WRAP_NEAR = 0.8
_WRAP_MID_SENTENCE = 0.5
_WRITER_ROOM = 0.75
# The wrap width is the length most lines stay within, not the longest line: a PDF's text
# layer joins two lines at a soft hyphen now and then, and such a line is far over the width.
_WIDTH_QUANTILE = 0.9
_SENTENCE_STOPS = frozenset(".!?:;。！？")


def blank_lines(text: str, start: int, end: int) -> list[Cut]:
    return [_cut(text, start, end, m.start(), m.end()) for m in _BLANK.finditer(text, start, end)]


def prose_blank_lines(text: str, start: int, end: int) -> list[Cut]:
    """Blank lines, except one inside a sentence (a page break in text taken from a PDF). Only
    prose: in code a blank line between `x = f(a)` and `y = g(b)` is a boundary. In escaped text
    (escaped_lines) two escaped line breaks in a row are its blank lines."""
    escaped = escaped_lines(text, start, end)
    if escaped:
        return [c for c in escaped if c.start - c.end > 2]
    cuts = blank_lines(text, start, end)
    return [cut for cut, inside in zip(cuts, _inside_sentence(text, cuts), strict=True) if not inside]


def _inside_sentence(text: str, blanks: list[Cut]) -> list[bool]:
    """For each blank line, whether it falls inside a sentence (page_break_inside), or inside the
    page furniture a sentence goes on past (page_bridge: every blank line up to where it goes on)."""
    return _page_gaps(text, blanks)[0]


def _page_gaps(text: str, blanks: list[Cut]) -> tuple[list[bool], list[tuple[int, int]]]:
    """_inside_sentence's answer, and the spans (from the sentence's stop to where it goes on)
    that a page's furniture fills: no line break inside one is a cut either (pdftotext -layout
    sets a page number and the next page's head on two lines of one paragraph)."""
    inside = [page_break_inside(text, cut.end, cut.start) for cut in blanks]
    spans: list[tuple[int, int]] = []
    n = 0
    while n < len(blanks):
        # (also after a blank line that flows across already: "at" | "13" reads as a figure going on)
        resumes = page_bridge(text, blanks[n].end, len(text))
        if resumes is None or resumes == blanks[n].start:
            n += 1
            continue
        spans.append((blanks[n].end, resumes))
        while n < len(blanks) and blanks[n].start <= resumes:
            inside[n] = True
            n += 1
    return inside, spans


def _resumes(text: str, offset: int) -> int:
    """The first character at or after ``offset`` that is not white space (a form feed too)."""
    while offset < len(text) and text[offset].isspace():
        offset += 1
    return offset


def all_lines(text: str, start: int, end: int) -> list[Cut]:
    return [_cut(text, start, end, m.start(), m.end()) for m in _LINE_BREAK.finditer(text, start, end)]


# A line break written as the two characters backslash and n: text exported as JSON or a Python
# repr (a chat log's messages) keeps its line breaks so. Where a span holds many of them and few real
# ones, they are its line breaks for boundary purposes (the offsets still point at both characters).
_ESCAPED_BREAK = re.compile(r"(?<!\\)(?:\\[rn])+")
_ESCAPED_MIN = 3


def escaped_lines(text: str, start: int, end: int) -> list[Cut]:
    """The literal ``\\n`` escapes of a span that is escaped text, as line breaks; none in any other
    span. Escaped text is judged on the real lines the span sits on (at least three escapes, and
    more than four for every real line break): a short span of a chat export's message (a draft cut
    again, two items of a list) holds one escape or two, and they are still its line breaks."""
    found = [m for m in _ESCAPED_BREAK.finditer(text, start, end)]
    if not found:
        return []
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", end)
    if not _escaped_text(text, lo, len(text) if hi < 0 else hi):
        return []
    return [_cut(text, start, end, m.start(), m.end()) for m in found]


@lru_cache(maxsize=32)
def _escaped_text(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (whole real lines) is escaped text. (Cached: every span on one long
    line of a JSON export asks about the same line; a str keeps its hash, so the key is cheap.)"""
    escapes = sum(1 for _ in _ESCAPED_BREAK.finditer(text, start, end))
    return escapes >= _ESCAPED_MIN and text.count("\n", start, end) * 4 <= escapes


def prose_lines(text: str, start: int, end: int) -> list[Cut]:
    """Line breaks that end a paragraph in practice: all of them, unless the span is
    hard-wrapped; then only those where the writer broke a line that had room left and did not
    break a sentence (lower case running on after no stop). A blank line inside a sentence is a
    page break in text taken from a PDF, never a boundary."""
    escaped = escaped_lines(text, start, end)
    if escaped:
        return [c for c in escaped if c.start - c.end == 2]  # one escaped break: a line's end
    blanks = blank_lines(text, start, end)
    inside, furniture = _page_gaps(text, blanks)
    cuts = [
        c
        for c in all_lines(text, start, end)
        if not _hangs(text, c) and not any(left <= c.end and c.start <= resumes for left, resumes in furniture)
    ]
    page_breaks = {_resumes(text, c.start) for c, broken in zip(blanks, inside, strict=True) if broken}
    ours = [not flows_across(text, c.end, c.start) and _resumes(text, c.start) not in page_breaks for c in cuts]
    if len(cuts) < 2:
        return [c for c, mine in zip(cuts, ours, strict=True) if mine or not _blank(text, c)]
    bounds = [start, *(c.start for c in cuts)]
    ends = [c.end for c in cuts]
    lengths = [e - s for s, e in zip(bounds, ends, strict=False)]
    width = sorted(lengths)[int(_WIDTH_QUANTILE * (len(lengths) - 1))]
    full = [n for n, length in enumerate(lengths[: len(cuts)]) if length >= _WRAP_NEAR * width]
    # Ragged lines: each break is the writer's (a list of lower-case items too), except a blank
    # line inside a sentence, and a full line whose sentence runs on below it: among ragged
    # lines (a PDF page of short lines, code and headings) a full one was wrapped there.
    # A wrap needs a width: a few lines at least that long, and never a line under 40 characters.
    wide = [n for n in full if lengths[n] >= _WRAP_MIN_WIDTH]
    wraps = {n for n in wide if not ours[n]} if len(wide) >= _WRAP_MIN_LINES else set()
    ragged = [c for n, c in enumerate(cuts) if ours[n] or (not _blank(text, c) and n not in wraps)]
    # However few they are (a page of paragraphs between lists and code), full lines that mostly
    # break off mid-sentence make the span wrapped.
    mid_sentence = sum(1 for n in full if text[cuts[n].end - 1] not in _SENTENCE_STOPS)
    wrapped = len(full) >= _WRAP_MIN_LINES and mid_sentence >= _WRAP_MID_SENTENCE * len(full)
    if not wrapped:
        return ragged
    # How far full lines fall short of the width: a few characters where a fixed-width wrapper
    # filled them, more in a PDF's proportional type, where characters are not widths.
    slack = max(0, width - sorted(lengths[n] for n in full)[len(full) // 2])
    kept = []
    for n, cut in enumerate(cuts):
        first_word = _SPACE.split(text[cut.start : min(end, cut.start + 64)], maxsplit=1)[0]
        needed = lengths[n] + 1 + len(first_word)
        # A line that would have held the next word is the writer's break with room to spare,
        # or when it ends a sentence and the word would have fitted beyond the wrap's slack.
        ends_sentence = text[cut.end - 1 : cut.end] in ".!?:"
        room = needed <= _WRITER_ROOM * width or (ends_sentence and needed <= width - slack)
        if ours[n] and (room or (ends_sentence and _names_below(text, cut, end))):
            kept.append(cut)
    return kept


def _names_below(text: str, cut: Cut, end: int) -> bool:
    """Whether the line after a cut is a label with more lines below it ("FILES" over
    "/etc/tidewatch/berths.conf"): a wrapper never leaves a short line inside a paragraph, so
    after a sentence's end such a line opens something of its own, however full the line above."""
    line_end = text.find("\n", cut.start, end)
    return line_end >= 0 and is_label(text[cut.start : line_end].strip())


def _hangs(text: str, cut: Cut) -> bool:
    """Whether the line after a single line break is indented deeper than a short line before
    it: a description under its term (a manual's "-c, --config=FILE", its text a tab further in,
    as man sets it), a section's first entry under its name. Such a line continues the one above;
    cutting there parts a definition from what it defines. After a line of prose (40 characters
    or more) a deeper line is more often a nested item or an example of its own: there the
    break stays (Markdown lists stripped to plain text lost spans when it did not)."""
    if _blank(text, cut):
        return False
    line_start = text.rfind("\n", 0, cut.end) + 1
    next_start = text.rfind("\n", 0, cut.start) + 1
    short = len(line_before(text, cut.end)) < _WRAP_MIN_WIDTH
    return short and _indent(text, next_start, cut.start) > _indent(text, line_start, cut.end)


def line_before(text: str, end: int) -> str:
    """The line that ends at ``end``, stripped."""
    return text[text.rfind("\n", 0, end) + 1 : end].strip()


def is_label(line: str) -> bool:
    """A short line that ends in no stop: a term, an option, a file's name, a section's name."""
    return 0 < len(line) < _WRAP_MIN_WIDTH and line[-1] not in ".!?:;,"


def _indent(text: str, line_start: int, limit: int) -> int:
    """Columns of white space that open the line at ``line_start`` (tabs to the next multiple of 8)."""
    column = 0
    for ch in text[line_start:limit]:
        if ch == " ":
            column += 1
        elif ch == "\t":
            column += 8 - column % 8
        else:
            break
    return column


def _blank(text: str, cut: Cut) -> bool:
    """Whether the gap between two pieces holds a blank line (two line breaks, CRLF or not)."""
    return len(_NEWLINE.findall(text, cut.end, cut.start)) > 1


def strong_sentences(text: str, start: int, end: int) -> list[Cut]:
    return [cut for cut, level in _sentence_cuts(text, start, end) if level == Level.SENTENCE]


def weak_sentences(text: str, start: int, end: int) -> list[Cut]:
    return [cut for cut, level in _sentence_cuts(text, start, end) if level == Level.WEAK]


def bonded_sentences(text: str, start: int, end: int) -> list[Cut]:
    return [cut for cut, level in _sentence_cuts(text, start, end) if level == Level.BONDED]


def clauses(text: str, start: int, end: int) -> list[Cut]:
    return _after(text, start, end, _CLAUSE)


def commas(text: str, start: int, end: int) -> list[Cut]:
    return _after(text, start, end, _COMMA)


def cells(text: str, start: int, end: int) -> list[Cut]:
    """Before each cell separator of a table row (the separator opens the next cell)."""
    return _before(text, start, end, _CELL)


def words(text: str, start: int, end: int) -> list[Cut]:
    return [_cut(text, start, end, m.start(), m.end()) for m in _SPACE.finditer(text, start, end)]


PROSE: tuple[tuple[Finder, Level], ...] = (
    (prose_blank_lines, Level.BLANK),
    (prose_lines, Level.LINE),
    (strong_sentences, Level.SENTENCE),
    (weak_sentences, Level.WEAK),
    (bonded_sentences, Level.BONDED),
    (clauses, Level.CLAUSE),
    (commas, Level.COMMA),
    (words, Level.WORD),
)
LINES: tuple[tuple[Finder, Level], ...] = (
    (blank_lines, Level.BLANK),
    (all_lines, Level.LINE),
    (words, Level.WORD),
)
CELLS: tuple[tuple[Finder, Level], ...] = (
    (all_lines, Level.LINE),
    (cells, Level.CLAUSE),
    (words, Level.WORD),
)


def descend(
    text: str,
    start: int,
    end: int,
    plan: tuple[tuple[Finder, Level], ...],
    limit: int,
    index: SpanIndex,
) -> list[Piece]:
    """Cut ``text[start:end]`` into pieces of at most ``limit`` tokens, each at the strongest
    level of boundary that gets it there. The first piece's level is ELEMENT."""
    out: list[Piece] = []

    def go(s: int, e: int, step: int, level: Level) -> None:
        s, e = trim_span(text, s, e)
        if e <= s:
            return
        if index.count(s, e) <= limit or e - s <= 1:
            out.append(Piece(s, e, level))
            return
        if step == len(plan):
            bounds = [s, *index.windows(s, e, limit), e]
            for n in range(len(bounds) - 1):
                a, b = trim_span(text, bounds[n], bounds[n + 1])
                if b > a:
                    out.append(Piece(a, b, level if n == 0 else Level.TOKEN))
            return
        finder, found_level = plan[step]
        cuts = [c for c in finder(text, s, e) if s < c.end and c.start < e]
        if not cuts:
            go(s, e, step + 1, level)
            return
        lefts = [s, *(c.start for c in cuts)]
        rights = [*(c.end for c in cuts), e]
        for n, (a, b) in enumerate(zip(lefts, rights, strict=True)):
            if b > a:
                go(a, b, step + 1, level if n == 0 else found_level)

    go(start, end, 0, Level.ELEMENT)
    return out


def is_title(text: str, piece: Piece, after: Piece) -> bool:
    """Whether ``piece`` is a title line of its own, naming what follows it: one line, short and
    ending in no stop ("2. Portland, USA" above its paragraph, a wiki's "= = History = =" in text
    read as one paragraph), with a line break or a blank line (real or escaped) after it."""
    if after.level not in (Level.BLANK, Level.LINE):
        return False
    line = text[piece.start : piece.end]
    return "\n" not in line and "\\n" not in line and is_label(line.strip())


def titles_first(text: str, pieces: list[Piece], index: SpanIndex, limit: int) -> list[Piece]:
    """``pieces`` with the piece after each title line cut finer where the two are over ``limit``
    together: the title then takes the first sentences of what it names (a chunk never ends with
    a title, nor holds it alone), as a heading takes the first piece of its paragraph."""
    out: list[Piece] = []
    for n, piece in enumerate(pieces):
        title = out[-1] if n and out and out[-1] == pieces[n - 1] and is_title(text, pieces[n - 1], piece) else None
        if title is not None and index.count(title.start, piece.end) > limit:
            finer = descend(
                text, piece.start, piece.end, PROSE, max(1, limit - index.count(title.start, piece.start)), index
            )
            if len(finer) > 1:
                out.append(Piece(finer[0].start, finer[0].end, piece.level))
                out.extend(finer[1:])
                continue
        out.append(piece)
    return out


def _sentence_cuts(text: str, start: int, end: int) -> list[tuple[Cut, Level]]:
    """Sentence ends, each with its level: before a sentence that leans on this one (an
    exception, a pronoun) or after a fragment too short to stand alone ("Yes.", "1.") they
    are bonds, cut only when the sentences they join are over budget together."""
    out = []
    previous = start
    for b in boundaries(text, start, end):
        leans = continues_previous(text, b.start) or mentions_exception(text, b.start, end)
        if leans or _fragment(text[previous : b.end]):
            level = Level.BONDED
        else:
            level = Level.SENTENCE if b.strength == STRONG else Level.WEAK
        out.append((Cut(b.end, b.start), level))
        previous = b.start
    return out


def _fragment(sentence: str) -> bool:
    """Too short to stand alone ("Yes.", "1.", "[09:04] Dana: Yes."): a speaker label and a
    time stamp do not count as words."""
    words = [w for w in sentence.split() if not (w.endswith(":") or w.startswith(("[", "(", "<")))]
    return len(words) <= 2


def _after(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[Cut]:
    """Cuts after each match (";", ","), or before it where it opens with a space (" — x": the
    dash opens the next piece); none inside inline code, a tag or a link target."""
    out = []
    atoms = _atoms(text, start, end)
    for m in pattern.finditer(text, start, end):
        if atoms and _inside(atoms, m.start()):
            continue
        left = right = m.start() + 1 if m.group()[0].isspace() else m.end()
        out.extend(_trimmed_cut(text, start, end, left, right))
    return out


def _atoms(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans that a clause mark or comma inside does not divide: `code`, <tag attr="a - b">,
    ](link target), URLs ("RuntimeError: Task" in backticks is one name)."""
    span = text[start:end]
    if not any(mark in span for mark in _ATOM_MARKS):
        return []
    return [(m.start(), m.end()) for m in _ATOM.finditer(text, start, end)]


def _inside(atoms: list[tuple[int, int]], offset: int) -> bool:
    i = bisect.bisect_right(atoms, (offset, sys.maxsize)) - 1  # the last atom starting at or before it
    return i >= 0 and atoms[i][0] < offset < atoms[i][1]


def _before(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[Cut]:
    out = []
    for m in pattern.finditer(text, start, end):
        out.extend(_trimmed_cut(text, start, end, m.start(), m.start()))
    return out


def _trimmed_cut(text: str, start: int, end: int, left: int, right: int) -> list[Cut]:
    while right < end and text[right].isspace():
        right += 1
    while left > start and text[left - 1].isspace():
        left -= 1
    return [Cut(left, right)] if start < left and right < end else []


def _cut(text: str, start: int, end: int, gap_start: int, gap_end: int) -> Cut:
    return Cut(max(start, gap_start), min(end, gap_end))
