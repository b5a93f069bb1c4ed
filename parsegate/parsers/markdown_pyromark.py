"""Markdown block structure from pulldown-cmark (through pyromark), as markdown-it-style tokens.

parsegate/parsers/markdown.py walks markdown-it block tokens (type, line map, nesting level, info, markup,
content). This module makes the same tokens from pulldown-cmark's events and their byte ranges,
so that one walk builds the Document whichever engine parsed it. Only what the walk reads is
made: container open/close tokens, leaf open tokens with their line maps, heading titles and
table cells as markdown-it would give them (raw source, not rendered inline content).

Byte ranges are turned into line numbers (lines are the same in bytes and characters); no
character offset is ever computed here. Where the two engines could disagree by construction,
markdown-it's behaviour is reproduced from the source (front matter, heading titles, fence info,
list markers, escaped pipes in cells); where that is not worth it (blocks nested near
markdown-it's nesting limit, a multi-line setext heading inside a container) ``tokens`` returns
None and the caller parses with markdown-it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pyromark

from parsegate.parsers.model import byte_line_starts

ENGINE = f"pyromark/{pyromark.__version__}"
_OPTIONS = pyromark.Options.ENABLE_TABLES
# Deeper than this, markdown-it (maxNesting 100) starts cutting the tree: leave it to markdown-it.
MAX_DEPTH = 90
_WS = frozenset(b" \t\r\n\f\v")
_CLOSING = frozenset(("List", "Item", "BlockQuote", "Table", "TableHead", "TableRow"))
# Blocks that end a list item's own lines when nested directly in it (markdown.py's _ENDS_OWN_LINES).
_ENDS_OWN_LINES = frozenset(("List", "CodeBlock"))
_INLINE_TAGS = frozenset(("Emphasis", "Strong", "Strikethrough", "Superscript", "Subscript", "Link", "Image"))
_FRONT_MATTER_END = re.compile(r"\.\.\.[ \t]*$")
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_LAST_EOL = re.compile(r"(?:\r\n|\r|\n)\Z")
_LINE_END_STR = re.compile(r"\r\n|\r|\n")


@dataclass(slots=True)
class BlockToken:
    """The part of a markdown-it Token that parsegate/parsers/markdown.py reads."""

    type: str
    map: list[int] | None
    level: int
    tag: str = ""
    info: str = ""
    markup: str = ""
    content: str = ""


class Unsupported(Exception):
    """This document is left to markdown-it (the reason is in the message)."""


def tokens(text: str, line_starts: list[int] | None = None) -> list[BlockToken] | None:
    """markdown-it-style block tokens for ``text``, or None where markdown-it must parse it
    (``line_starts``: the text's, if the caller has them; read only)."""
    try:
        return _Converter(text, line_starts).run()
    except Unsupported:
        return None


@dataclass
class _Converter:
    text: str
    char_starts: list[int] | None = None  # line starts of the text, in characters
    out: list[BlockToken] = field(default_factory=list)
    depth: int = 0

    def run(self) -> list[BlockToken]:
        source = self.front_matter()
        self.src = source.encode()
        if self.char_starts is not None and len(self.src) == len(source):
            # ASCII (front matter blanked line by line, a character to a space): its bytes are its
            # characters, and the caller's line starts are these.
            self.line_starts = self.char_starts
        else:
            self.line_starts = byte_line_starts(self.src)
        self.bounds = [*self.line_starts, len(self.src) + 1]  # with a sentinel past the end
        self.walk(source)
        return self.out

    # -- front matter: mdit_py_plugins' rule, reproduced (pulldown-cmark's differs) -----------
    def front_matter(self) -> str:
        """Emit the front matter token, if any, and return the text with it blanked out (same
        line count, spaces instead of its characters) for pulldown-cmark to parse the rest."""
        text = self.text
        if not text.startswith("---"):
            return text
        # Lines are read only as far as the closing marker (the body can be long).
        found = _LINES.finditer(text)
        lines = [next(found).group()]
        first = lines[0].rstrip("\r\n")
        markers = len(first) - len(first.lstrip("-"))
        for match in found:
            lines.append(match.group())
            line = lines[-1].rstrip("\r\n")
            if _FRONT_MATTER_END.match(line):
                return self.blank_front_matter(lines, text[match.end() :])
            stripped = line.lstrip(" \t")
            indent = _columns(line[: len(line) - len(stripped)])
            if not stripped.startswith("-") or indent >= 4:
                continue
            run = len(stripped) - len(stripped.lstrip("-"))
            if run >= markers and not stripped[run:].strip(" \t"):
                return self.blank_front_matter(lines, text[match.end() :])
        return text

    def blank_front_matter(self, lines: list[str], rest: str) -> str:
        """``lines``: the opening line to the closing one; ``rest``: the text after them."""
        content = "".join(lines[1:-1])
        content = _LAST_EOL.sub("", content)  # markdown-it's content ends at the last line's end
        self.out.append(BlockToken("front_matter", [0, len(lines)], 0, content=content))
        blanked = "".join(re.sub(r"[^\r\n]", " ", line) for line in lines)
        return blanked + rest

    # -- ranges → line maps ---------------------------------------------------------------
    def line_map(self, start: int, end: int) -> list[int]:
        """Lines [first, last + 1) of the non-blank bytes in [start, end)."""
        bounds, src = self.bounds, self.src
        start = self.skip_blank(start, end)
        first = bisect.bisect_right(bounds, start) - 1
        if end <= bounds[first + 1]:  # most blocks: the range ends on its first line
            return [first, first + 1]
        while end > start and src[end - 1] in _WS:
            end -= 1
        if end <= start:
            return [first, first + 1]
        return [first, bisect.bisect_right(bounds, end - 1, first)]

    def skip_blank(self, start: int, end: int) -> int:
        """Where a block's source really starts: a block indented by a tab can start at the end of
        the line before it (pulldown-cmark counts that line break into it), and then its first
        line, list marker and fence are those of its first non-blank byte."""
        src = self.src
        while start < end and src[start] in _WS:
            start += 1
        return start

    def line_text(self, start: int) -> str:
        """The source from byte ``start`` to the end of its line."""
        line = bisect.bisect_right(self.line_starts, start)
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.src)
        return self.src[start:end].rstrip(b"\r\n").decode()

    # -- the event walk ------------------------------------------------------------------
    def push(self, type_: str, start: int, end: int, tag: str = "", info: str = "", markup: str = "") -> BlockToken:
        tok = BlockToken(type_, self.line_map(start, end), self.depth, tag, info, markup)
        self.out.append(tok)
        return tok

    def walk(self, source: str) -> None:
        """One pass over the events. Ordered for speed: most events are inline text, which only
        matters directly inside a tight list item (markdown-it makes a paragraph of it), and
        there only past the item's own lines: on them (before a nested list or code block, which
        end them: markdown.py's open_item) the builder hides every block, that paragraph too."""
        stack: list[str] = []  # open block tags
        past_own: set[int] = set()  # items (their places on the stack) past their own lines
        collect = False  # the innermost open block is such an item: its inline text is collected
        loose = [-1, -1]  # byte range of the inline text collected, [-1, -1] for none
        out, line_map = self.out, self.line_map
        # Typed as Any: the events are matched by their dict keys (typed dicts do not narrow on them).
        events: Iterator[tuple[Any, Any]] = pyromark.events_with_range(source, options=_OPTIONS)
        for event, rng in events:
            if event.__class__ is str:
                if event == "Rule":
                    self.flush(loose)
                    self.push("hr", rng["start"], rng["end"])
                elif collect:
                    if loose[0] < 0:
                        loose[0] = rng["start"]
                    loose[1] = rng["end"]
            elif "Start" in event:
                tag = event["Start"]
                name = tag if tag.__class__ is str else next(iter(tag))
                if name in _INLINE_TAGS:
                    if collect:
                        _extend(loose, rng)
                    continue
                if loose[0] >= 0:
                    self.flush(loose)
                if name == "Paragraph":  # the most frequent block: no call to open()
                    out.append(BlockToken("paragraph_open", line_map(rng["start"], rng["end"]), self.depth))
                else:
                    self.open(name, tag, rng["start"], rng["end"])
                    if name in _ENDS_OWN_LINES and stack and stack[-1] == "Item":
                        past_own.add(len(stack) - 1)
                stack.append(name)
                collect = False  # a block opens: a paragraph, a container, or an item's own lines
            elif "End" in event:
                tag = event["End"]
                name = tag if tag.__class__ is str else next(iter(tag))
                if name in _INLINE_TAGS:
                    continue
                if loose[0] >= 0:
                    self.flush(loose)
                stack.pop()
                if name in _CLOSING:
                    self.close(name)
                if name == "Item":
                    past_own.discard(len(stack))  # its place, free again
                collect = bool(stack) and stack[-1] == "Item" and len(stack) - 1 in past_own
            elif collect:
                if loose[0] < 0:
                    loose[0] = rng["start"]
                loose[1] = rng["end"]

    def flush(self, loose: list[int]) -> None:
        """Inline text directly in a tight list item is a paragraph to markdown-it."""
        if loose[0] >= 0:
            self.push("paragraph_open", loose[0], loose[1])
            loose[0] = loose[1] = -1

    def open(self, name: str, tag: Any, start: int, end: int) -> None:
        start = self.skip_blank(start, end)
        if name == "Paragraph":
            self.push("paragraph_open", start, end)
        elif name == "Heading":
            self.heading(tag["Heading"]["level"], start, end)
        elif name == "CodeBlock":
            kind = tag["CodeBlock"]
            if kind == "Indented":
                self.push("code_block", start, end)
            else:
                self.push("fence", start, end, info=_fence_info(self.line_text(start)))
        elif name == "HtmlBlock":
            self.push("html_block", start, end)
        elif name == "List":
            ordered = tag["List"] is not None
            self.container("ordered_list_open" if ordered else "bullet_list_open", start, end)
        elif name == "Item":
            marker = _marker(self.line_text(start))
            if marker.isdigit():
                self.container("list_item_open", start, end, info=marker)
            else:
                self.container("list_item_open", start, end, markup=marker)
        elif name == "BlockQuote":
            self.container("blockquote_open", start, end)
        elif name == "Table":
            self.container("table_open", start, end)
        elif name == "TableHead":
            self.push("thead_open", start, end)
            self.push("tr_open", start, end)
        elif name == "TableRow":
            self.push("tr_open", start, end)
        elif name == "TableCell":
            cell = self.src[start:end].decode().replace("\\|", "|").strip()
            self.push("inline", start, end).content = cell
        elif name == "MetadataBlock":  # not enabled: front matter is found as markdown-it finds it
            raise Unsupported("metadata block")

    def container(self, type_: str, start: int, end: int, info: str = "", markup: str = "") -> None:
        self.push(type_, start, end, info=info, markup=markup)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unsupported("nested near markdown-it's nesting limit")

    def close(self, name: str) -> None:
        if name == "List":
            self.depth -= 1
            self.out.append(BlockToken("bullet_list_close", None, self.depth))
        elif name == "Item":
            self.depth -= 1
            self.out.append(BlockToken("list_item_close", None, self.depth))
        elif name == "BlockQuote":
            self.depth -= 1
            self.out.append(BlockToken("blockquote_close", None, self.depth))
        elif name == "Table":
            self.depth -= 1
            self.out.append(BlockToken("table_close", None, self.depth))
        elif name in ("TableHead", "TableRow"):
            self.out.append(BlockToken("tr_close", None, self.depth))
            if name == "TableHead":
                self.out.append(BlockToken("thead_close", None, self.depth))

    def heading(self, level: str, start: int, end: int) -> None:
        tok = self.push("heading_open", start, end, tag=f"h{level[1]}")
        first, stop = tok.map or [0, 0]
        if stop - first == 1:  # ATX: one line
            title = _atx_title(self.line_text(start))
        elif stop - first == 2 or self.depth == 0:  # setext: the lines above the underline
            title = self.setext_title(start, first, stop - 1)
        else:
            raise Unsupported("multi-line setext heading inside a container")
        self.out.append(BlockToken("inline", tok.map, self.depth + 1, content=title))

    def setext_title(self, start: int, first: int, underline: int) -> str:
        if underline - first == 1:
            return self.line_text(start).strip()
        # Top level: markdown-it joins the raw lines (with their indentation), then strips.
        body = self.src[self.line_starts[first] : self.line_starts[underline]].decode()
        return "\n".join(_LINE_END_STR.split(body)).strip()


