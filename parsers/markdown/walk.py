"""Markdown block structure from markdown-it-py's tokens, walked into the builder of parsers/markdown/__init__.py.

The walk makes the calls of a ``TokenSink`` (the package's builder), block by block in document
order; markdown-it's tokens carry line maps, so the calls are read off them directly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

MAX_NESTING = 100
_DELIMITER_CELL = re.compile(r"^:?-{3,}:?$")
_LIST_OPEN = ("bullet_list_open", "ordered_list_open")
_ENDS_OWN_LINES = frozenset((*_LIST_OPEN, "fence", "code_block"))  # in a list item (see _own_end)
# Tokens that close a frame (a table's tokens are read by _table_rows).
_FRAME_CLOSE = frozenset(("bullet_list_close", "ordered_list_close", "list_item_close", "blockquote_close"))


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
        # opens an empty one.
        if is_delimiter and groups[-1][2]:
            new_header = groups[-1][2].pop()
            groups.append((new_header[0], new_header[1], []))
            continue
        groups[-1][2].append(row)
    return groups


class BlockSink(Protocol):
    """What the walk calls, block by block in document order (the package's builder). A block is
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


class TokenSink(BlockSink, Protocol):
    def hidden(self, line: int) -> bool: ...  # a block starting on this line is part of a list item's text


@lru_cache(maxsize=2)
def _md(front_matter: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table")
    if front_matter:
        md.use(front_matter_plugin)
    # Only block structure is needed (inline tokens keep their raw content); inline
    # parsing of links and emphasis was most of the parse time.
    md.core.ruler.disable(["inline", "text_join"])
    return md


# What can make a heading's source differ from its text: emphasis, code, links, images, entities,
# escapes, inline HTML (most headings hold none, and are their own text).
_INLINE_MARKS = frozenset("*_`[]!&<\\")


@lru_cache(maxsize=1)
def _inline_md() -> MarkdownIt:
    return MarkdownIt("commonmark")


def plain_text(source: str) -> str:
    """An inline source as a reader sees it: ``How is it different from [`got`](https://…)?`` is
    "How is it different from got?", ``&amp;`` is "&", an image its alt text, inline HTML tags
    nothing. A heading's title in a section path is its text, not its markup."""
    if _INLINE_MARKS.isdisjoint(source):
        return source
    if _INLINE_MARKS.isdisjoint(source.replace("`", "")) and source.count("`") % 2 == 0:
        return " ".join(source.replace("`", "").split())  # code spans only (most marked titles)
    blocks = _inline_md().parseInline(source)
    children = blocks[0].children if blocks else None
    if not children:
        return source
    parts = []
    for tok in children:
        if tok.type in ("text", "code_inline"):
            parts.append(tok.content)
        elif tok.type == "image":
            parts.append("".join(child.content for child in tok.children or ()))
        elif tok.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return " ".join("".join(parts).split())


def block_tokens(text: str, front_matter: bool = True) -> list[Token]:
    """markdown-it's block tokens (without ``front_matter``, a first ``---`` block is Markdown)."""
    return _md(front_matter).parse(text)


def walk(sink: TokenSink, tokens: Sequence[Token]) -> int:
    """Call ``sink`` with the blocks of markdown-it's tokens; the deepest nesting level among them
    (near MAX_NESTING, markdown-it kept the deeper blocks as text)."""
    deepest = 0
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        i += 1
        if tok.level > deepest:
            deepest = tok.level
        kind = tok.type
        if kind in _FRAME_CLOSE:
            sink.close()
            continue
        if tok.map is None or kind.endswith("_close"):
            continue
        first, last = tok.map
        if kind == "paragraph_open":
            sink.block("paragraph", first, last)
        elif kind == "list_item_open":
            if sink.open_item(first, last, tok.info or tok.markup):
                sink.end_own_lines(_own_end(tokens, i - 1))
        elif kind == "heading_open":
            sink.heading(first, last, int(tok.tag[1]), tokens[i].content)
        elif kind in _LIST_OPEN:
            sink.open_list(first, last, kind == "ordered_list_open")
        elif kind in ("fence", "code_block"):
            sink.code(first, last, kind == "fence", tok.info)
        elif kind == "html_block":
            sink.block("html", first, last)
        elif kind == "hr":
            sink.block("rule", first, last)
        elif kind == "blockquote_open":
            sink.open_quote(first, last)
        elif kind == "table_open":
            hidden = sink.hidden(first)
            rows, i, inner = _table_rows(tokens, i)
            if hidden:  # (a hidden table's tokens were walked one by one, and counted)
                deepest = max(deepest, inner)
            sink.table(first, last, rows)
        elif kind == "front_matter":
            sink.front_matter(first, last, tok.content)
    return deepest


def _own_end(tokens: Sequence[Token], i: int) -> int:
    """Where the own lines of the list item opened by ``tokens[i]`` end: at the first list or code
    block nested directly in it, else at its last line."""
    tok = tokens[i]
    assert tok.map is not None
    depth, inside = tok.level, tok.level + 1
    for j in range(i + 1, len(tokens)):  # indices, not a slice: a slice copies the rest of the list
        nxt = tokens[j]
        if nxt.type == "list_item_close":
            if nxt.level == depth:
                break
        elif nxt.level == inside and nxt.type in _ENDS_OWN_LINES and nxt.map:
            return nxt.map[0]
    return tok.map[1]


def _table_rows(tokens: Sequence[Token], i: int) -> tuple[list[Row], int, int]:
    """The rows of the table whose tokens start at ``tokens[i]`` (after its table_open), the index
    past its table_close, and the deepest level among its tokens."""
    rows: list[Row] = []
    cells: list[str] = []
    row_line = -1
    in_head = False
    deepest = 0
    while i < len(tokens) and tokens[i].type != "table_close":
        t = tokens[i]
        deepest = max(deepest, t.level)
        if t.type == "thead_open":
            in_head = True
        elif t.type == "thead_close":
            in_head = False
        elif t.type == "tr_open":
            cells, row_line = [], t.map[0] if t.map else -1
        elif t.type == "inline":
            cells.append(t.content.strip())
        elif t.type == "tr_close" and row_line >= 0:
            rows.append((row_line, cells, in_head))
        i += 1
    if i < len(tokens):
        deepest = max(deepest, tokens[i].level)
    return rows, i + 1, deepest
