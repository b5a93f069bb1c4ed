"""A reStructuredText file read on its own by docutils (not parsegate's parser, which maps
docutils' blocks onto source lines): the text of every text node of the doctree, and the section
titles with the source lines they stand on.

- ``rst_reading``: each text node's text (a paragraph's words, a literal block's, a table
  cell's, a directive docutils does not know kept as the literal text of its error node) — what
  a reader of the rendered document sees. Left out: comments (the parser declares them
  furniture), and docutils' own messages about the source ("Unknown directive type"), which are
  no text of it. Each node apart: ``\\ `` joins two nodes' texts in the output ("``x``\\ s"),
  not in the source, so a word never spans two nodes.
- ``rst_headings``: each section title as docutils reads it (its inline markup read), its level
  the section's depth, and its span: the title's lines with their adornment (docutils names the
  underline's line; the overline, when there is one, is the line above the title).

The recall check counts the reading's words against the chunks' (as multisets, beside the
source file's words by position); the heading check files chunks under these titles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LABEL = re.compile(r"\.\.[ \t]+_[^:`]+:$|\.\.[ \t]+_`[^`]+`:$")  # ".. _name:": it names what follows it
_OTHER_BREAKS = {c: " " for c in (0x0B, 0x0C, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029)}


@dataclass(frozen=True)
class RstTitle:
    start: int
    end: int
    level: int
    title: str


@lru_cache(maxsize=1)
def _settings() -> Any:
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser

    settings = get_default_settings(Parser)
    # No file read, nothing printed, nothing stops it.
    settings.file_insertion_enabled = False
    settings.raw_enabled = False
    settings.report_level = 5
    settings.halt_level = 5
    settings.warning_stream = False
    settings.syntax_highlight = "none"
    return settings


def _doctree(text: str) -> Any:
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    document = new_document("<reference>", _settings())
    try:
        Parser().parse(text.translate(_OTHER_BREAKS), document)
    except RecursionError:
        return None
    return document


@lru_cache(maxsize=1)  # the recall and heading checks of one document read it once
def _read(text: str) -> Any:
    return _doctree(text)


def rst_reading(text: str) -> list[str] | None:
    """The texts of the doctree's text nodes, in order; None when docutils cannot read it."""
    from docutils import nodes

    document = _read(text)
    if document is None:
        return None
    out: list[str] = []

    def visit(node: Any) -> None:
        if isinstance(node, nodes.Text):
            out.append(str(node))
            return
        if isinstance(node, nodes.comment):
            return
        if isinstance(node, nodes.system_message):  # only the source it quotes
            for child in node.children:
                if isinstance(child, nodes.literal_block):
                    visit(child)
            return
        for child in node.children:
            visit(child)

    visit(document)
    return [t for t in out if t.strip()]


def rst_headings(text: str) -> list[RstTitle]:
    """The section titles, in order, with their spans in ``text``."""
    from docutils import nodes

    document = _read(text)
    if document is None:
        return []
    starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
    lines = [text[s : starts[n + 1] if n + 1 < len(starts) else len(text)].strip() for n, s in enumerate(starts)]

    def adornment(n: int) -> bool:
        line = lines[n] if 0 <= n < len(lines) else ""
        return len(line) >= 2 and not line[0].isalnum() and line == line[0] * len(line)

    out: list[RstTitle] = []

    def visit(node: Any, depth: int) -> None:
        for child in node.children:
            if isinstance(child, nodes.section):
                visit(child, depth + 1)
            elif isinstance(child, nodes.title) and isinstance(node, nodes.section) and child.line:
                under = child.line - 1  # 0-based: the underline's line
                first = under - 1 if adornment(under) else under
                first -= 1 if adornment(first - 1) else 0
                first = _labelled(lines, first)
                end = starts[under + 1] if under + 1 < len(starts) else len(text)
                if 0 <= first < len(starts):
                    title = _roles_read(" ".join(child.astext().split()))
                    out.append(RstTitle(starts[first], end, depth, title))

    visit(document, 0)
    return out


_ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`]*)`")


def _role_shown(match: re.Match[str]) -> str:
    content = match.group(1)
    if content.endswith(">") and " <" in content:
        content = content[: content.rindex(" <")]
    content = content.lstrip("!")
    return content[1:].rsplit(".", 1)[-1] if content.startswith("~") else content


def _roles_read(title: str) -> str:
    """A title as a reader sees it: a role docutils does not know (Sphinx's ``:mod:`x```) shows
    its text; an explicit title before ``<target>`` shows alone; ``~a.b`` shows ``b``."""
    return _ROLE.sub(_role_shown, title)


def _labelled(lines: list[str], first: int) -> int:
    """The title's first line, or that of the labels (``.. _name:``) right above it, which name
    the section: a chunk that opens with them opens the section."""
    n = first - 1
    while n >= 0 and (not lines[n] or _LABEL.match(lines[n])):
        if lines[n]:
            first = n
        n -= 1
    return first
