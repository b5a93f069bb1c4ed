"""Markdown block structure from pulldown-cmark (through pyromark), walked into markdown.py's builder.

parsers/markdown.py builds the Document from block calls (a paragraph on these lines, a
list opens, a heading with this title, ...) in document order, whichever engine found the blocks:
its own walk makes them from markdown-it's tokens, this module's from pulldown-cmark's events and
their byte ranges, straight (there were markdown-it-style tokens in between; making them cost as
much as the builder's whole walk). Only what the builder reads is given: line ranges, heading
titles and table cells as markdown-it would give them (raw source, not rendered inline content).

Byte ranges are turned into line numbers (lines are the same in bytes and characters); no
character offset is ever computed here. Where the two engines could disagree by construction,
markdown-it's behaviour is reproduced from the source (front matter, heading titles, fence info,
list markers, escaped pipes in cells); where that is not worth it (blocks nested near
markdown-it's nesting limit, a multi-line setext heading inside a container) ``walk`` stops and
returns False, and the caller parses with markdown-it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import pyromark

from parsegate.parsers.model import byte_line_starts

ENGINE = f"pyromark/{pyromark.__version__}"
_OPTIONS = pyromark.Options.ENABLE_TABLES
# Deeper than this, markdown-it (maxNesting 100) starts cutting the tree: leave it to markdown-it.
MAX_DEPTH = 90
_WS = frozenset(b" \t\r\n\f\v")
_CONTAINERS = frozenset(("List", "Item", "BlockQuote"))
# Blocks that end a list item's own lines when nested directly in it (markdown.py's _ENDS_OWN_LINES).
_ENDS_OWN_LINES = frozenset(("List", "CodeBlock"))
_PARAGRAPH_END = {"End": "Paragraph"}
_INLINE_TAGS = frozenset(("Emphasis", "Strong", "Strikethrough", "Superscript", "Subscript", "Link", "Image"))
_FRONT_MATTER_END = re.compile(r"\.\.\.[ \t]*$")
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_LAST_EOL = re.compile(r"(?:\r\n|\r|\n)\Z")
_LINE_END_STR = re.compile(r"\r\n|\r|\n")
_MARKER = re.compile(rb"[0-9]+|[-+*]")  # what _marker finds on a list item's line, as most begin
_BULLETS = {ord(bullet): bullet for bullet in "-+*"}  # _MARKER's bullets, by their byte
_DELIMITER_CELL = re.compile(r"^:?-{3,}:?$")

# A table row: its first line, its cells (raw source, escaped pipes unescaped), whether it is the header.
Row = tuple[int, list[str], bool]


def table_groups(rows: list[Row], first_line: int) -> list[tuple[int, list[str], list[Row]]]:
    """Split rows where a body row is a delimiter row ("|---|---|"): two tables with no blank
    line between them read as one, and the row above that delimiter is the second's header."""
    header = next((cells for _, cells, head in rows if head), [])
    body = [r for r in rows if not r[2]]
    groups = [(first_line, header, [])]  # type: list[tuple[int, list[str], list[Row]]]
    for row in body:
        is_delimiter = row[1] and all(_DELIMITER_CELL.match(c) for c in row[1])
        # The group's last body row is the row above: each row either joins the current group or
        # opens an empty one. (Not ``groups[-1][2][-1] is body[n - 1]``: mypyc unboxes these tuples,
        # so their identity is not kept and the compiled build never split the two tables.)
        if is_delimiter and groups[-1][2]:
            new_header = groups[-1][2].pop()
            groups.append((new_header[0], new_header[1], []))
            continue
        groups[-1][2].append(row)
    return groups


class BlockSink(Protocol):
    """What the walk calls, block by block in document order (markdown.py's builder). A block is
    given as its source lines [first, last)."""

    def front_matter(self, first: int, last: int, content: str) -> None: ...

    def block(self, kind: str, first: int, last: int) -> None: ...  # "paragraph", "html" or "rule"

    def heading(self, first: int, last: int, level: int, title: str) -> None: ...

    def code(self, first: int, last: int, fence: bool, info: str) -> None: ...

    def open_list(self, first: int, last: int, ordered: bool) -> None: ...

    # A list item's own lines end at the first list or code block nested directly in it, which the
    # walk only reaches later: end_own_lines says where (at the item's close, they end at its last).
    def open_item(self, first: int, last: int, marker: str) -> bool: ...

    def end_own_lines(self, line: int) -> None: ...

    def open_quote(self, first: int, last: int) -> None: ...

    def close(self) -> None: ...  # the innermost list, list item or block quote ends

    def table(self, first: int, last: int, rows: list[Row]) -> None: ...


class Unsupported(Exception):
    """This document is left to markdown-it (the reason is in the message)."""


