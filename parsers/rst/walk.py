"""docutils' doctree → units: the blocks of a reStructuredText document in source order, each with
the source line it starts on. The spans come later (parsers/rst/__init__.py): a unit runs from its
first line to the next unit's, so every line of the source lies in exactly one unit.

What becomes a unit: a section title (a heading, its level the section's depth), a paragraph, a
literal block or ``code``/``code-block``/``sourcecode`` directive (code, with its language), a
list item, a definition list's term with its description and a field list's field (list items
whose ``term`` names them: an atomic unit), a table's header row and each body row (a table
container carries the header cells and header text), a comment (furniture: declared, not
silently dropped), and any other body element whole (targets, substitution definitions,
footnotes, images, transitions). Admonitions, topics and containers are transparent: their
paragraphs are units, the first one starting at the directive's own line.

A directive docutils does not know (Sphinx's ``toctree``, ``versionadded``, ``function``…) is an
error node holding its source: its content is parsed again as reStructuredText, so that a
``.. function::`` description keeps its paragraphs and lists, and its first unit starts at the
directive's line (a directive without content is one paragraph). A role docutils does not know
(``:ref:``, ``:func:``) stays in its paragraph's text, as written.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from docutils import nodes

from parsegate.parsers.model import CodeData, Data, FurnitureData, ItemData, ListData, RowData, TableData, TextData
from parsegate.parsers.rst.lines import Lines

# Sphinx directives that set how the rest is read and show nothing themselves: furniture, declared.
SETTINGS = frozenset(
    {"highlight", "currentmodule", "default-domain", "sectionauthor", "codeauthor", "moduleauthor", "tabularcolumns"}
)
MAX_DEPTH = 8  # unknown directives inside unknown directives, parsed again: deeper ones stay text

_CODE_DIRECTIVES = frozenset({"code", "code-block", "sourcecode"})
_CONTAINERS = ("list", "table", "blockquote")
_LISTS = (nodes.bullet_list, nodes.enumerated_list, nodes.definition_list, nodes.field_list, nodes.option_list)
_ITEMS = (nodes.list_item, nodes.definition_list_item, nodes.field, nodes.option_list_item)
# Structure inside a list item that ends the item's own text: it becomes units of its own.
_STRUCTURAL = (*_LISTS, nodes.table, nodes.literal_block, nodes.doctest_block, nodes.block_quote)
_BODIES = (nodes.definition, nodes.field_body, nodes.description)  # an item's body, read part by part
# (A header or footer directive's content docutils moves to the document's decoration, first.)
_TRANSPARENT = (
    nodes.Admonition, nodes.topic, nodes.sidebar, nodes.container, nodes.compound, nodes.decoration,
    nodes.header, nodes.footer,
)  # fmt: skip
_SKIPPED = (nodes.system_message, nodes.pending, nodes.colspec, nodes.docinfo)


@dataclass
class Unit:
    kind: str
    line: int | None  # 0-based first line in the source; None: none known (merged into the unit before)
    data: Data = field(default_factory=TextData)
    level: int | None = None
    path: tuple[str, ...] = ()
    parent: Unit | None = None  # the container or list item it is in
    title: str | None = None  # a heading's title
    lead: Unit | None = None  # the paragraph that introduces a list, the list item a code block
    cells: int | None = None  # a header row: the line its cells start on (after borders, a directive's own lines)
    stop: int | None = None  # the line it ends before, whatever follows (a comment: its own lines only)
    ident: str = ""  # set when the elements are made
    kept: bool = True

    @property
    def container(self) -> bool:
        return self.kind in _CONTAINERS


@dataclass
class _Context:
    parent: Unit | None = None
    item: Unit | None = None  # a list item whose own text takes the paragraphs met
    offset: int = 0  # the source line of line 1 of the doctree being read, minus 1
    depth: int = 0  # directives parsed again


class Walker:
    """The units of a doctree, in source order."""

    def __init__(self, lines: Lines, parse_again: Callable[[str], nodes.document]) -> None:
        self.lines = lines
        self.parse_again = parse_again
        self.units: list[Unit] = []
        self.headings: list[tuple[int, str]] = []
        self.last_line = -1  # the first line of the last unit with one
        self.claim: int | None = None  # a directive's line, which the next unit starts at
        self.front: dict[str, str] = {}  # a leading field list's fields (front_matter)
        self.unknown: dict[str, int] = {}  # directives docutils does not know, read again
        self.disabled: dict[str, int] = {}  # include and raw: not followed, their lines kept as text

    # -- units ----------------------------------------------------------------------------
    def hint(self, node: nodes.Node, ctx: _Context) -> int | None:
        """The 0-based source line of ``node`` or of its first descendant that has one."""
        for n in node.findall(include_self=True):
            line = getattr(n, "line", None)
            if isinstance(line, int) and line > 0:
                return line - 1 + ctx.offset
        return None

    def unit(self, kind: str, line: int | None, ctx: _Context, data: Data | None = None, **kw: object) -> Unit:
        if self.claim is not None and kind not in _CONTAINERS:  # (a container's span is its leaves')
            line = self.claim if line is None else min(line, self.claim)
            self.claim = None
        if line is not None:  # (a line before the last one: docutils' tree is out of source order here)
            line = self.lines.block_start(line, self.last_line if line > self.last_line else -1)
        path = tuple(t for _, t in self.headings)
        u = Unit(kind, line, data or TextData(), path=path, parent=ctx.parent, **kw)  # type: ignore[arg-type]
        if line is not None and line > self.last_line and not u.container:
            self.last_line = line
        self.units.append(u)
        return u

    def previous_leaf(self) -> Unit | None:
        return next((u for u in reversed(self.units) if not u.container), None)

    # -- the walk -------------------------------------------------------------------------
    def walk(self, node: nodes.Node, ctx: _Context, section: int = 0) -> None:
        for child in node.children:
            if isinstance(child, nodes.section):
                self.walk(child, ctx, section + 1)
            elif isinstance(child, nodes.title) and isinstance(node, nodes.section):
                self.heading(child, ctx, section)
            else:
                self.block(child, ctx)

    def heading(self, node: nodes.title, ctx: _Context, level: int) -> None:
        title = read_roles(" ".join(node.astext().split()))
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, title))
        line = self.hint(node, ctx)  # the underline's line (docutils reports the title's last line)
        if line is not None:
            line -= 1 if self.lines.adornment(line) else 0
            line -= 1 if self.lines.adornment(line - 1) else 0  # an overline
        self.unit("heading", line, ctx, level=level, title=title)

    def block(self, node: nodes.Node, ctx: _Context) -> None:
        if not isinstance(node, nodes.Element) or isinstance(node, _SKIPPED):
            if isinstance(node, nodes.system_message):
                self.message(node, ctx)
            return
        if ctx.item is not None and not isinstance(node, _STRUCTURAL):
            if isinstance(node, _TRANSPARENT):
                self.walk(node, ctx)
            return  # the item's own text
        if isinstance(node, nodes.field_list) and self.front_matter(node, ctx):
            return
        if isinstance(node, _LISTS):
            self.list_(node, ctx)
        elif isinstance(node, nodes.table):
            self.table(node, ctx)
        elif isinstance(node, (nodes.literal_block, nodes.doctest_block)):
            self.code(node, ctx)
        elif isinstance(node, nodes.block_quote):
            quote = self.unit("blockquote", self.hint(node, ctx), ctx)
            self.walk(node, _Context(quote, None, ctx.offset, ctx.depth))
        elif isinstance(node, _TRANSPARENT):
            self.walk(node, ctx)  # its first unit starts at its directive (Lines.block_start)
        elif isinstance(node, nodes.comment):
            comment = self.unit("furniture", self.hint(node, ctx), ctx, data=_furniture("comment"))
            block = self.lines.block_at(comment.line) if comment.line is not None else None
            comment.stop = block.end if block is not None else comment.line
            if comment.stop is not None and comment.line is not None:
                comment.stop = max(comment.stop, comment.line + 1)
        elif isinstance(node, nodes.target) and not node.get("refuri") and self.label(node, ctx):
            pass  # a label: the next unit starts at it
        elif isinstance(node, nodes.transition):
            self.unit("rule", self.hint(node, ctx), ctx)
        elif isinstance(node, (nodes.footnote, nodes.citation)):
            self.unit("footnote", self.hint(node, ctx), ctx)
        else:  # paragraphs, line blocks, rubrics, targets, substitution definitions, images, figures…
            self.unit("paragraph", self.hint(node, ctx), ctx)

    def front_matter(self, node: nodes.Element, ctx: _Context) -> bool:
        """A field list before any title or text (``:tocdepth: 2``, ``:orphan:``, an author's
        fields) is the document's metadata, as Sphinx and docutils' DocInfo read it."""
        if ctx.parent is not None or ctx.depth or self.headings:
            return False
        if any(u.kind not in ("furniture", "front_matter") for u in self.units):
            return False
        for field_ in node.children:
            if isinstance(field_, nodes.field) and len(field_.children) == 2:
                name, body = (" ".join(c.astext().split()) for c in field_.children)
                self.front[name] = body
        self.unit("front_matter", self.hint(node, ctx), ctx)
        return True

    def label(self, node: nodes.Element, ctx: _Context) -> bool:
        """``.. _name:`` names what follows it (a section, a table): the next unit starts at its
        line, so that it is read with what it names. False when it has no line of its own."""
        line = self.hint(node, ctx)
        if line is None or line <= self.last_line or self.lines.block_at(line) is None:
            return False
        if self.claim is None:
            self.claim = line
        return True

    def code(self, node: nodes.Element, ctx: _Context) -> None:
        classes: list[str] = list(node.get("classes", ()))
        language = classes[classes.index("code") + 1] if "code" in classes[:-1] else None
        if isinstance(node, nodes.doctest_block):
            language = "pycon"
        data = CodeData(language=language)
        item = ctx.item or ctx.parent
        lead = item if item is not None and item.kind == "list_item" and self.previous_leaf() is item else None
        line = self.hint(node, ctx)
        if line is None and "code" in classes:  # (docutils names no line for some code-blocks)
            block = self.lines.next_block(self.last_line, _CODE_DIRECTIVES)
            line = block.first if block is not None else None
        self.unit("code", line, ctx, data=data, lead=lead)

    def list_(self, node: nodes.Element, ctx: _Context) -> None:
        prev = self.previous_leaf()
        lead = prev if prev is not None and prev.kind == "paragraph" and prev.parent is ctx.parent else None
        depth = 1 + sum(1 for p in _parents(ctx.parent) if p.kind == "list")
        data = ListData(ordered=isinstance(node, nodes.enumerated_list))
        container = self.unit("list", self.hint(node, ctx), ctx, data=data, level=depth, lead=lead)
        inner = _Context(container, None, ctx.offset, ctx.depth)
        for child in node.children:
            if isinstance(child, _ITEMS):
                self.item(child, inner, depth)
            else:
                self.block(child, inner)

    def item(self, node: nodes.Element, ctx: _Context, depth: int) -> None:
        term = None
        if isinstance(node, nodes.definition_list_item):
            term = " ".join(" ".join(c.astext().split()) for c in node.children if isinstance(c, nodes.term))
        elif isinstance(node, (nodes.field, nodes.option_list_item)):
            term = " ".join(node.children[0].astext().split()) if node.children else None
        line = self.hint(node, ctx)
        marker = None
        if line is not None and term is None and 0 <= line < self.lines.count:
            words = self.lines.line(line).split(None, 1)
            marker = words[0] if words else None
        item = self.unit("list_item", line, ctx, data=ItemData(marker=marker, term=term or None), level=depth)
        inner = _Context(item, item, ctx.offset, ctx.depth)
        for child in node.children:
            for part in child.children if isinstance(child, _BODIES) else [child]:
                if isinstance(part, (nodes.term, nodes.classifier, nodes.field_name, nodes.option_group)):
                    continue
                self.block(part, inner)
                if isinstance(part, _STRUCTURAL):
                    inner.item = None  # what follows in the item is units of its own, in the item

    def table(self, node: nodes.table, ctx: _Context) -> None:
        start = self.hint(node, ctx)
        caption = next((" ".join(c.astext().split()) for c in node.children if isinstance(c, nodes.title)), None)
        head = [r for r in node.findall(nodes.row) if isinstance(r.parent, nodes.thead)]
        body = [r for r in node.findall(nodes.row) if isinstance(r.parent, nodes.tbody)]
        header = _header_cells(head)
        data = TableData(header=header, rows=len(body), caption=caption)
        table = self.unit("table", start, ctx, data=data)
        inner = _Context(table, None, ctx.offset, ctx.depth)
        if head or not body:
            first_cells = self.hint(head[0], ctx) if head else None
            head_row = self.unit("table_row", start, inner, data=RowData(cells=header, header=True))
            if first_cells is not None and start is not None and first_cells >= start:
                head_row.cells = first_cells
        lines = [self.hint(row, ctx) for row in body]
        if start is not None and not _increasing(start, lines):
            lines = self.record_lines(start, len(head), lines)
        for n, (row, line) in enumerate(zip(body, lines, strict=True)):
            if n == 0 and not head:
                line = start
            cells = [" ".join(e.astext().split()) for e in row.children if isinstance(e, nodes.entry)]
            self.unit("table_row", line, inner, data=RowData(cells=cells, header=False))

    def record_lines(self, start: int, head: int, lines: list[int | None]) -> list[int | None]:
        """A ``csv-table``'s rows (docutils numbers their lines from the table's data, not the
        source): one content line a record, when the counts agree; else the lines as they are
        (the rows become part of the table's first row)."""
        block = self.lines.block_at(start)
        if block is None:
            return lines
        content = self.lines.content_lines(block)
        if len(content) == head + len(lines):  # header rows in the data (:header-rows:)
            return list(content[head:])
        if len(content) == len(lines):  # the header in an option (:header:)
            return list(content)
        return lines

    # -- directives docutils does not know ---------------------------------------------------
    def message(self, node: nodes.system_message, ctx: _Context) -> None:
        """An error node holding a directive's source: the directive is read again, or kept as text."""
        literal = next((c for c in node.children if isinstance(c, nodes.literal_block)), None)
        at = node.get("line")  # (its .line is the construct's last line)
        line = at - 1 + ctx.offset if isinstance(at, int) and at > 0 else None
        if literal is None or line is None or not literal.astext().lstrip().startswith(".."):
            return  # a message about text that is in the tree already (an unknown role, a short underline)
        block = self.lines.block_at(line)
        if block is None or block.first <= self.last_line:
            return
        said = node.children[0].astext() if node.children else ""
        name = block.name or "?"
        if "Unknown directive type" not in said or ctx.depth >= MAX_DEPTH:
            self.disabled[name] = self.disabled.get(name, 0) + 1
            self.unit("paragraph", block.first, ctx)
            return
        self.unknown[name] = self.unknown.get(name, 0) + 1
        first = self.lines.directive_content(block)
        if first is None and name in SETTINGS:
            setting = self.unit(
                "furniture", block.first, ctx, data=_furniture(f"Sphinx's {name} setting, shown nowhere")
            )
            setting.stop = block.end
            return
        if first is None:
            self.unit("paragraph", block.first, ctx)
            return
        content = textwrap.dedent("\n".join(self.lines.line(n) for n in range(first, block.end)))
        count = len(self.units)
        self.claim = block.first
        self.walk(self.parse_again(content), _Context(ctx.parent, ctx.item, first, ctx.depth + 1))
        if self.claim is not None or len(self.units) == count:  # nothing in it became a unit
            self.claim = None
            self.unit("paragraph", block.first, ctx)


# A role docutils does not know stays as written in its title (":mod:`sphinx.ext.apidoc`"): a
# reader sees its text ("sphinx.ext.apidoc"; "~a.b" shows "b"; "text <target>" shows "text").
_ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`]*)`")


def _role_text(match: re.Match[str]) -> str:
    content = match.group(1)
    if content.endswith(">") and " <" in content:
        content = content[: content.rindex(" <")]
    content = content.lstrip("!")
    return content[1:].rsplit(".", 1)[-1] if content.startswith("~") else content


def read_roles(title: str) -> str:
    """A section title with the roles docutils did not know read as their text."""
    return _ROLE.sub(_role_text, title) if ":`" in title else title


def _furniture(reason: str) -> Data:
    return FurnitureData(reason=reason)


def _increasing(start: int, lines: list[int | None]) -> bool:
    last = start
    for line in lines:
        if line is None or line <= last:
            return False
        last = line
    return True


def _parents(unit: Unit | None) -> list[Unit]:
    out = []
    while unit is not None:
        out.append(unit)
        unit = unit.parent
    return out


def _header_cells(rows: list[nodes.row]) -> list[str]:
    """The header cells, one per column; several header rows joined column by column."""
    columns: list[list[str]] = []
    for row in rows:
        for n, entry in enumerate(e for e in row.children if isinstance(e, nodes.entry)):
            while len(columns) <= n:
                columns.append([])
            text = " ".join(entry.astext().split())
            if text:
                columns[n].append(text)
    return [" ".join(c) for c in columns]
