"""Markdown → Document, with markdown-it-py.

Offsets come only from token line maps and the line-start table of the source;
the source is never searched for a string. Leaves (headings, paragraphs, list
items' own lines, table rows, code, HTML) have non-overlapping spans; containers
(lists, tables, block quotes) enclose them and carry structure such as a list's
lead-in paragraph or a table's header.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import markdown_it
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from parsegate.parsers import markdown_pyromark
from parsegate.parsers.build import HeadingStack, code_data, renumbered, row_data
from parsegate.parsers.decode import decode_noted
from parsegate.parsers.flat_tables import find_tables, table_elements
from parsegate.parsers.headings import suspect_heading
from parsegate.parsers.model import (
    CONTAINER_KINDS,
    NON_BODY_KINDS,
    CodeData,
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
from parsegate.parsers.versions import OUTPUT_VERSIONS

NAME = "markdown"
# Bumped whenever the elements this parser makes can change (tests/test_versions.py checks it
# against the golden outputs), so that the same span under changed code gets new chunk ids.
OUTPUT_VERSION = OUTPUT_VERSIONS["markdown"]
# The block parser: markdown-it-py, or pulldown-cmark through pyromark (parsegate/parsers/markdown_pyromark.py
# makes markdown-it's tokens from its events; the elements are the same, benchmarks/
# markdown_engines.py compares them). PARSEGATE_MARKDOWN_ENGINE picks one.
ENGINE_VARIABLE = "PARSEGATE_MARKDOWN_ENGINE"
ENGINES = ("markdown-it", "pyromark")
DEFAULT_ENGINE = "pyromark"
_MARKDOWN_IT = f"markdown-it-py/{markdown_it.__version__}"
SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".mdx")
# Deeper nesting stays as text of the innermost parsed item: markdown-it's block
# parser recurses per level, and Python's stack is not a place to spend on it.
MAX_NESTING = 100
_EVERY_LINE = 1 << 62  # a hidden frame hides every block in it

_DELIMITER_CELL = re.compile(r"^:?-{3,}:?$")
# "## Title { #anchor }" (attribute lists used by MkDocs and friends) is not part of the title.
_HEADING_ID = re.compile(r"\s*\{[^{}]*#[^{}]*\}\s*$")
_LIST_OPEN = ("bullet_list_open", "ordered_list_open")
_ENDS_OWN_LINES = frozenset((*_LIST_OPEN, "fence", "code_block"))  # in a list item (see open_item)
# Tokens that open and close a frame (see _Builder.push_frame).
_FRAME_OPEN = frozenset((*_LIST_OPEN, "list_item_open", "blockquote_open", "table_open"))
_FRAME_CLOSE = frozenset(
    ("bullet_list_close", "ordered_list_close", "list_item_close", "blockquote_close", "table_close")
)
AnyToken = Token | markdown_pyromark.BlockToken


def engine() -> str:
    """The block parser named by PARSEGATE_MARKDOWN_ENGINE (the default when unset)."""
    name = os.environ.get(ENGINE_VARIABLE, "") or DEFAULT_ENGINE
    if name not in ENGINES:
        raise ValueError(f"{ENGINE_VARIABLE}={name!r}: expected one of {', '.join(ENGINES)}")
    return name


def _engine_label(name: str) -> str:
    # pyromark's documents name markdown-it too: it parses what pyromark leaves to it.
    return f"{markdown_pyromark.ENGINE}+{_MARKDOWN_IT}" if name == "pyromark" else _MARKDOWN_IT


# Part of every chunk_set: chunk ids name the engine that found the structure.
VERSION = f"{OUTPUT_VERSION}+{_engine_label(engine())}"


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table").use(front_matter_plugin)
    # Only block structure is needed (inline tokens keep their raw content); inline
    # parsing of links and emphasis was most of the parse time.
    md.core.ruler.disable(["inline", "text_join"])
    return md


def parse(data: bytes, doc_id: str) -> Document:
    text, encoding_note = decode_noted(data)
    builder = _Builder(text)
    name = engine()
    builder.walk(block_tokens(text, name, builder.starts))
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
        parser=f"{NAME} {OUTPUT_VERSION}+{_engine_label(name)}",
        warnings=builder.warnings,
        _line_starts=builder.starts,  # line_starts(text), already built: not twice per document
    )
    starts = builder.starts  # Document.lines_of, written out: it is asked once per element
    for el in doc.elements:
        el.lines = (bisect.bisect_right(starts, el.start), bisect.bisect_right(starts, max(el.start, el.end - 1)))
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    if encoding_note is not None:
        doc.warnings.insert(0, encoding_note)
    return doc


def block_tokens(text: str, name: str, starts: list[int] | None = None) -> Sequence[AnyToken]:
    """Block tokens from the engine named, markdown-it's where pyromark leaves a document to it
    (``starts``: the text's line starts, if already built: pyromark's are the same for ASCII)."""
    if name == "pyromark":
        found = markdown_pyromark.tokens(text, starts)
        if found is not None:
            return found
    return _md().parse(text)


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


@dataclass(slots=True)
class _Frame:
    element: Element | None  # None for a hidden frame (inside a list item's own lines)
    own_end: int = -1  # list items: first line that belongs to a nested list
    hidden: bool = False
    # Answers that depend only on the frames below and this one, kept with it when it is pushed
    # (asked once per token, they were a walk down the stack each time):
    parent: str | None = None  # id of the innermost element of this frame or one below it
    hides_below: int = 0  # blocks starting on a line before this one are hidden (see _Builder.hidden)
    lists: int = 0  # list elements in this frame and below it


class _Builder:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.elements: list[Element] = []
        self.frames: list[_Frame] = []
        self.headings = HeadingStack()
        self.metadata: dict[str, Any] = {}
        self.top_headings = 0  # level-1 headings (a second one means the first titles a part only)
        self.title_from_heading = False
        self.warnings: list[ParseWarning] = []
        self.prev: Element | None = None

    # -- spans -------------------------------------------------------------
    def span(self, first_line: int, end_line: int) -> tuple[int, int]:
        """Character span of source lines [first_line, end_line), whitespace trimmed."""
        n = len(self.starts)
        start = self.starts[first_line] if first_line < n else len(self.text)
        end = self.starts[end_line] if end_line < n else len(self.text)
        return trim_span(self.text, start, end)

    # -- emission ----------------------------------------------------------
    def push_frame(self, element: Element | None, own_end: int = -1, hidden: bool = False) -> None:
        below = self.frames[-1] if self.frames else _Frame(None)
        frame = _Frame(element, own_end, hidden, below.parent, below.hides_below, below.lists)
        if hidden:
            frame.hides_below = _EVERY_LINE
        elif element is not None:
            frame.parent = element.id
            if element.kind == "list_item":
                frame.hides_below = own_end  # the item's own lines, whatever holds the item
            elif element.kind == "list":
                frame.lists += 1
        self.frames.append(frame)

    def parent_id(self) -> str | None:
        return self.frames[-1].parent if self.frames else None

    def emit(self, kind: str, line_map: list[int], **fields: Any) -> Element | None:
        start, end = self.span(line_map[0], line_map[1])
        if start >= end:
            return None
        frames = self.frames
        el = Element(
            id=f"e{len(self.elements)}",
            kind=kind,
            start=start,
            end=end,
            section_path=self.headings.path(),
            parent=frames[-1].parent if frames else None,  # parent_id(), once per element
            **fields,
        )
        self.elements.append(el)
        if kind not in CONTAINER_KINDS:  # el.is_container
            self.prev = el
        return el

    def hidden(self, line: int) -> bool:
        """True for blocks inside a list item's own lines (they are part of the item's text): the
        innermost hidden frame or list item decides (``push_frame`` keeps its answer)."""
        return bool(self.frames) and line < self.frames[-1].hides_below

    def lead_in(self) -> str | None:
        """The paragraph that introduces the list or table about to be emitted, if any."""
        prev = self.prev
        if prev is None or prev.kind != "paragraph" or prev.parent != self.parent_id():
            return None
        if prev.section_path != self.headings.path():
            return None
        return prev.id

    # -- the token walk ----------------------------------------------------
    def walk(self, tokens: Sequence[AnyToken]) -> None:
        deepest = 0
        i, n = 0, len(tokens)
        while i < n:
            tok = tokens[i]
            i += 1
            if tok.level > deepest:
                deepest = tok.level
            kind = tok.type
            if kind in _FRAME_CLOSE:
                self.frames.pop()
            elif tok.map is None or kind.endswith("_close"):
                continue
            elif self.hidden(tok.map[0]):
                if kind in _FRAME_OPEN:
                    self.push_frame(None, hidden=True)
            elif kind == "table_open":
                i = self.table(tokens, i - 1)
            else:
                self.token(tokens, i - 1, tok)
        if deepest >= MAX_NESTING - 3:
            self.warnings.append(
                ParseWarning(
                    "nesting_limit",
                    f"blocks nested deeper than about {MAX_NESTING // 2} levels are kept"
                    " as text of the innermost parsed block",
                )
            )

    def token(self, tokens: Sequence[AnyToken], i: int, tok: AnyToken) -> None:
        """A visible block's opening token (most frequent kinds first)."""
        kind = tok.type
        assert tok.map is not None
        if kind == "paragraph_open":
            self.emit("paragraph", tok.map)
        elif kind == "list_item_open":
            self.open_item(tokens, i, tok)
        elif kind == "heading_open":
            self.heading(tok, _HEADING_ID.sub("", tokens[i + 1].content).strip())
        elif kind in _LIST_OPEN:
            self.open_list(tok)
        elif kind in ("fence", "code_block"):
            self.code(tok)
        elif kind == "html_block":
            self.emit("html", tok.map)
        elif kind == "hr":
            self.emit("rule", tok.map)
        elif kind == "blockquote_open":
            self.push_frame(self.emit("blockquote", tok.map))
        elif kind == "front_matter":
            self.front_matter(tok)

    def code(self, tok: AnyToken) -> None:
        assert tok.map is not None
        info = tok.info.strip()
        language = info.split()[0] if info else None
        el = self.emit("code", tok.map, data=code_data(language, info))
        item = self.frames[-1].element if self.frames else None
        if el is not None and item is not None and item.kind == "list_item" and self.elements[-2:-1] == [item]:
            assert isinstance(el.data, CodeData)
            el.data.lead_in = item.id  # "1. Install it:" introduces its code
        code = _code_parser()
        if el is None or tok.type != "fence" or not language or code is None:
            return
        if language.lower() in code.ALIASES:
            self.code_parts(el, tok, code.ALIASES[language.lower()])

    def code_parts(self, el: Element, tok: AnyToken, language: str) -> None:
        """A fence in a known language is split, when over budget, at its definitions."""
        assert tok.map is not None
        first = tok.map[0] + 1  # the line after the opening fence
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

    def front_matter(self, tok: AnyToken) -> None:
        assert tok.map is not None
        self.emit("front_matter", tok.map)
        import yaml  # here: few documents have front matter, and PyYAML took 10 ms of a worker's start

        try:
            loaded = yaml.safe_load(tok.content)
        except yaml.YAMLError as exc:
            self.warnings.append(ParseWarning("front_matter", f"front matter is not valid YAML: {exc}", "line 1"))
            return
        if loaded is None:
            return
        if not isinstance(loaded, dict):
            loaded = {"front_matter": loaded}
        # YAML dates and other non-JSON values pass through as their text form.
        self.metadata.update(json.loads(json.dumps(loaded, default=str)))

    def heading(self, tok: AnyToken, title: str) -> None:
        assert tok.map is not None
        reason = suspect_heading(title)
        if reason is not None:
            line = tok.map[0] + 1
            self.warnings.append(
                ParseWarning("suspect_heading", f"not a heading, read as a paragraph: {reason}", f"line {line}")
            )
            self.emit("paragraph", tok.map)
            return
        level = int(tok.tag[1])
        self.headings.push(level, title)
        el = self.emit("heading", tok.map, level=level)
        if el is not None and level == 1:
            self.top_headings += 1
            if "title" not in self.metadata:
                self.metadata["title"] = title
                self.title_from_heading = True

    def open_list(self, tok: AnyToken) -> None:
        assert tok.map is not None
        data = ListData(ordered=tok.type == "ordered_list_open", lead_in=self.lead_in())
        depth = self.frames[-1].lists if self.frames else 0
        self.push_frame(self.emit("list", tok.map, level=depth + 1, data=data))

    def open_item(self, tokens: Sequence[AnyToken], i: int, tok: AnyToken) -> None:
        assert tok.map is not None
        own_end = tok.map[1]
        depth, inside = tok.level, tok.level + 1
        for j in range(i + 1, len(tokens)):  # indices, not a slice: a slice copies the rest of the list
            nxt = tokens[j]
            if nxt.type == "list_item_close":
                if nxt.level == depth:
                    break
            elif nxt.level == inside and nxt.type in _ENDS_OWN_LINES and nxt.map:
                # A nested list ends the item's own lines. So does code: code in a list item is a
                # code unit of its own (split at its lines or definitions, never as prose); what
                # follows it in the item is its own block.
                own_end = nxt.map[0]
                break
        parent = self.frames[-1].element if self.frames else None
        level = parent.level if parent is not None and parent.level else 1
        el = self.emit("list_item", [tok.map[0], own_end], level=level, data=ItemData(marker=tok.info or tok.markup))
        self.push_frame(el, own_end=own_end)

    def table(self, tokens: Sequence[AnyToken], i: int) -> int:
        """Emit a table container, its header row (with the delimiter row) and body rows."""
        open_tok = tokens[i]
        assert open_tok.map is not None
        rows: list[tuple[list[int], list[str], bool]] = []
        cells: list[str] = []
        row_map: list[int] = []
        in_head = False
        j = i + 1
        while j < len(tokens) and tokens[j].type != "table_close":
            t = tokens[j]
            if t.type == "thead_open":
                in_head = True
            elif t.type == "thead_close":
                in_head = False
            elif t.type == "tr_open":
                cells, row_map = [], list(t.map or [])
            elif t.type == "inline":
                cells.append(t.content.strip())
            elif t.type == "tr_close" and row_map:
                rows.append((row_map, cells, in_head))
            j += 1
        first = True
        for start_line, header, body in _table_groups(rows, open_tok.map[0]):
            end_line = body[-1][0][0] + 1 if body else open_tok.map[1]
            table = self.table_group(start_line, end_line, header, body, lead_in=first)
            if table is None:
                break
            first = False
        return j + 1

    def table_group(
        self,
        start_line: int,
        end_line: int,
        header: list[str],
        body: list[tuple[list[int], list[str], bool]],
        lead_in: bool,
    ) -> Element | None:
        """One table: its container, its header row (with the delimiter row) and its body rows."""
        data = TableData(header=header, rows=len(body), lead_in=self.lead_in() if lead_in else None)
        table = self.emit("table", [start_line, end_line], data=data)
        if table is None:
            return None
        self.push_frame(table)
        # The delimiter row opens the first body row: a row group that starts a chunk carries the
        # header in its context, so the delimiter never starts a chunk without its header.
        head_end = start_line + 1 if body else end_line
        head = self.emit("table_row", [start_line, head_end], data=row_data(header, True))
        if head is not None:
            data.header_text = self.text[head.start : self.span(start_line, start_line + 1)[1]]
        for n, (line_map, row_cells, _) in enumerate(body):
            self.emit(
                "table_row", [head_end if n == 0 else line_map[0], line_map[0] + 1], data=row_data(row_cells, False)
            )
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
        occupied = sorted([(e.start, e.end) for e in self.elements if not e.is_container or e.kind in NON_BODY_KINDS])
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
        return renumbered(self.elements)


def _table_groups(
    rows: list[tuple[list[int], list[str], bool]], first_line: int
) -> list[tuple[int, list[str], list[tuple[list[int], list[str], bool]]]]:
    """Split rows where a body row is a delimiter row ("|---|---|"): two tables with no blank
    line between them read as one, and the row above that delimiter is the second's header."""
    header = next((cells for _, cells, head in rows if head), [])
    body = [r for r in rows if not r[2]]
    groups = [(first_line, header, [])]  # type: list[tuple[int, list[str], list[tuple[list[int], list[str], bool]]]]
    for row in body:
        is_delimiter = row[1] and all(_DELIMITER_CELL.match(c) for c in row[1])
        # The group's last body row is the row above: each row either joins the current group or
        # opens an empty one. (Not ``groups[-1][2][-1] is body[n - 1]``: mypyc unboxes these tuples,
        # so their identity is not kept and the compiled build never split the two tables.)
        if is_delimiter and groups[-1][2]:
            new_header = groups[-1][2].pop()
            groups.append((new_header[0][0], new_header[1], []))
            continue
        groups[-1][2].append(row)
    return groups