def walk(text: str, sink: BlockSink, line_starts: list[int] | None = None) -> bool:
    """Call ``sink`` with the blocks of ``text``; False where markdown-it must parse it (the sink
    then holds part of the document only). ``line_starts``: the text's, if the caller has them."""
    try:
        _Converter(text, sink, line_starts).run()
    except Unsupported:
        return False
    return True


def tokens(text: str, line_starts: list[int] | None = None) -> list[tuple[str, int, int]] | None:
    """The block calls ``walk`` makes for ``text`` as (call, first line, last line), or None where
    markdown-it must parse it (for tests and benchmarks: what pyromark finds, and how fast)."""
    recorder = _Recorder()
    return recorder.calls if walk(text, recorder, line_starts) else None


class _Recorder:
    """A BlockSink that only records the calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def front_matter(self, first: int, last: int, content: str) -> None:
        self.calls.append(("front_matter", first, last))

    def block(self, kind: str, first: int, last: int) -> None:
        self.calls.append((kind, first, last))

    def heading(self, first: int, last: int, level: int, title: str) -> None:
        self.calls.append(("heading", first, last))

    def code(self, first: int, last: int, fence: bool, info: str) -> None:
        self.calls.append(("code", first, last))

    def open_list(self, first: int, last: int, ordered: bool) -> None:
        self.calls.append(("list", first, last))

    def open_item(self, first: int, last: int, marker: str) -> bool:
        self.calls.append(("list_item", first, last))
        return True

    def end_own_lines(self, line: int) -> None:
        self.calls.append(("own_lines_end", line, line))

    def open_quote(self, first: int, last: int) -> None:
        self.calls.append(("blockquote", first, last))

    def close(self) -> None:
        self.calls.append(("close", -1, -1))

    def table(self, first: int, last: int, rows: list[Row]) -> None:
        self.calls.append(("table", first, last))


@dataclass
class _Converter:
    text: str
    sink: BlockSink
    char_starts: list[int] | None = None  # line starts of the text, in characters
    depth: int = 0
    # The table being read: its lines, its rows, and the row being read (its first line, its cells).
    table_lines: tuple[int, int] = (0, 0)
    rows: list[Row] = field(default_factory=list)
    row_line: int = 0
    cells: list[str] = field(default_factory=list)

    def run(self) -> None:
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

    # -- front matter: mdit_py_plugins' rule, reproduced (pulldown-cmark's differs) -----------
    def front_matter(self) -> str:
        """Give the front matter, if any, and return the text with it blanked out (same line
        count, spaces instead of its characters) for pulldown-cmark to parse the rest."""
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
        self.sink.front_matter(0, len(lines), content)
        blanked = "".join(re.sub(r"[^\r\n]", " ", line) for line in lines)
        return blanked + rest

    # -- ranges → line ranges -------------------------------------------------------------
    def line_map(self, start: int, end: int) -> tuple[int, int]:
        """Lines [first, last + 1) of the non-blank bytes in [start, end)."""
        bounds, src = self.bounds, self.src
        while start < end and src[start] in _WS:  # skip_blank, written out: once per block
            start += 1
        first = bisect.bisect_right(bounds, start) - 1
        if end <= bounds[first + 1]:  # most blocks: the range ends on its first line
            return first, first + 1
        while end > start and src[end - 1] in _WS:
            end -= 1
        if end <= start:
            return first, first + 1
        return first, bisect.bisect_right(bounds, end - 1, first)

    def skip_blank(self, start: int, end: int) -> int:
        """Where a block's source really starts: a block indented by a tab can start at the end of
        the line before it (pulldown-cmark counts that line break into it), and then its first
        line, list marker and fence are those of its first non-blank byte."""
        src = self.src
        while start < end and src[start] in _WS:
            start += 1
        return start

    def line_text(self, start: int, line: int) -> str:
        """The source from byte ``start`` to the end of its line, ``line``."""
        return self.src[start : self.bounds[line + 1]].rstrip(b"\r\n").decode()

    def marker(self, start: int, line: int) -> str:
        """The marker of the list item at ``start``, as markdown-it reports it: the digits of an
        ordered item, else the bullet (read from the bytes: the rest of the line is not needed)."""
        bullet = _BULLETS.get(self.src[start]) if start < len(self.src) else None
        if bullet is not None:  # (most items: no match object, no bytes to decode)
            return bullet
        found = _MARKER.match(self.src, start)
        return found.group().decode() if found else _marker(self.line_text(start, line))

    # -- the event walk ------------------------------------------------------------------
    def walk(self, source: str) -> None:
        """One pass over the events. Ordered for speed: most events are inline text, which only
        matters directly inside a tight list item (markdown-it makes a paragraph of it), and
        there only past the item's own lines: on them (before a nested list or code block, which
        end them: markdown.py's open_item) the builder hides every block, that paragraph too."""
        stack: list[str] = []  # open block tags
        past_own: set[int] = set()  # items (their places on the stack) past their own lines
        collect = False  # the innermost open block is such an item: its inline text is collected
        loose = [-1, -1]  # byte range of the inline text collected, [-1, -1] for none
        sink, line_map = self.sink, self.line_map
        # Typed as Any: the events are matched by their dict keys (typed dicts do not narrow on them).
        events: Iterator[tuple[Any, Any]] = pyromark.events_with_range(source, options=_OPTIONS)
        for event, rng in events:
            if event.__class__ is str:
                if event == "Rule":
                    self.flush(loose)
                    first, last = line_map(rng["start"], rng["end"])
                    sink.block("rule", first, last)
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
                    first, last = line_map(rng["start"], rng["end"])
                    sink.block("paragraph", first, last)
                    _past_paragraph(events)
                    continue  # (the stack, and so collect, is what it was before the paragraph)
                in_item = bool(stack) and stack[-1] == "Item"
                self.open(name, tag, rng["start"], rng["end"], in_item)
                if in_item and name in _ENDS_OWN_LINES:
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
                if name in _CONTAINERS:
                    self.depth -= 1
                    sink.close()
                    if name == "Item":
                        past_own.discard(len(stack))  # its place, free again
                elif name in ("TableHead", "TableRow"):
                    self.rows.append((self.row_line, self.cells, name == "TableHead"))
                elif name == "Table":
                    self.depth -= 1
                    first, last = self.table_lines
                    sink.table(first, last, self.rows)
                collect = bool(stack) and stack[-1] == "Item" and len(stack) - 1 in past_own
            elif collect:
                if loose[0] < 0:
                    loose[0] = rng["start"]
                loose[1] = rng["end"]

    def flush(self, loose: list[int]) -> None:
        """Inline text directly in a tight list item is a paragraph to markdown-it."""
        if loose[0] >= 0:
            first, last = self.line_map(loose[0], loose[1])
            self.sink.block("paragraph", first, last)
            loose[0] = loose[1] = -1

    def open(self, name: str, tag: Any, start: int, end: int, in_item: bool) -> None:
        """A block other than a paragraph opens (``in_item``: directly in a list item)."""
        start = self.skip_blank(start, end)
        sink = self.sink
        if name == "Heading":
            self.heading(tag["Heading"]["level"], start, end)
            return
        if name == "TableCell":  # (no line range: markdown.py reads a cell's text only)
            self.cells.append(self.src[start:end].decode().replace("\\|", "|").strip())
            return
        first, last = self.line_map(start, end)
        if name == "Item":
            sink.open_item(first, last, self.marker(start, first))
            self.nest()
        elif name == "CodeBlock":
            if in_item:
                sink.end_own_lines(first)
            fence = tag["CodeBlock"] != "Indented"
            sink.code(first, last, fence, _fence_info(self.line_text(start, first)) if fence else "")
        elif name == "HtmlBlock":
            sink.block("html", first, last)
        elif name == "List":
            if in_item:
                sink.end_own_lines(first)
            sink.open_list(first, last, tag["List"] is not None)
            self.nest()
        elif name == "BlockQuote":
            sink.open_quote(first, last)
            self.nest()
        elif name == "Table":
            self.table_lines, self.rows = (first, last), []
            self.nest()
        elif name in ("TableHead", "TableRow"):
            self.row_line, self.cells = first, []
        elif name == "MetadataBlock":  # not enabled: front matter is found as markdown-it finds it
            raise Unsupported("metadata block")

    def nest(self) -> None:
        """A container opened: one level deeper."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unsupported("nested near markdown-it's nesting limit")

    def heading(self, level: str, start: int, end: int) -> None:
        first, stop = self.line_map(start, end)
        if stop - first == 1:  # ATX: one line
            title = _atx_title(self.line_text(start, first))
        elif stop - first == 2 or self.depth == 0:  # setext: the lines above the underline
            title = self.setext_title(start, first, stop - 1)
        else:
            raise Unsupported("multi-line setext heading inside a container")
        self.sink.heading(first, stop, int(level[1]), title)

    def setext_title(self, start: int, first: int, underline: int) -> str:
        if underline - first == 1:
            return self.line_text(start, first).strip()
        # Top level: markdown-it joins the raw lines (with their indentation), then strips.
        body = self.src[self.line_starts[first] : self.line_starts[underline]].decode()
        return "\n".join(_LINE_END_STR.split(body)).strip()


def _past_paragraph(events: Iterator[tuple[Any, Any]]) -> None:
    """Take a paragraph's events up to and with its end: inline content only, never a block,
    and nothing the walk reads (one comparison an event instead of the walk's dispatch)."""
    for event, _ in events:
        if event == _PARAGRAPH_END:
            return


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