def _extend(loose: list[int], rng: Any) -> None:
    if loose[0] < 0:
        loose[0] = rng["start"]
    loose[1] = rng["end"]


def _columns(indent: str) -> int:
    width = 0
    for ch in indent:
        width = width + 4 - width % 4 if ch == "\t" else width + 1
    return width


def _atx_title(line: str) -> str:
    """markdown-it's heading rule: the text after the opening #s, without a closing sequence."""
    rest = line.lstrip(" ").lstrip("#")
    end = len(rest)
    while end > 0 and rest[end - 1] in " \t":
        end -= 1
    hashes = end
    while hashes > 0 and rest[hashes - 1] == "#":
        hashes -= 1
    if hashes > 0 and hashes < end and rest[hashes - 1] in " \t":
        end = hashes
    return rest[:end].strip()


def _fence_info(line: str) -> str:
    """markdown-it's fence info: the rest of the opening line after the fence characters."""
    line = line.lstrip(" ")
    return line.lstrip(line[0]) if line else ""


def _marker(line: str) -> str:
    """A list item's marker as markdown-it reports it: the digits of an ordered item, else the bullet."""
    line = line.lstrip(" \t")
    digits = len(line) - len(line.lstrip("0123456789"))
    return line[:digits] if digits else line[:1]
