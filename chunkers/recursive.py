"""The separator-descent splitter (LangChain's RecursiveCharacterTextSplitter idea) as a
named baseline, over the whole document text, with exact offsets.

Split on the first separator that occurs; merge neighbouring pieces while they fit
the budget; descend to the next separator for any piece that alone does not fit.
"""

from __future__ import annotations

import bisect

from parsegate.chunkers.structural.finalize import Draft
from parsegate.chunkers.tokens.counter import Counter
from parsegate.parsers.model import Document, trim_span

SEPARATORS = ("\n\n", "\n", ". ", " ", "")


def recursive_spans(text: str, counter: Counter, limit: int) -> list[tuple[int, int]]:
    spans = _descend(text, 0, len(text), 0, counter, limit)
    return [t for t in (trim_span(text, s, e) for s, e in spans) if t[1] > t[0]]


def _pieces(text: str, start: int, end: int, sep: str) -> list[tuple[int, int]]:
    if sep == "":
        return [(i, i + 1) for i in range(start, end)]
    out = []
    cursor = start
    while True:
        hit = text.find(sep, cursor, end)
        if hit == -1:
            out.append((cursor, end))
            return [p for p in out if p[1] > p[0]]
        out.append((cursor, hit + len(sep)))  # the separator stays with the piece it ends
        cursor = hit + len(sep)


def _descend(text: str, start: int, end: int, level: int, counter: Counter, limit: int) -> list[tuple[int, int]]:
    level = next(i for i in range(level, len(SEPARATORS)) if SEPARATORS[i] == "" or SEPARATORS[i] in text[start:end])
    pieces = _pieces(text, start, end, SEPARATORS[level])
    sizes = counter.count_many([text[s:e] for s, e in pieces])
    out: list[tuple[int, int]] = []
    run_start, run_tokens, last_end = -1, 0, start
    for (s, e), n in zip(pieces, sizes, strict=False):
        if n > limit:
            if run_start >= 0:
                out.append((run_start, s))
                run_start, run_tokens = -1, 0
            out.extend(_descend(text, s, e, level + 1, counter, limit))
            continue
        if run_start >= 0 and run_tokens + n > limit:
            out.append((run_start, s))
            run_start, run_tokens = -1, 0
        if run_start < 0:
            run_start = s
        run_tokens += n
        last_end = e
    if run_start >= 0:
        out.append((run_start, last_end))
    return out


def recursive(doc: Document, counter: Counter, max_tokens: int) -> list[Draft]:
    limit = max_tokens - counter.specials
    headings = [e for e in doc.elements if e.kind == "heading"]
    starts = [h.start for h in headings]
    drafts = []
    for s, e in recursive_spans(doc.text, counter, limit):
        at = bisect.bisect_right(starts, s)
        drafts.append(Draft(start=s, end=e, section_path=headings[at - 1].section_path if at else (), kinds=["text"]))
    return drafts
