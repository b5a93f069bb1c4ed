"""Page breaks in extracted text: whether a sentence runs on across a line break, a blank line or a
form feed, past the page's running heads and numbers (pdftotext output, a PDF's text layer)."""

from __future__ import annotations

import collections
import functools
import re

# What may end a sentence or a heading's run-in ("Note:"), closers after it included.
_SENTENCE_END = frozenset(".!?:;。！？；：")
_CLOSERS = frozenset("\"')]}”’»")
# What a line may end with when its sentence runs on: a comma, an opening parenthesis, a dash, or
# a hyphen breaking a word (ASCII, U+2010 as groff sets it in man pages, a soft hyphen).
_RUNS_ON = frozenset(",–(")
_HYPHENS = frozenset("-\u2010\u00ad")


def flows_across(text: str, left: int, right: int) -> bool:
    """Whether the sentence before a line break (``text[:left]``) runs on after it
    (``text[right:]``): a page break or a wrap, not the writer's, put the break there. It does
    when the text before ends no sentence and what follows continues it: a lower-case word, a
    figure after a lower-case word ("cpu is at | 54%"), or the rest of a hyphenated word."""
    before = left - 1
    while before > 0 and text[before].isspace():
        before -= 1
    while before > 0 and text[before] in _CLOSERS:
        before -= 1
    while right < len(text) and text[right].isspace():
        right += 1
    if before < 0 or right >= len(text):
        return False
    last, nxt = text[before], text[right]
    if last in _SENTENCE_END:
        return False
    if nxt.islower():
        if last in _HYPHENS:  # a word broken at a hyphen, or a dash; not a rule ("-------")
            return before > 0 and (text[before - 1].isalpha() or text[before - 1].isspace())
        return last.isalnum() or last in _RUNS_ON
    return nxt.isdigit() and last.isalpha() and last.islower()


# A page break inside a sentence that goes on with a capital or a figure ("Across 335" |
# "NMC pouch cells, ..."): the line before it and the line after it are full lines of
# wrapped prose. A writer's paragraph ends on a line of its own length, a heading is short.
_FULL_LINE = 0.8  # of the widest line above
_FULL_MIN = 40  # characters: nobody wraps prose narrower than this
# Only a page ends there: the gap holds a form feed (pdftotext), or the text above it runs this
# many lines without a blank one (a page's text layer; a writer's paragraphs are shorter).
_PAGE_LINES = 20
_COLUMNS = re.compile(r"[^.!?:\s][ \u00a0]{2,}\S|\t")
_STOP_INSIDE = re.compile(r"(?:[^\W\d_]|\))[.!?][\"')\]”’]*\s+\S")


def page_break_inside(text: str, left: int, right: int) -> bool:
    """Whether the blank line between ``left`` and ``right`` falls inside a sentence: it flows
    across (flows_across), or the wrapped prose above it (the lines since the blank line before,
    two or more, a sentence ending inside) stops on a full line that ends no sentence and the
    text below opens with a full line too. Text taken from a PDF puts a blank line where a page
    ended, whatever the next page opens with: a name, an acronym, a figure."""
    if flows_across(text, left, right):
        return True
    lines = _run_above(text, left)
    page = "\f" in text[left:right] or len(lines) >= _PAGE_LINES
    if not page or len(lines) < 2 or not _STOP_INSIDE.search("\n".join(lines)):
        return False
    width = max(len(line.rstrip()) for line in lines)
    last = lines[-1].strip()
    if width < _FULL_MIN or len(last) < _FULL_LINE * width or not (last[-1].isalnum() or last[-1] in _RUNS_ON):
        return False
    if _COLUMNS.search(last):  # a row of a listing or a table ("tune/  - tuning files"), no prose
        return False
    # The next line only, however long the text below (this runs at every blank line).
    line_end = text.find("\n", right, right + 4096)
    first = text[right : line_end if line_end >= 0 else right + 4096].strip()
    return first[:1].isalnum() and len(first) >= _FULL_LINE * width


