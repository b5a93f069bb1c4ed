"""Tables of contents and indexes: navigation, not evidence (pure geometry and text on lines).

Their entries match many queries and answer none, so a page's entries are taken out of the flow
before tables are looked for (a contents page's page-number column would make it one) and
declared as furniture, like running heads. An entry is

* a title with dot leaders to a page number ("1.1 The environment . . . . 2", Texinfo's index
  "NaN . . . . 11"), PDFium's fragments of one baseline read left to right, a two-column index
  cut after each entry;
* an index entry, a term with its pages ("clip, 24, 81, 137");
* on a page of such entries: a title whose page number stands in the column where the others'
  numbers end (a chapter's entry, set without leaders).

A page holds navigation when its entries are three or more and 40 % of its lines (running heads
and folios aside), or one or more right after a page that held navigation (the contents' or the
index's last page: its chapter entries found by the page before's number column). There the
lines among the entries (a title wrapped over two lines, an index's letter heads, the pages of
an entry wrapped onto the next line) and a "Contents" or "Index" title over them go too, unless
the outline names them as headings. A page reference is a page of the document (the page count
and 40 more: leaders to amounts are a financial table's).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from parsegate.parsers.pdf.layout import Line

_PAGE = r"(\d{1,4}|[ivxlcdm]{1,7})"
_PAGES = rf"{_PAGE}(\s*[-–]\s*{_PAGE})?"
# The title may be an operator ("%*%", "[["): anything but the leader's own dots.
_LEADER = re.compile(rf"^(?P<title>.*?[^.\s].*?)\s*(\.\s?){{3,}}\s*(?P<page>{_PAGES}(,\s*{_PAGES})*)$", re.IGNORECASE)
# The term may be an operator ("+", "++"), or the pages of the entry above wrapped.
_INDEX = re.compile(rf"^(?P<title>[^,]{{0,80}}\S),\s*(?P<page>{_PAGES}(,\s*{_PAGES})*),?$", re.IGNORECASE)
_NUMBER = re.compile(rf"^{_PAGE}$", re.IGNORECASE)
_TITLE = re.compile(
    r"^((table of )?contents|index|(general|subject|concept|function) index|list of (figures|tables)|"
    r"inhalt(sverzeichnis)?|table des matières|sommaire|índice|indice|inhoud|spis treści)$",
    re.IGNORECASE,
)
_MIN_ENTRIES = 3
_SHARE = 0.4  # of a page's lines that its entries take, at the least, for it to be navigation
_COLUMN = 3.0  # points: how near the number column a chapter entry's page number ends
_HEAD = 3.0  # ems above the first entry where a letter head of an index stands
_SHORT = 12  # words: a line among the entries longer than this is text, not a wrapped title
_BAND = 0.08  # of the page's height, at its head and foot: running heads and folios
_SPARE_PAGES = 40  # front matter numbered apart: a reference may exceed the page count by this


@dataclass
class Navigation:
    """A page's contents or index entries (each the lines of one, left to right), in stream
    order, and where their page numbers end (the right edge of the number column)."""

    entries: list[list[Line]] = field(default_factory=list)
    column: float | None = None


def navigation_lines(
    lines: Sequence[Line], height: float, pages: int, named: Callable[[Line], bool], before: Navigation | None = None
) -> Navigation:
    """The page's navigation; none on a page that is no contents or index page. ``before``: the
    page before's, whose last entries this page may hold (a chapter's or two, in its column)."""
    top = pages + _SPARE_PAGES
    segments = [segment for row in _rows(lines) for segment in _segments(row)]
    entries = [s for s in segments if _entry(s, top)]
    if not entries and not (before and before.entries):
        return Navigation()
    numbers = [s[-1].x1 for s in entries if _leaders(_text(s))]
    column = statistics.median(numbers) if numbers else before.column if before else None
    entries += [s for s in segments if s not in entries and _in_column(s, column, top)]
    # Running heads and folios in the page's outer bands take no part in the share.
    inner = [ln for ln in lines if ln.bottom > _BAND * height and ln.top < (1 - _BAND) * height]
    enough = 1 if before and before.entries else _MIN_ENTRIES
    if len(entries) < enough or sum(len(s) for s in entries) < _SHARE * len(inner):
        return Navigation()
    taken = {id(ln) for s in entries for ln in s}
    span_top = min(ln.top for s in entries for ln in s)
    span_bottom = max(ln.bottom for s in entries for ln in s)
    for s in segments:
        if id(s[0]) in taken or any(named(ln) for ln in s):
            continue
        # An index's letter heads stand a line or two over its first entries.
        inside = span_top - _HEAD * s[0].size <= s[0].top and s[0].bottom <= span_bottom
        if (inside and _words(_text(s)) <= _SHORT) or _title_over(s, span_top):
            entries.append(s)
    return Navigation(sorted(entries, key=lambda s: min(ln.index for ln in s)), column)


def entry_text(entry: list[Line]) -> str:
    return _text(entry)


def _words(text: str) -> int:
    """Words, a leader's dots not counted (the index entry for R's "." is dots only)."""
    return sum(bool(word.strip(".")) for word in text.split())


def _text(segment: list[Line]) -> str:
    return " ".join(ln.text for ln in segment)


def _rows(lines: Sequence[Line]) -> list[list[Line]]:
    """Lines on one baseline, left to right."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.top + ln.bottom) / 2):
        middle = (line.top + line.bottom) / 2
        last = rows[-1] if rows else None
        if last is not None and abs((last[0].top + last[0].bottom) / 2 - middle) < 0.4 * max(line.size, 1.0):
            last.append(line)
        else:
            rows.append([line])
    return [sorted(row, key=lambda ln: ln.x0) for row in rows]


def _segments(row: list[Line]) -> list[list[Line]]:
    """The row cut after each entry it holds (two columns of an index share a baseline)."""
    out: list[list[Line]] = []
    current: list[Line] = []
    for line in row:
        current.append(line)
        if _match(_text(current)) is not None:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def _entry(segment: list[Line], top: int) -> bool:
    match = _match(_text(segment))
    return match is not None and _pages_within(match.group("page"), top)


def _match(text: str) -> re.Match[str] | None:
    """A leader entry's or an index entry's match (the regular expressions run only on text that
    ends like one: a long line of dots would cost them many tries)."""
    if not text[-1:].isalnum() and not text.endswith(","):
        return None
    if _leaders(text):
        return _LEADER.match(text)
    return _INDEX.match(text) if "," in text else None


def _leaders(text: str) -> bool:
    return ". . ." in text or "..." in text


def _pages_within(pages: str, top: int) -> bool:
    numbers = [int(n) for n in re.findall(r"\d+", pages)]
    return all(n <= top for n in numbers)


def _in_column(segment: list[Line], column: float | None, top: int) -> bool:
    """A title with its page number in the entries' number column."""
    last = segment[-1]
    return (
        column is not None
        and len(segment) >= 2
        and bool(_NUMBER.match(last.text))
        and _pages_within(last.text, top)
        and abs(last.x1 - column) <= _COLUMN
        and any(c.isalpha() for c in _text(segment[:-1]))
    )


def _title_over(segment: list[Line], span_top: float) -> bool:
    """ "Contents" or "Index" right over the entries."""
    first = segment[0]
    near = first.bottom <= span_top < first.bottom + 6 * first.size
    return near and bool(_TITLE.match(_text(segment).strip()))
