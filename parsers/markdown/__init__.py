"""Markdown → Document: block structure from markdown-it-py (walk.py), built into
elements here.

Offsets come only from token line maps and the line-start table of the source;
the source is never searched for a string. Leaves (headings, paragraphs, list
items' own lines, table rows, code, HTML) have non-overlapping spans; containers
(lists, tables, block quotes) enclose them and carry structure such as a list's
lead-in paragraph or a table's header.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import markdown_it

from parsegate.parsers.build.data import code_data, row_data
from parsegate.parsers.build.headings import HeadingStack
from parsegate.parsers.build.order import in_reading_order, renumbered
from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.formats import spec
from parsegate.parsers.markdown import walk
from parsegate.parsers.markdown.walk import Row, table_groups
from parsegate.parsers.model import (
    CONTAINER_KINDS,
    CodeData,
    Data,
    Document,
    Element,
    ItemData,
    ListData,
    ParseWarning,
    TableData,
    TextData,
    content_version,
    line_starts,
    trim_span,
)
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.signals.flat_tables import find_tables, table_elements
from parsegate.parsers.signals.headings import suspect_heading
from parsegate.parsers.signals.wiki_headings import split_wiki_headings

NAME = "markdown"
SPEC = spec(NAME)  # parsers/formats.py: suffixes, output version
OUTPUT_VERSION = SPEC.output_version
SUFFIXES = SPEC.suffixes
# Deeper nesting stays as text of the innermost parsed item: markdown-it's block
# parser recurses per level, and Python's stack is not a place to spend on it.
MAX_NESTING = walk.MAX_NESTING
_EVERY_LINE = 1 << 62  # a hidden frame hides every block in it


# Part of every chunk_set: chunk ids name the library that found the structure.
VERSION = f"{OUTPUT_VERSION}+markdown-it-py/{markdown_it.__version__}"


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``options`` and ``suffix`` change nothing here: one form, no limit applies."""
    text, encoding_note = decode_noted(data)
    builder = _built(text)
    builder.split_flat_tables()
    builder.recover_gaps()
    if builder.title_from_heading and builder.top_headings > 1:
        # Several level-1 headings (documents concatenated, a page of parts): the first one is not
        # the title of the others, and must not ride in the breadcrumb of every chunk after it.
        del builder.metadata["title"]
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format="markdown",
        text=text,
        elements=builder.renumbered(),
        metadata=builder.metadata,
        parser=f"{NAME} {VERSION}",
        warnings=builder.warnings,
        _line_starts=builder.starts,  # line_starts(text), already built: not twice per document
    )
    starts, line_of = builder.starts, bisect.bisect_right  # Document.lines_of, written out: once per element
    for el in doc.elements:
        if el.lines is None:  # (emit gives its elements theirs)
            start, last = el.start, el.end - 1
            el.lines = (line_of(starts, start), line_of(starts, last if last > start else start))
    split_wiki_headings(doc)  # a wiki's text saved as .md: its '= Title =' lines are its headings
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    if encoding_note is not None:
        doc.warnings.insert(0, encoding_note)
    return doc


def _front_matter(content: str) -> tuple[dict[str, Any], str | None]:
    """A leading ``---`` block's YAML mapping, or why it is not front matter: YAML that does not
    parse, or parses to no mapping (a sentence between two rules), is the document's own text, and
    dropping it as metadata would lose it (issue 39)."""
    import yaml  # here: few documents have front matter, and PyYAML took 10 ms of a worker's start

    try:
        loaded = yaml.safe_load(content)
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()
        return {}, f"it is not valid YAML ({first[0] if first else type(exc).__name__})"
    if loaded is None:
        return {}, None
    if not isinstance(loaded, dict):
        return {}, f"its YAML is a {type(loaded).__name__}, not a mapping of keys to values"
    return loaded, None