def _run_above(text: str, left: int, most: int = 3 * _PAGE_LINES) -> list[str]:
    """The lines (the last ``most`` of them) of the run of non-blank lines that ends at ``left``:
    a whole page's, wherever a parser or a chunk split it."""
    lines: list[str] = []
    end = left
    while len(lines) < most:
        start = text.rfind("\n", 0, end) + 1
        if not text[start:end].strip():
            break
        lines.append(text[start:end])
        if start == 0:
            break
        end = start - 1
    return lines[::-1]


# A page's furniture between the halves of a sentence in pdftotext's text: the running head and
# the page number at a form feed ("you may at" | "Appendix A: Copying" | "28" | "your option").
_FURNITURE_LINES = 3
_FURNITURE_CHARS = 60
_FURNITURE_REPEATS = 3  # pages a running head stands on, at their edge
_EDGE_CHARS = 400  # characters around a form feed looked at for its page's edge lines
# A page number alone or at either end of the line, or a section's number opening it ("3.1. IMAGE
# INCLUSION"): after a page that stopped mid-sentence, no section opens in lower case.
_PAGE_NUMBER = re.compile(r"\d+|[ivxlc]+", re.IGNORECASE)
_PAGE_NUMBERED = re.compile(r"(?:\d+(?:\.\d+)*\.?|[ivxlcdm]+)(?:\s.*)?|.*\s\d+", re.IGNORECASE)


def page_bridge(text: str, left: int, limit: int) -> int | None:
    """Where the sentence that stops at ``left`` goes on across a form feed, past up to three
    lines of the page's furniture, each a paragraph of its own: the offset of the line it goes
    on in, or None. It goes on as ``flows_across`` says, in a lower-case word. Furniture is a
    short line that is a page number, holds one at its start or end ("Font structure 87"), or
    stands on many pages ("The pdfTEX user manual"); a line of body text is none of these."""
    lines = _lines_after(text, left, limit, _FURNITURE_LINES + 1)
    if not any("\f" in gap for gap, _, _ in lines):
        return None  # (most blank lines: no page break in reach)
    # A page's head comes with its number: beside a bare page number, any short line is furniture.
    numbered = any(_PAGE_NUMBER.fullmatch(text[start:end].strip()) for _, start, end in lines)
    fed = False
    for n, (gap, start, end) in enumerate(lines):
        fed = fed or "\f" in gap
        if fed and text[start].islower() and flows_across(text, left, start):
            return start  # a page number is no sentence going on ("at" | "28"), a word is
        if n and gap.count("\n") < 2 and "\f" not in gap:
            return None  # furniture stands alone, after a blank line or a form feed
        if not _furniture(text, text[start:end].strip(), numbered):
            return None
    return None


def _lines_after(text: str, left: int, limit: int, most: int) -> list[tuple[str, int, int]]:
    """(the white space before it, start, end) of each of the next ``most`` non-blank lines."""
    out: list[tuple[str, int, int]] = []
    cursor = left
    while len(out) < most:
        start = cursor
        while start < limit and text[start].isspace():
            start += 1
        if start >= limit:
            break
        end = text.find("\n", start, limit)
        end = limit if end < 0 else end
        out.append((text[cursor:start], start, end))
        cursor = end
    return out


def _furniture(text: str, line: str, numbered: bool) -> bool:
    line = " ".join(line.split())  # pdftotext -layout sets a head and its number columns apart
    if len(line) > _FURNITURE_CHARS or line[-1] in ".!?;:,":
        return False
    return numbered or _PAGE_NUMBERED.fullmatch(line) is not None or line in _running_heads(text)


@functools.lru_cache(maxsize=2)
def _running_heads(text: str) -> frozenset[str]:
    """Lines that stand at the edge of many pages (among the three lines before or after a form
    feed): a running head or foot. Once per document: every form feed asks."""
    seen: collections.Counter[str] = collections.Counter()
    for feed in (m.start() for m in re.finditer("\f", text)):
        after = [" ".join(ln.split()) for ln in text[feed + 1 : feed + 1 + _EDGE_CHARS].split("\n")]
        before = [" ".join(ln.split()) for ln in text[max(0, feed - _EDGE_CHARS) : feed].split("\n")]
        edge = [ln for ln in after if ln][:_FURNITURE_LINES] + [ln for ln in before if ln][-_FURNITURE_LINES:]
        seen.update(set(edge))
    return frozenset(line for line, count in seen.items() if count >= _FURNITURE_REPEATS)
