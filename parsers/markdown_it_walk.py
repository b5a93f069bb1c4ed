"""Markdown block structure from markdown-it-py's tokens, walked into markdown.py's builder.

The other engine beside pulldown-cmark (markdown_pyromark.py), and the one that parses every
document pyromark leaves to it (front matter it cannot place, nesting near the limit, a multi-line
setext heading inside a container). Both walks make the same calls of a ``TokenSink`` (markdown.py's
builder), block by block in document order; markdown-it's tokens carry line maps, so the calls are
read off them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from parsegate.parsers.markdown_pyromark import BlockSink, Row

MAX_NESTING = 100
_LIST_OPEN = ("bullet_list_open", "ordered_list_open")
_ENDS_OWN_LINES = frozenset((*_LIST_OPEN, "fence", "code_block"))  # in a list item (see _own_end)
# Tokens that close a frame (a table's tokens are read by _table_rows).
_FRAME_CLOSE = frozenset(("bullet_list_close", "ordered_list_close", "list_item_close", "blockquote_close"))


class TokenSink(BlockSink, Protocol):
    def hidden(self, line: int) -> bool: ...  # a block starting on this line is part of a list item's text


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table").use(front_matter_plugin)
    # Only block structure is needed (inline tokens keep their raw content); inline
    # parsing of links and emphasis was most of the parse time.
    md.core.ruler.disable(["inline", "text_join"])
    return md


def block_tokens(text: str) -> list[Token]:
    """markdown-it's block tokens (pyromark's events go straight to the builder instead)."""
    return _md().parse(text)


def walk(sink: TokenSink, tokens: Sequence[Token]) -> int:
    """Call ``sink`` with the blocks of markdown-it's tokens (as markdown_pyromark.walk does with
    pulldown-cmark's events); the deepest nesting level among them (near MAX_NESTING, markdown-it
    kept the deeper blocks as text)."""
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