def _built(text: str) -> _Builder:
    """The elements of ``text``, from the blocks markdown-it finds."""
    builder = _Builder(text, line_starts(text))
    tokens = walk.block_tokens(text)
    if tokens and tokens[0].type == "front_matter":
        builder.front, why = _front_matter(tokens[0].content)
        if why is not None:  # not front matter: its lines are the document's own (rule, text, heading…)
            builder.warnings.append(ParseWarning("front_matter", f"not read as front matter: {why}", "line 1"))
            tokens = walk.block_tokens(text, front_matter=False)
    if walk.walk(builder, tokens) >= MAX_NESTING - 3:
        builder.warnings.append(
            ParseWarning(
                "nesting_limit",
                f"blocks nested deeper than about {MAX_NESTING // 2} levels are kept"
                " as text of the innermost parsed block",
            )
        )
    return builder


def _without_attribute_list(title: str) -> str:
    """``title`` without an attribute list at its end ("## Title { #anchor }", as MkDocs and
    friends write them: not part of the title), that is the white space, then ``{``, no brace,
    a ``#``, no brace, ``}`` and white space to the end. Read with str methods: the pattern this
    was (``\\s*\\{[^{}]*#[^{}]*\\}\\s*$``, the same rule) tried a match at every character
    of every title, and nearly every fastapi heading has such a list."""
    body = title.rstrip()
    if not body.endswith("}"):
        return title
    opening = body.rfind("{")
    if opening < 0 or "#" not in body[opening:] or "}" in body[opening + 1 : -1]:
        return title
    return body[:opening].rstrip()


@lru_cache(maxsize=1)
def _code_parser() -> Any:
    """The code parser, when the code extra (tree-sitter) is installed: a fence in a known
    language is then split at its definitions; without it a fence stays one code block."""
    try:
        from parsegate.parsers import code
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in ("tree_sitter", "tree_sitter_language_pack"):
            return None
        raise
    return code


# -- the builder -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Frame:
    """An open list, list item, block quote or table, as the builder sees it."""

    element: Element | None  # None for a hidden frame (inside a list item's own lines), and the root
    # Answers that depend only on the frames below and this one, kept with it when it is pushed
    # (asked once per block, they were a walk down the stack each time):
    parent: str | None = None  # id of the innermost element of this frame or one below it
    hides_below: int = 0  # blocks starting on a line before this one are hidden (see _Builder.hidden)
    lists: int = 0  # list elements in this frame and below it
    # A list item whose own lines have not ended yet: its first and last lines, level and marker
    # (see _Builder.open_item).
    pending: tuple[int, int, int, str] | None = None


