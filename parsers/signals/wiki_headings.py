"""Headings written in MediaWiki's syntax inside text: ``= Title =``, ``== Section ==`` and the
spaced form of text exported from a wiki (WikiText-103 and the corpora built on it write
``= = Section = =``). Markdown and plain text read such lines as lines of a paragraph, so a wiki
dump saved as .md or .txt had no section at all: every chunk of an article lost its title and
section, and chunks ran on from one article into the next.

A line is such a heading when it is a whole line, opens and closes with the same number of '='
(one to six, spaces between them allowed), and holds a title between them: a name, with neither
'=' nor ';' in it. The signal is applied
only to a document that has no heading of its own syntax and at least two such lines: a Markdown
file with headings is left as its author wrote it, and a lone "= x =" line (a formula) is text.
"""

from __future__ import annotations

import re

from parsegate.parsers.build.headings import HeadingStack
from parsegate.parsers.build.order import renumbered
from parsegate.parsers.model import Document, Element, TextData, trim_span

_LINE = re.compile(r"^[ \t]*(=(?:[ \t]?=){0,5})[ \t]+(\S(?:.*?\S)?)[ \t]+(=(?:[ \t]?=){0,5})[ \t]*$", re.M)
_MIN_HEADINGS = 2


def _level(marks: str) -> int:
    return marks.count("=")


def heading_lines(text: str, start: int, end: int) -> list[tuple[int, int, int, str]]:
    """(start, end, level, title) of each wiki heading line within ``text[start:end]``."""
    found = []
    # From the start of the line: '^' matches where a line begins, not where a search does.
    for m in _LINE.finditer(text, text.rfind("\n", 0, start) + 1, end):
        title = m.group(2)
        # A title is a name: not a list of definitions ("= Position ; GP =", what a legend broken
        # over lines leaves), nor an equation.
        if _level(m.group(1)) != _level(m.group(3)) or ";" in title or "=" in title:
            continue
        line_start, line_end = trim_span(text, m.start(), m.end())
        found.append((line_start, line_end, _level(m.group(1)), m.group(2).strip()))
    return found


def split_wiki_headings(doc: Document) -> bool:
    """Split the paragraphs of ``doc`` at its wiki heading lines, the headings their own elements,
    and give every element the section path of the headings above it. False (and the document
    untouched) when the document has headings of its own or fewer than two wiki headings."""
    if any(e.kind == "heading" for e in doc.elements):
        return False
    text = doc.text
    found = {
        e.id: lines
        for e in doc.elements
        if e.kind == "paragraph" and type(e.data) is TextData and not e.data.inline
        for lines in [heading_lines(text, e.start, e.end)]
        if lines
    }
    if sum(len(lines) for lines in found.values()) < _MIN_HEADINGS:
        return False
    elements: list[Element] = []
    for e in doc.elements:
        lines = found.get(e.id)
        if lines is None:
            elements.append(e)
            continue
        cursor = e.start
        for n, (start, end, level, _title) in enumerate(lines):
            elements.extend(_paragraph(doc, f"{e.id}.p{n}", cursor, start, e))
            elements.append(Element(f"{e.id}.h{n}", "heading", start, end, level=level, parent=e.parent))
            cursor = end
        elements.extend(_paragraph(doc, f"{e.id}.p{len(lines)}", cursor, e.end, e))
    stack = HeadingStack()
    path: tuple[str, ...] = ()
    titles = {f"{e.id}.h{n}": line[3] for e in doc.elements for n, line in enumerate(found.get(e.id, []))}
    for el in elements:
        if el.kind == "heading" and el.id in titles:
            assert el.level is not None
            path = tuple(stack.push(el.level, titles[el.id]))
        el.section_path = path
    doc.elements = renumbered(elements)
    for el in doc.elements:
        el.lines = doc.lines_of(el.start, el.end)
    # The document's title, when one heading stands over all the others (a corpus of many
    # articles has none: each article's chunks carry their own title in their section path).
    headings = [e for e in doc.elements if e.kind == "heading"]
    top = min(e.level or 0 for e in headings)
    tops = [e for e in headings if e.level == top]
    if len(tops) == 1:
        doc.metadata.setdefault("title", titles_by_span(headings, titles, tops[0]))
    return True


def titles_by_span(headings: list[Element], titles: dict[str, str], heading: Element) -> str:
    return heading.section_path[-1] if heading.section_path else ""


def _paragraph(doc: Document, ident: str, start: int, end: int, like: Element) -> list[Element]:
    start, end = trim_span(doc.text, start, end)
    if end <= start:
        return []
    return [Element(ident, "paragraph", start, end, parent=like.parent, page=like.page)]
