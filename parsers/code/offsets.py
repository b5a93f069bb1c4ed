"""Byte offsets (tree-sitter's) to character offsets (the Document's), and line starts, in
O(log n) per call: a walk from the start of the line, or a search back for it, made the code
parser quadratic on one-line (minified) files."""

from __future__ import annotations

import bisect
import re

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


class Offsets:
    """A table of where each non-ASCII character starts, with the extra bytes before it, and
    the line starts in characters and in bytes."""

    def __init__(self, text: str, data: bytes) -> None:
        self.data = data
        self.identity = len(data) == len(text)
        # Where lines start, in characters and in bytes: "the start of this line" by bisection,
        # not by searching back (which rescans a one-line file for every definition on it).
        self.text_lines = [0, *(m.end() for m in re.finditer("\n", text))]
        self.byte_lines = [0, *(m.end() for m in re.finditer(b"\n", data))] if not self.identity else self.text_lines
        if not self.identity:
            self.byte_starts: list[int] = []  # byte offset where each non-ASCII character starts
            self.extra_after: list[int] = []  # extra bytes up to and including that character
            extra = 0
            for match in _NON_ASCII.finditer(text):
                char = match.start()
                self.byte_starts.append(char + extra)
                extra += len(match.group().encode("utf-8", "surrogatepass")) - 1
                self.extra_after.append(extra)

    def __call__(self, byte: int) -> int:
        if self.identity:
            return byte
        k = bisect.bisect_right(self.byte_starts, byte) - 1
        if k < 0:
            return byte
        before = self.extra_after[k - 1] if k else 0
        # Inside character k's own bytes (never for node boundaries): count it as that character.
        within = byte - self.byte_starts[k]
        char_width = self.extra_after[k] - before + 1
        if within < char_width:
            return self.byte_starts[k] - before
        return byte - self.extra_after[k]

    def line_start(self, char: int) -> int:
        """Character offset where the line holding ``char`` starts."""
        return self.text_lines[bisect.bisect_right(self.text_lines, char) - 1]

    def byte_line_start(self, byte: int) -> int:
        return self.byte_lines[bisect.bisect_right(self.byte_lines, byte) - 1]


def first_on_line(text: str | bytes, line_start: int, at: int) -> bool:
    """Only blanks between the start of the line and ``at`` (looking back over the blanks only:
    slicing the whole line is quadratic on one-line files)."""
    i = at
    while i > line_start and text[i - 1 : i] in (" ", "\t", b" ", b"\t"):
        i -= 1
    return i == line_start
