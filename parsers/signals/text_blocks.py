"""Plain text's paragraphs: runs of non-blank lines, joined where a blank line falls inside a
sentence. Text taken from a PDF puts one where a page ended ("the db has headroom, cpu is at" |
"54%."), and pdftotext a form feed and the page's running head and number too ("you may at" |
"Appendix A" | "28" | "your option"): those are no paragraph's end (parsers.model's
page_break_inside and page_bridge say where, for the parser and the chunker alike).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from parsegate.parsers.signals.page_breaks import page_break_inside, page_bridge

# A block of one line shorter than this may be a heading ("risk factors" in lower-cased text),
# so a lower-case block after it is not read as its sentence running on.
_RUN_ON_MIN_LINE = 40
_FURNITURE_BLOCKS = 3  # a running head and a page number (and a footer) between a sentence's halves
_SENTENCE_INSIDE = re.compile(r"[.!?]\s+\S")
_UNDERLINE = re.compile(r"([-=*~^])\1{2,}")


def blocks_of(text: str, lines: list[tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
    """(start, end, line count) of each run of non-blank lines."""
    first: int | None = None
    last_end = 0
    count = 0
    for start, end in lines:
        if text[start:end].strip():
            if first is None:
                first, count = start, 0
            last_end, count = end, count + 1
        elif first is not None:
            yield first, last_end, count
            first = None
    if first is not None:
        yield first, last_end, count


def join_run_ons(text: str, blocks: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """One block where a blank line falls inside a sentence: text extracted from a PDF puts
    one between pages ("the db has headroom, cpu is at" | "54%."), and pdftotext the page's
    running head and number too ("you may at" | "Appendix A" | "28" | "your option")."""
    out: list[tuple[int, int, int]] = []
    k = 0
    while k < len(blocks):
        start, end, count = blocks[k]
        if out:
            p_start, p_end, p_count = out[-1]
            # A heading ends in no hyphen or comma and holds no sentence end; a short line that
            # does ("... the rate. It") breaks off mid-sentence.
            line = text[p_start:p_end]
            short = (
                p_count == 1
                and len(line) < _RUN_ON_MIN_LINE
                and line[-1] not in "-,"
                and not _SENTENCE_INSIDE.search(line)
            )
            across = None if short else _across_furniture(text, p_end, blocks, k)
            if across is not None:
                out[-1] = (p_start, blocks[across][1], p_count + sum(c for _, _, c in blocks[k : across + 1]))
                k = across + 1
                continue
            inside = page_break_inside(text, p_end, start)
            if not short and inside and not _opens_with_title(text, start, end):
                out[-1] = (p_start, end, p_count + count)
                k += 1
                continue
        out.append((start, end, count))
        k += 1
    return out


def _across_furniture(text: str, left: int, blocks: list[tuple[int, int, int]], k: int) -> int | None:
    """The index of the block in which the sentence that stops at ``left`` goes on, past the
    page's furniture from block ``k`` on (page_bridge); None when it does not, or goes on right
    at the start of block ``k`` (page_break_inside joins that)."""
    limit = blocks[min(k + _FURNITURE_BLOCKS, len(blocks) - 1)][1]
    resumes = page_bridge(text, left, limit)
    if resumes is None or not text[blocks[k][0] : resumes].strip():
        return None
    for m in range(k, min(k + _FURNITURE_BLOCKS + 1, len(blocks))):
        if blocks[m][0] <= resumes < blocks[m][1]:
            return m  # a head may share its block with the line below it, pdftotext's grouping
    return None


def _opens_with_title(text: str, start: int, end: int) -> bool:
    """Whether the block at ``start`` opens with an underlined title ("3.4.7 bz2_bzwriteclose"
    over a line of dashes, as info and many READMEs write them): it starts a section of its own,
    never the rest of a sentence a page break cut off, however that sentence ended."""
    below = text[start:end].split("\n", 2)
    return len(below) > 1 and _UNDERLINE.fullmatch(below[1].strip()) is not None