class _Builder:
    """Elements from blocks given in document order as source lines [first, last) (the calls of
    walk.TokenSink), by walk.walk."""

    def __init__(self, text: str, starts: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.elements: list[Element] = []
        self.frames: list[_Frame] = [_Frame(None)]  # the root: no parent, nothing hidden
        self.headings = HeadingStack()
        self.metadata: dict[str, Any] = {}
        self.top_headings = 0  # level-1 headings (a second one means the first titles a part only)
        self.title_from_heading = False
        self.front: dict[str, Any] = {}  # the front matter's YAML mapping (_front_matter)
        self.warnings: list[ParseWarning] = []
        self.prev: Element | None = None
        # Ids are e0, e1, … in list order (emit and recover_gaps number them so) until
        # split_flat_tables gives a paragraph's pieces ids of their own.
        self.ids_in_order = True

    # -- spans -------------------------------------------------------------
    def span(self, first_line: int, end_line: int) -> tuple[int, int]:
        """Character span of source lines [first_line, end_line), whitespace trimmed."""
        n = len(self.starts)
        start = self.starts[first_line] if first_line < n else len(self.text)
        end = self.starts[end_line] if end_line < n else len(self.text)
        return trim_span(self.text, start, end)

    # -- emission ----------------------------------------------------------
    def push_frame(self, element: Element | None, hidden: bool = False) -> None:
        """A list, block quote or table opens (list items: open_item)."""
        below = self.frames[-1]
        frame = _Frame(element, below.parent, below.hides_below, below.lists)
        if hidden:
            frame.hides_below = _EVERY_LINE
        elif element is not None:
            frame.parent = element.id
            if element.kind == "list":
                frame.lists += 1
        self.frames.append(frame)

    def emit(
        self, kind: str, first: int, last: int, level: int | None = None, data: Data | None = None
    ) -> Element | None:
        """The element of source lines [first, last), None if they are blank."""
        start, end = self.span(first, last)
        if start >= end:
            return None
        if last - first == 1:  # one line (most blocks): no search for it
            lines = (first + 1, first + 1)
        else:  # Document.lines_of, from the block's first line on
            starts = self.starts
            lines = (bisect.bisect_right(starts, start, first), bisect.bisect_right(starts, end - 1, first))
        ident, path, parent = f"e{len(self.elements)}", self.headings.path(), self.frames[-1].parent
        if data is None:  # (keywords and a default made each element slower to build)
            el = Element(ident, kind, start, end, level, path, parent, lines)
        else:
            el = Element(ident, kind, start, end, level, path, parent, lines, data=data)
        self.elements.append(el)
        if kind not in CONTAINER_KINDS:  # el.is_container
            self.prev = el
        return el

    def hidden(self, line: int) -> bool:
        """True for blocks inside a list item's own lines (they are part of the item's text): the
        innermost hidden frame or list item decides (``push_frame`` keeps its answer)."""
        return line < self.frames[-1].hides_below

    def lead_in(self) -> str | None:
        """The paragraph that introduces the list or table about to be emitted, if any."""
        prev = self.prev
        if prev is None or prev.kind != "paragraph" or prev.parent != self.frames[-1].parent:
            return None
        return prev.id if prev.section_path == self.headings.path() else None

    # -- blocks (walk.BlockSink) ------------------------------
    def block(self, kind: str, first: int, last: int) -> None:
        """A paragraph, an HTML block or a rule: "paragraph", "html" or "rule"."""
        if first >= self.frames[-1].hides_below:  # not self.hidden(first): the most frequent call
            self.emit(kind, first, last)

    def code(self, first: int, last: int, fence: bool, info: str) -> None:
        if self.hidden(first):
            return
        info = info.strip()
        language = info.split()[0] if info else None
        el = self.emit("code", first, last, data=code_data(language, info))
        item = self.frames[-1].element
        if el is not None and item is not None and item.kind == "list_item" and self.elements[-2:-1] == [item]:
            assert isinstance(el.data, CodeData)
            el.data.lead_in = item.id  # "1. Install it:" introduces its code
        code = _code_parser()
        if el is None or not fence or not language or code is None:
            return
        if language.lower() in code.ALIASES:
            self.code_parts(el, first, code.ALIASES[language.lower()])

    def code_parts(self, el: Element, fence_line: int, language: str) -> None:
        """A fence in a known language is split, when over budget, at its definitions."""
        first = fence_line + 1  # the line after the opening fence
        start = self.starts[first] if first < len(self.starts) else el.end
        body = self.text[start : el.end]
        closing = body.rfind("\n")
        body = body[:closing] if closing > 0 else body  # without the closing fence line
        code = _code_parser()
        assert code is not None  # only called when it is there
        spans = code.top_level_spans(body, language)
        assert isinstance(el.data, CodeData)
        el.data.language = language
        el.data.parts = [[s + start, e + start] for s, e in spans]

    def front_matter(self, first: int, last: int, content: str) -> None:
        self.emit("front_matter", first, last)  # (first in the document: never hidden)
        # YAML dates and other non-JSON values pass through as their text form.
        self.metadata.update(json.loads(json.dumps(self.front, default=str)))

    def heading(self, first: int, last: int, level: int, title: str) -> None:
        """A heading, ``title`` as markdown-it gives it (raw source, attribute list and all)."""
        if self.hidden(first):
            return
        title = walk.plain_text(_without_attribute_list(title).strip())
        reason = suspect_heading(title)
        if reason is not None:
            self.warnings.append(
                ParseWarning("suspect_heading", f"not a heading, read as a paragraph: {reason}", f"line {first + 1}")
            )
            self.emit("paragraph", first, last)
            return
        self.headings.push(level, title)
        el = self.emit("heading", first, last, level=level)
        if el is not None and level == 1:
            self.top_headings += 1
            if "title" not in self.metadata:
                self.metadata["title"] = title
                self.title_from_heading = True

    def open_list(self, first: int, last: int, ordered: bool) -> None:
        if self.hidden(first):
            self.push_frame(None, hidden=True)
            return
        data = ListData(ordered=ordered, lead_in=self.lead_in())
        depth = self.frames[-1].lists
        self.push_frame(self.emit("list", first, last, level=depth + 1, data=data))

    def open_quote(self, first: int, last: int) -> None:
        if self.hidden(first):
            self.push_frame(None, hidden=True)
        else:
            self.push_frame(self.emit("blockquote", first, last))

    def open_item(self, first: int, last: int, marker: str) -> bool:
        """A list item: its element spans its own lines, up to the first list or code block nested
        directly in it (end_own_lines), which pulldown-cmark's events reach only later. Until then
        it is pending, and hides every block in it; the blocks before that are part of its text.
        True when it is pending (visible), False when it is hidden itself."""
        below = self.frames[-1]
        if first < below.hides_below:  # self.hidden(first), written out: once per item
            self.push_frame(None, hidden=True)
            return False
        level = below.element.level if below.element is not None and below.element.level else 1
        self.frames.append(_Frame(None, below.parent, _EVERY_LINE, below.lists, (first, last, level, marker)))
        return True

    def end_own_lines(self, line: int) -> None:
        """The pending list item's own lines end before ``line``: its element is emitted, and the
        blocks in it from there on are visible. (Its own lines ended already, or it is hidden: nothing.)"""
        frame = self.frames[-1]
        pending = frame.pending
        if pending is None:
            return
        frame.pending = None
        el = self.emit_item(pending, line)
        if el is None:  # blank: it hides what the frame below it hides
            frame.hides_below = self.frames[-2].hides_below
        else:  # its own lines, whatever holds the item
            frame.element, frame.parent, frame.hides_below = el, el.id, line

    def emit_item(self, pending: tuple[int, int, int, str], end_line: int) -> Element | None:
        """The element of a pending list item whose own lines end before ``end_line``."""
        return self.emit("list_item", pending[0], end_line, level=pending[2], data=ItemData(marker=pending[3]))

    def close(self) -> None:
        """The innermost list, list item or block quote ends."""
        frame = self.frames.pop()
        if frame.pending is not None:  # a list item with no list or code block in it: all its lines are its own
            # Emitted with its frame popped already (nothing is left to hide or to parent in it):
            # the frame below has the same parent as the item's own frame.
            self.emit_item(frame.pending, frame.pending[1])

    def table(self, first: int, last: int, rows: list[Row]) -> None:
        """A table, or several (see walk.table_groups): each a container, a header row (with the
        delimiter row) and body rows."""
        if self.hidden(first):
            return
        lead_in = True
        for start_line, header, body in table_groups(rows, first):
            end_line = body[-1][0] + 1 if body else last
            if self.table_group(start_line, end_line, header, body, lead_in) is None:
                break
            lead_in = False

    def table_group(
        self, start_line: int, end_line: int, header: list[str], body: list[Row], lead_in: bool
    ) -> Element | None:
        """One table: its container, its header row (with the delimiter row) and its body rows."""
        data = TableData(header=header, rows=len(body), lead_in=self.lead_in() if lead_in else None)
        table = self.emit("table", start_line, end_line, data=data)
        if table is None:
            return None
        self.push_frame(table)
        # The delimiter row opens the first body row: a row group that starts a chunk carries the
        # header in its context, so the delimiter never starts a chunk without its header.
        head_end = start_line + 1 if body else end_line
        head = self.emit("table_row", start_line, head_end, data=row_data(header, True))
        if head is not None:
            data.header_text = self.text[head.start : self.span(start_line, start_line + 1)[1]]
        for n, (row_line, row_cells, _) in enumerate(body):
            self.emit("table_row", head_end if n == 0 else row_line, row_line + 1, data=row_data(row_cells, False))
        self.frames.pop()
        self.prev = table
        return table

    # -- completion ----------------------------------------------------------
    def split_flat_tables(self) -> None:
        """A paragraph whose lines are ``a | b | c`` rows without a delimiter row holds a table
        that lost its markup (CommonMark reads it as prose): its rows become table rows."""
        out: list[Element] = []
        replaced: dict[str, str | None] = {}
        text = self.text
        for el in self.elements:
            if el.kind != "paragraph" or (
                text.find("|", el.start, el.end) < 0 and text.find("\t", el.start, el.end) < 0
            ):
                out.append(el)  # (find, not a slice: most paragraphs have neither)
                continue
            pieces = self._paragraph_with_tables(el, len(out))
            if pieces != [el]:
                # A list after it is led in by its last sentence, not by a table.
                replaced[el.id] = pieces[-1].id if pieces[-1].kind == "paragraph" else None
            out.extend(pieces)
        self.ids_in_order = self.ids_in_order and not replaced
        for el in out if replaced else ():  # (most documents have no such table: nothing to remap)
            data = el.data  # (a tuple for isinstance, not a union: see build.renumbered)
            if isinstance(data, (ListData, TableData, CodeData)) and data.lead_in in replaced:
                data.lead_in = replaced[data.lead_in]
        self.elements = out

    def _paragraph_with_tables(self, el: Element, ids: int) -> list[Element]:
        first, last = self.line_of(el.start), self.line_of(el.end - 1)
        lines = [self.line_span(n) for n in range(first, last + 1)]
        tables = find_tables(self.text, lines)
        if not tables:
            return [el]
        out: list[Element] = []
        cursor = el.start
        for n, table in enumerate(tables):
            out.extend(self._piece(el, cursor, table.lines[0][0], f"{el.id}.p{n}"))
            parts = table_elements(self.text, table, el.section_path, ids * 1000 + n)
            parts[0].parent = el.parent
            for part in parts:
                part.id = f"{el.id}.{part.id}"
                if part.kind == "table_row":
                    part.parent = parts[0].id
            out.extend(parts)
            cursor = table.lines[-1][1]
        out.extend(self._piece(el, cursor, el.end, f"{el.id}.p"))
        return out

    def _piece(self, el: Element, start: int, end: int, ident: str) -> list[Element]:
        start, end = trim_span(self.text, start, end)
        if end <= start:
            return []
        return [Element(ident, "paragraph", start, end, section_path=el.section_path, parent=el.parent)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def line_span(self, n: int) -> tuple[int, int]:
        start = self.starts[n]
        end = self.starts[n + 1] if n + 1 < len(self.starts) else len(self.text)
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return start, end

    def recover_gaps(self) -> None:
        """Text no block rule claimed (link definitions, stray markup) becomes its own element."""
        # Leaves, and front matter (not e.is_container, written out: once per element).
        occupied = sorted([(e.start, e.end) for e in self.elements if e.kind not in CONTAINER_KINDS])
        cursor = 0
        gaps: list[tuple[int, int]] = []
        text = self.text
        for start, end in [*occupied, (len(text), len(text))]:
            if start > cursor and not text[cursor:start].isspace():
                gaps.append((cursor, start))
            if end > cursor:
                cursor = end
        if not gaps:
            return
        headings = [e for e in self.elements if e.kind == "heading"]
        heading_starts = [e.start for e in headings]
        for gap in gaps:
            start, end = trim_span(self.text, *gap)
            kind = "paragraph" if any(c.isalnum() for c in self.text[start:end]) else "markup"
            at = bisect.bisect_right(heading_starts, start)
            section = headings[at - 1].section_path if at else ()
            self.elements.append(
                Element(f"e{len(self.elements)}", kind, start, end, section_path=section, data=TextData(recovered=True))
            )

    def renumbered(self) -> list[Element]:
        """Elements in reading order (containers before their first child), ids renumbered to match."""
        if self.ids_in_order and in_reading_order(self.elements):
            # What renumbered would return, as the blocks come in reading order (all of the fastapi
            # docs): its sort keeps the order, every id and reference stays what it is.
            return self.elements
        return renumbered(self.elements)
