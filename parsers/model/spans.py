"""Spans of text: line starts (CommonMark's line ends), trimming, and building a text piece by piece."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass
class TextBuilder:
    """Builds a normalized ``Document.text`` piece by piece (for formats whose text is ours to
    build: PDF, Office), handing back each piece's exact span."""

    pieces: list[str] = field(default_factory=list)
    size: int = 0

    def add(self, text: str, sep: str = "\n\n") -> tuple[int, int]:
        if self.pieces:
            self.pieces.append(sep)
            self.size += len(sep)
        start = self.size
        self.pieces.append(text)
        self.size += len(text)
        return start, self.size

    def next_start(self, sep: str = "\n\n") -> int:
        """Where the next piece will start."""
        return self.size + (len(sep) if self.pieces else 0)

    def text(self) -> str:
        return "".join(self.pieces)


def line_starts(text: str) -> list[int]:
    """Offsets where each line begins, splitting on CRLF, CR and LF as CommonMark does."""
    if text.isascii():  # its characters are its bytes
        return byte_line_starts(text.encode("ascii"))
    lines = text.splitlines(keepends=True)
    if len(lines) != _commonmark_lines(text):
        # str.splitlines also ended lines at other characters (\x0b, \x0c, \x1c-\x1e, \x85,
        # U+2028, U+2029), where CommonMark does not.
        return [0, *(m.end() for m in _LINE_END.finditer(text))]
    # It ended them exactly where CommonMark does (or at one other character closing the text,
    # which starts no line either), and its lengths are summed in C (a match object per line
    # was twice as slow).
    starts = [0, *itertools.accumulate(map(len, lines))]
    if text and not text.endswith(("\n", "\r")):
        starts.pop()  # the end of a last line without a line end starts no line
    return starts


def _commonmark_lines(text: str) -> int:
    """How many lines CommonMark reads in ``text`` (CRLF, CR and LF end one). Counted, not
    searched for the other line ends str.splitlines knows: a pattern scan of every character
    took longer than the split itself."""
    ends = text.count("\n")
    if "\r" in text:  # (most text has none: the two counts are not made)
        ends += text.count("\r") - text.count("\r\n")
    return ends + (1 if text and not text.endswith(("\n", "\r")) else 0)


def byte_line_starts(src: bytes) -> list[int]:
    """Offsets where each line begins. bytes.splitlines ends a line at CRLF, CR and LF, exactly
    CommonMark's line ends (str.splitlines has more), and sums lengths in C, not per match."""
    starts = [0, *itertools.accumulate(map(len, src.splitlines(keepends=True)))]
    if src and not src.endswith((b"\n", b"\r")):
        starts.pop()  # the end of a last line without a line end starts no line
    return starts


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without leading and trailing whitespace (empty spans collapse to start)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
