"""Source lines for the reStructuredText parser: docutils gives a node the line it starts on (or,
for some directives, a line inside the construct), never a character offset. Here the source is
read line by line for what the spans need: where each explicit markup construct (``.. name::``,
``.. _target:``, a comment) begins and ends, and where a section title's adornment lies."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_EXPLICIT = re.compile(r"[ \t]*\.\.(?:[ \t]|$)")
_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+([\w][\w:.+-]*)[ \t]*::")
# Characters docutils' str.splitlines ends a line at, beyond CR and LF: the parser reads them as
# spaces, so that docutils' line numbers are the source's (parsers/model/spans.py's line_starts).
_OTHER_BREAKS = {c: " " for c in (0x0B, 0x0C, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)}


def for_docutils(text: str) -> str:
    """``text`` with the characters docutils (but not the CommonMark line table) ends lines at
    read as spaces: the same lines, numbered the same."""
    return text.translate(_OTHER_BREAKS)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


@dataclass(frozen=True)
class Block:
    """An explicit markup construct: its first line (0-based) and the line after its last."""

    first: int
    end: int
    reach: int  # the line after the blank lines that follow it (docutils may name one of those)
    name: str | None  # the directive's name ("note", "toctree"); None for comments and targets


class Lines:
    """The source's lines (0-based), and its explicit markup constructs."""

    def __init__(self, text: str, starts: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.count = len(starts)
        self.blocks = _blocks([self.line(n) for n in range(self.count)])
        self.firsts = [b.first for b in self.blocks]

    def line(self, n: int) -> str:
        start = self.starts[n]
        end = self.starts[n + 1] if n + 1 < self.count else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def blank(self, n: int) -> bool:
        return not self.line(n).strip()

    def adornment(self, n: int) -> bool:
        """A section title's over- or underline: one punctuation character repeated."""
        if not 0 <= n < self.count:
            return False
        line = self.line(n).rstrip()
        return len(line) >= 2 and not line[0].isalnum() and not line[0].isspace() and line == line[0] * len(line)

    def block_start(self, hint: int, after: int) -> int:
        """Where the construct a node's line ``hint`` lies in begins: the first line of the
        outermost explicit markup block that holds ``hint`` and begins after line ``after`` (the
        previous element's first line), or ``hint`` itself. A note's first paragraph starts at
        ``.. note::``; a ``code-block`` (whose literal docutils puts on its last line) at its
        directive."""
        at = bisect.bisect_right(self.firsts, hint)
        best = hint
        for block in self.blocks[bisect.bisect_right(self.firsts, after) : at]:
            if block.first <= hint < block.reach and block.first < best:
                best = block.first
        return best

    def block_at(self, first: int) -> Block | None:
        at = bisect.bisect_left(self.firsts, first)
        if at < len(self.blocks) and self.blocks[at].first == first:
            return self.blocks[at]
        return None

    def next_block(self, after: int, names: frozenset[str]) -> Block | None:
        """The first directive of one of these names that begins after line ``after``."""
        for block in self.blocks[bisect.bisect_right(self.firsts, after) :]:
            if block.name in names:
                return block
        return None

    def content_lines(self, block: Block) -> list[int]:
        """The non-blank lines of a directive's content."""
        first = self.directive_content(block)
        return [] if first is None else [n for n in range(first, block.end) if not self.blank(n)]

    def directive_content(self, block: Block) -> int | None:
        """The first line of a directive's content (after its arguments and options, at the first
        blank line), or None when it has none."""
        n = block.first + 1
        while n < block.end and not self.blank(n):
            n += 1
        while n < block.end and self.blank(n):
            n += 1
        return n if n < block.end else None


def _blocks(lines: list[str]) -> list[Block]:
    """Every explicit markup construct: a line starting ``..`` and the lines after it that are
    blank or indented deeper than its ``..`` (the text block the construct holds)."""
    out: list[Block] = []
    count = len(lines)
    for n, line in enumerate(lines):
        if not line.lstrip(" \t").startswith("..") or not _EXPLICIT.match(line):
            continue
        column = _indent(line)
        end = n + 1
        last = n + 1
        while end < count:
            following = lines[end]
            if following.strip():
                if _indent(following) <= column:
                    break
                last = end + 1
            end += 1
        directive = _DIRECTIVE.match(line)
        out.append(Block(n, last, end, directive.group(1).lower() if directive else None))
    return out
