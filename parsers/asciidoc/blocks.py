"""The block scanner: AsciiDoc's lines → elements with exact spans into the source.

One pass over the lines (lines.py says what each is). A block's attribute lines (``[source,c]``,
``[[anchor]]``, ``[NOTE]``) and its title (``.Title``) belong to the block they precede: its span
starts at them. Compound blocks (example ``====``, sidebar ``****``, open ``--``) are read for the
blocks inside them, their opening lines led into the first of those; a quote (``____``) is a
``blockquote`` container around its blocks. Listing (``----``), literal (``....``) and fenced
(```` ``` ````) blocks are ``code`` (the language from ``[source,lang]`` or the fence); a
passthrough (``++++``) is a paragraph of its raw text; comments (``//``, ``////``) and
preprocessor directives (``include::``, ``ifdef::``…, never followed nor evaluated) are
``furniture`` with their reason; attribute entries (``:name: value``) are ``front_matter``.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from parsegate.parsers.asciidoc import lines as L
from parsegate.parsers.asciidoc.tables import column_count, delimited_rows, psv_cells, rows_of
from parsegate.parsers.build.headings import HeadingStack
from parsegate.parsers.model import (
    CONTAINER_KINDS,
    CodeData,
    Element,
    FurnitureData,
    RowData,
    TableData,
    TextData,
    line_starts,
)


def _before_title(line: str) -> bool:
    """Lines that may stand above the document title: comments, attribute entries, the title's
    attribute line."""
    return bool(
        L.COMMENT_LINE.match(line)
        or L.ATTRIBUTE_ENTRY.match(line)
        or (line[:1] == "[" and L.BLOCK_ATTRIBUTES.match(line.strip()) and not line.startswith("[["))
    )


# Compound blocks nested deeper are read as a paragraph of their text (each level is a frame of
# Python's stack).
MAX_DEPTH = 32


@dataclass
class Pending:
    """Attribute and title lines read, waiting for the block they belong to."""

    start: int | None = None
    style: str | None = None
    positional: list[str] = field(default_factory=list)
    named: dict[str, str] = field(default_factory=dict)
    title: str | None = None
    attribute_line: str | None = None
    last: int = 0  # the index of the last line read into it


class Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        ends = [*self.starts[1:], len(text)]
        self.lines = [text[s:e].rstrip("\r\n") for s, e in zip(self.starts, ends, strict=True)]
        self.elements: list[Element] = []
        self.headings = HeadingStack()
        self.metadata: dict[str, Any] = {}
        self.directives: list[int] = []  # 1-based lines of include:: directives (never followed)
        self.unclosed: list[int] = []  # 1-based lines of delimited blocks that never close
        self.lead: int | None = None  # a start the next element takes (a compound block's opening)
        self.depth = 0  # compound blocks open around the line read

    # -- spans --------------------------------------------------------------------------------
    def begin(self, i: int) -> int:
        return self.starts[i]

    def end(self, i: int) -> int:
        return self.starts[i] + len(self.lines[i].rstrip())

    def emit(self, kind: str, start: int, end: int, parent: str | None, **fields: Any) -> Element:
        if self.lead is not None:
            start = min(start, self.lead)
            if kind not in CONTAINER_KINDS:  # (a container's first leaf starts there too)
                self.lead = None
        first = bisect.bisect_right(self.starts, start)
        last = bisect.bisect_right(self.starts, max(start, end - 1))
        el = Element(
            f"e{len(self.elements)}", kind, start, end, section_path=self.headings.path(), parent=parent,
            lines=(first, last), **fields,
        )  # fmt: skip
        self.elements.append(el)
        return el

    # -- the document header --------------------------------------------------------------------
    def header(self) -> int:
        """The document title, and the author, revision and attribute lines right under it: one
        ``front_matter`` element (``metadata``: title, author, revision, attributes)."""
        n = len(self.lines)
        t = 0
        while t < n and (L.is_blank(self.lines[t]) or _before_title(self.lines[t])):
            t += 1
        m = L.SECTION.match(self.lines[t]) if t < n else None
        if m is None or len(m.group(1)) != 1:
            return 0  # no document title: the lines are the body's
        i = 0
        while i < t:  # comments, attribute entries, the title's attribute line ([#id]) above it
            if L.is_blank(self.lines[i]) or L.COMMENT_LINE.match(self.lines[i]):
                i = i + 1 if L.is_blank(self.lines[i]) else self.step(i, t, None, True)
            else:
                entry = L.ATTRIBUTE_ENTRY.match(self.lines[i])
                if entry:
                    self.metadata.setdefault("attributes", {})[entry.group(1)] = entry.group(2) or ""
                self.emit("front_matter", self.begin(i), self.end(i), None)
                i += 1
        self.metadata["title"] = L.without_anchors(m.group(2))
        self.headings.push(1, self.metadata["title"])
        title, first = i, i + 1
        i = first
        attributes: dict[str, str] = {}
        while i < n and not L.is_blank(self.lines[i]):
            line = self.lines[i]
            entry = L.ATTRIBUTE_ENTRY.match(line)
            if entry:
                attributes[entry.group(1)] = entry.group(2) or ""
            elif L.COMMENT_LINE.match(line):
                pass
            elif i == first:
                self.metadata["author"] = line.strip()
            elif i == first + 1 and "author" in self.metadata:
                self.metadata["revision"] = line.strip()
            else:
                break  # body text right under the header's attribute entries
            i += 1
        # The header, its title too, is metadata: the title heads every section path, and no
        # chunk's text holds the attribute entries (a heading element would glue them to the
        # first paragraph's chunk).
        self.emit("front_matter", self.begin(title), self.end(i - 1), None)
        if attributes:
            self.metadata["attributes"] = {**self.metadata.get("attributes", {}), **attributes}
        return i

    # -- blocks ---------------------------------------------------------------------------------
    def blocks(self, lo: int, hi: int, parent: str | None, top: bool) -> None:
        i = lo
        self.pending = Pending()
        while i < hi:
            i = self.step(i, hi, parent, top)
        self.orphans(parent)

    def orphans(self, parent: str | None) -> None:
        """Attribute or title lines that no block follows (at the end of the file or of a
        compound block): furniture, not lost."""
        pend = self.pending
        if pend.start is not None:
            self.emit(
                "furniture", pend.start, self.end(pend.last), parent, data=FurnitureData(reason="block attributes")
            )
        self.pending = Pending()

    def step(self, i: int, hi: int, parent: str | None, top: bool) -> int:
        """Reads the block (or attribute line) at line ``i``; the line after it."""
        line = self.lines[i]
        stripped = line.strip()
        pend = getattr(self, "pending", None) or Pending()
        self.pending = pend
        start = self.begin(i) if pend.start is None else pend.start
        if not stripped:
            return i + 1
        if L.COMMENT_LINE.match(line):
            self.orphans(parent)
            j = i
            while j + 1 < hi and L.COMMENT_LINE.match(self.lines[j + 1]):
                j += 1
            self.furniture(i, j, "comment")
            return j + 1
        if L.DIRECTIVE.match(stripped) and not line[0].isspace():
            if stripped.startswith("include"):
                self.directives.append(i + 1)
            what = "include:: directive, never followed" if stripped.startswith("include") else "conditional directive"
            # (a title or attribute lines above an include are the included block's: furniture too)
            self.emit("furniture", start, self.end(i), None, data=FurnitureData(reason=what))
            return self.done(i + 1)
        entry = L.ATTRIBUTE_ENTRY.match(line)
        if entry:
            self.orphans(parent)
            self.emit("front_matter", self.begin(i), self.end(i), parent)
            return i + 1
        if line[0] == "[" and L.BLOCK_ATTRIBUTES.match(stripped):
            pend.start, pend.last = start, i
            if not stripped.startswith("[["):
                pend.style, pend.positional, pend.named = L.attributes(stripped)
                pend.attribute_line = stripped
            return i + 1
        if L.BLOCK_TITLE.match(line) and not L.ORDERED.match(line):
            pend.start, pend.title, pend.last = start, line[1:].strip(), i
            return i + 1
        if top and (m := L.SECTION.match(line)):
            return self.section(i, len(m.group(1)), m.group(2), start, i + 1)
        if top and i + 1 < hi and (level := L.underline_of(line, self.lines[i + 1])) is not None:
            return self.section(i, level, line.strip(), start, i + 2)
        if L.TABLE_DELIMITER.match(stripped) and not line[0].isspace():
            return self.done(self.table(i, hi, parent, start, pend))
        if L.DELIMITER.match(line):
            return self.done(self.delimited(i, hi, parent, start, pend))
        if L.BREAK.match(line):  # a thematic or page break
            self.emit("furniture", start, self.end(i), parent, data=FurnitureData(reason="break"))
            return self.done(i + 1)
        if L.item_marker(line) is not None:
            from parsegate.parsers.asciidoc.lists import read_list

            return self.done(read_list(self, i, hi, parent, start))
        return self.done(self.paragraph(i, hi, parent, start, pend))

    def done(self, i: int) -> int:
        self.pending = Pending()
        return i

    def furniture(self, i: int, j: int, reason: str) -> None:
        self.emit("furniture", self.begin(i), self.end(j), None, data=FurnitureData(reason=reason))

    def section(self, i: int, level: int, title: str, start: int, after: int) -> int:
        """A heading's span is its line(s), marks and underline too; the anchor and attribute lines
        above it are furniture."""
        if start < self.begin(i):
            self.emit("furniture", start, self.end(i - 1), None, data=FurnitureData(reason="section attributes"))
        self.headings.push(level, L.without_anchors(title))
        self.emit("heading", self.begin(i), self.end(after - 1), None, level=level)
        return self.done(after)

    def paragraph(self, i: int, hi: int, parent: str | None, start: int, pend: Pending) -> int:
        """Lines up to a blank line or a block's delimiter; an indented first line makes a literal
        paragraph (code without a language)."""
        j = i
        while j + 1 < hi and self.continues(self.lines[j + 1]):
            j += 1
        if self.lines[i][0] in " \t" and pend.style not in L.ADMONITION_STYLES:
            self.emit("code", start, self.end(j), parent, data=CodeData(language=None))
        else:
            self.emit("paragraph", start, self.end(j), parent, data=TextData())
        return j + 1

    def continues(self, line: str) -> bool:
        if L.is_blank(line) or L.COMMENT_LINE.match(line) or line.strip() == L.CONTINUATION:
            return False
        if L.DELIMITER.match(line) or L.TABLE_DELIMITER.match(line) or L.ATTRIBUTE_ENTRY.match(line):
            return False
        return not (line[0] == "[" and L.BLOCK_ATTRIBUTES.match(line.strip()))

    def last_line(self, i: int, j: int, hi: int) -> int:
        """A block's last line: its closing delimiter ``j``, or (``j == hi``: it never closed)
        the last line that is not blank before ``hi``."""
        if j < hi:
            return j
        while j - 1 > i and L.is_blank(self.lines[j - 1]):
            j -= 1
        return j - 1

    def closing(self, i: int, hi: int, delimiter: str) -> int:
        """The line that closes the block opened at ``i`` (``hi`` when none does)."""
        want = "```" if delimiter.startswith("```") else delimiter
        for j in range(i + 1, hi):
            if self.lines[j].rstrip() == want:
                return j
        self.unclosed.append(i + 1)
        return hi

    def delimited(self, i: int, hi: int, parent: str | None, start: int, pend: Pending) -> int:
        delimiter = self.lines[i].rstrip()
        j = self.closing(i, hi, delimiter)
        last = self.last_line(i, j, hi)
        end = self.end(last)
        kind = delimiter[0]
        if kind == "/":
            self.emit("furniture", start, end, parent, data=FurnitureData(reason="comment block"))
        elif self.depth >= MAX_DEPTH and kind in "_=*-" and not (kind == "-" and len(delimiter) >= 4):
            self.emit("paragraph", start, end, parent, data=TextData())  # nested too deep: its text
        elif kind == "`" or (kind in "-." and len(delimiter) >= 4):
            language = delimiter[3:].strip() or None if kind == "`" else self._language(pend)
            self.emit("code", start, end, parent, data=CodeData(language=language, info=pend.attribute_line))
        elif kind == "+" or pend.style in ("verse", "stem", "latexmath", "asciimath"):
            self.emit("paragraph", start, end, parent, data=TextData())
        elif kind == "_":
            quote = self.emit("blockquote", start, end, parent)
            self.inside(i, j, hi, quote.id, start)
        else:  # example, sidebar, open block, an admonition block: the blocks inside
            self.inside(i, j, hi, parent, start)
        return j + 1

    def inside(self, i: int, j: int, hi: int, parent: str | None, start: int) -> None:
        """The blocks of a compound block opened at ``i`` and closed at ``j``: the first one's span
        starts at the opening lines, the last one's ends at the closing delimiter."""
        count = len(self.elements)
        if self.lead is not None:  # (an enclosing block's opening lines, not taken yet)
            start = min(start, self.lead)
        self.lead = start
        self.depth += 1
        self.blocks(i + 1, j, parent, False)
        self.depth -= 1
        self.lead = None
        close = self.end(j) if j < hi else None
        inner = self.elements[count:]
        if not any(e.kind not in CONTAINER_KINDS for e in inner):
            self.elements[count:] = []
            last = self.end(self.last_line(i, j, hi))
            self.emit("furniture", start, last, parent, data=FurnitureData(reason="empty block"))
            return
        if close is not None:
            last_end = inner[-1].end
            for e in inner:
                if e.end == last_end:
                    e.end = close
                    e.lines = (e.lines or (1, 1))[0], j + 1

    def _language(self, pend: Pending) -> str | None:
        if pend.style == "source" or (pend.style is None and len(pend.positional) > 1):
            if len(pend.positional) > 1 and pend.positional[1]:
                return pend.positional[1]
            language = self.metadata.get("attributes", {}).get("source-language")
            return str(language) if language else None
        return None

    def table(self, i: int, hi: int, parent: str | None, start: int, pend: Pending) -> int:
        delimiter = self.lines[i].strip()
        j = self.closing(i, hi, delimiter)
        last = self.last_line(i, j, hi)
        spans = [(self.begin(k), self.begin(k) + len(self.lines[k])) for k in range(i + 1, j)]
        fmt = pend.named.get("format") or {",": "csv", ":": "dsv"}.get(delimiter[0], "psv")
        options = pend.named.get("options", "") + "," + pend.named.get("opts", "")
        columns = column_count(pend.named.get("cols"))
        if fmt in ("csv", "dsv"):
            rows = delimited_rows(self.text, spans, i + 1, fmt)
        else:
            cells = psv_cells(self.text, spans, i + 1)
            if columns is None and cells:
                columns = sum(c.width for c in cells if c.line == cells[0].line)
            rows = rows_of(cells, columns or 1)
        header = "header" in options
        if not header and "noheader" not in options and rows:
            first = rows[0]  # implicit header: a first line alone, a blank line under it
            after = first.last_line + 1
            header = (
                first.first_line == first.last_line
                and after < j
                and L.is_blank(self.lines[after])
                and len(rows) > 1
                and rows[1].first_line > first.last_line
            )
        data = TableData(caption=pend.title)
        table = self.emit("table", start, self.end(last), parent, data=data)
        for n, row in enumerate(rows):
            # The first row's span starts at the table's (its title, attributes, delimiter), the
            # last one's ends at the closing delimiter: no line of the table is outside a row.
            begin = start if n == 0 else row.start
            end = table.end if n == len(rows) - 1 else row.end
            row_data = RowData(cells=row.cells, header=header and n == 0)
            self.emit("table_row", begin, end, table.id, data=row_data)
        if header:
            data.header, data.header_text = rows[0].cells, self.text[rows[0].start : rows[0].end]
        data.rows = len(rows) - (1 if header else 0)
        return j + 1
