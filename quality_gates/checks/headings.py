"""Heading inheritance: is each chunk filed under the headings that really stand above it?

The expected section path comes from an independent pass, never from the ``section_path``
the parser stored on its elements: for Markdown, pulldown-cmark's heading events over the
source file (another engine than the parser's markdown-it); for the other formats, the heading
elements taken by position and level only.
A chunk's expected path is the common path of the body text it holds (the headings it opens
with are stated in its own text); for a chunk of headings alone, the common path of those.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from pyromark import Options

    from parsegate.parsers.model import Document
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

# "## Title { #anchor }": an attribute list (MkDocs and friends) is not part of a title.
_ATTRIBUTES = re.compile(r"\s*\{[^{}]*\}\s*$")


@dataclass(frozen=True)
class Heading:
    start: int
    end: int
    level: int
    title: str


FAULTS = "heading_inheritance"


@dataclass(frozen=True)
class HeadingFacts:
    has_headings: bool = False
    heading_checked: int | None = None
    heading_ok: int | None = None


def measure(s: Subject) -> HeadingFacts:
    doc = s.doc
    text = doc.text
    if doc.format == "markdown":
        if s.reference is None:
            # Not measured: the source file is not at hand. Whether the check applies is the
            # parser's word (its headings), so that it is reported not measured, not absent.
            return HeadingFacts(has_headings=any(e.kind == "heading" for e in doc.elements))
        text = s.reference.text
        headings = markdown_headings(text)
    elif doc.format == "rst":
        if s.reference is None:
            return HeadingFacts(has_headings=any(e.kind == "heading" for e in doc.elements))
        from parsegate.quality_gates.references.rst import rst_headings

        read = rst_headings(s.reference.text)
        headings = [Heading(h.start, h.end, h.level, h.title) for h in read]
        text = _without_furniture(doc, s.reference.text)
    elif doc.format == "asciidoc":
        from parsegate.quality_gates.references.asciidoc import document_title, section_title

        title = document_title(text)  # metadata to the parser, the root of every section path
        headings = [Heading(title[0], title[1], 1, title[2])] if title is not None else []
        headings += [
            Heading(e.start, e.end, e.level or 1, section_title(text[e.start : e.end]))
            for e in doc.elements
            if e.kind == "heading"
        ]
        text = _without_declared(doc)
    elif doc.format == "notebook":
        from parsegate.quality_gates.references.notebook import blank_line_joins

        headings = _notebook_headings(doc)
        text = blank_line_joins(text)  # between two blocks of a cell: no text of either
    else:
        headings = [
            Heading(e.start, e.end, e.level or 1, doc.text[e.start : e.end])
            for e in doc.elements
            if e.kind == "heading"
        ]
        if doc.format == "pptx":
            headings = _untitled_slides(doc, headings)
    if not headings:
        return HeadingFacts()
    checked = ok = 0
    paths = _paths(headings)
    starts = [h.start for h in headings]
    for c in s.chunks:
        expected = _expected(headings, starts, paths, c.start, c.end, text)
        stated = tuple(_title(t) for t in c.section_path or ())
        checked += 1
        if stated == expected:
            ok += 1
        else:
            s.faults.chunk(
                FAULTS,
                c,
                f"filed under {' > '.join(stated) or '(none)'}; the source puts it under "
                f"{' > '.join(expected) or '(no heading)'}",
            )
    return HeadingFacts(True, checked, ok)


def _without_furniture(doc: Document, text: str) -> str:
    """``text`` with what the parser declared furniture (reStructuredText's comments) blanked:
    a comment under a heading is no body text of its section."""
    from parsegate.parsers.model import NON_BODY_KINDS

    out = text
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS and e.end <= len(out):
            out = out[: e.start] + " " * (e.end - e.start) + out[e.end :]
    return out


def _without_declared(doc: Document) -> str:
    """The text with what the parser declared no body text (comments, directives, attribute
    entries: furniture and front matter, which the recall check lists) blanked: no section holds it."""
    from parsegate.parsers.model import NON_BODY_KINDS

    pieces, cursor = [], 0
    for e in sorted((e for e in doc.elements if e.kind in NON_BODY_KINDS), key=lambda e: e.start):
        if e.start >= cursor:
            pieces += [doc.text[cursor : e.start], " " * (e.end - e.start)]
            cursor = e.end
    return "".join([*pieces, doc.text[cursor:]])


def _notebook_headings(doc: Document) -> list[Heading]:
    """A notebook's heading elements by position and level, each titled as markdown-it reads its
    text with the JSON escapes undone (the file writes ``# Caf\\u00e9 \\"guide\\"``)."""
    from parsegate.quality_gates.references.notebook import unescaped

    out = []
    for e in doc.elements:
        if e.kind == "heading":
            text = unescaped(doc.text[e.start : e.end])
            read = markdown_headings(text)
            out.append(Heading(e.start, e.end, e.level or 1, read[0].title if read else text))
    return sorted(out, key=lambda h: (h.start, h.end))


def _untitled_slides(doc: Document, headings: list[Heading]) -> list[Heading]:
    """Each slide is a section (the output contract): a slide without a title of its own is
    the section "Slide N", so nothing on it falls under the previous slide's title."""
    first: dict[int, int] = {}
    for e in doc.elements:
        if e.page is not None and e.kind not in ("furniture",):
            first.setdefault(e.page, e.start)
    titled = {e.page for e in doc.elements if e.kind == "heading" and e.level == 1}
    extra = [Heading(start, start, 1, f"Slide {page}") for page, start in first.items() if page not in titled]
    return sorted([*headings, *extra], key=lambda h: (h.start, h.end))


# pulldown-cmark's CommonMark (through pyromark), not the parser's markdown-it: the reference is
# another engine's reading of the file, and about ten times as fast as a second markdown-it parse
# (0.04 s against 0.37 s of CPU over the fastapi docs). GFM tables are read as the parser reads
# them, and so is a front matter block: the first line's dashes (three or more) up to a line of
# as many dashes or of "...", as mdit-py-plugins' front_matter rule reads it (pulldown-cmark's own
# metadata blocks end at a blank line). It is blanked: no heading stands in it.
_FRONT_MATTER = re.compile(r"\A(-{3,})[^\r\n]*\r?\n(?:[^\r\n]*\r?\n)*?(?: {0,3}\1-*|\.\.\.)[ \t]*(?:\r?\n|\Z)")
_NOT_LINE_END = re.compile(r"[^\r\n]")
_LONE_CR = re.compile(r"\r(?!\n)")
_SURROGATE = re.compile("[\ud800-\udfff]")
_LINE_CHARS = re.compile(r"\r\n|\r|\n")


@lru_cache(maxsize=1)
def _options() -> Options:
    from pyromark import Options

    return Options.ENABLE_TABLES


def markdown_headings(source: str) -> list[Heading]:
    """Headings as pulldown-cmark reads the source, with their spans (whole source lines)."""
    import pyromark

    from parsegate.parsers.markdown.walk import plain_text  # markdown-it's inline rules

    # pulldown-cmark ends no line at a lone CR, CommonMark does: read as a line feed. A lone
    # surrogate (bytes decoded with surrogateescape) is no UTF-8: read as U+FFFD. One character
    # for one, as many bytes: every offset stays where it was.
    read = _SURROGATE.sub("\ufffd", _LONE_CR.sub("\n", source))
    if front := _FRONT_MATTER.match(read):
        read = _NOT_LINE_END.sub(" ", front.group()) + read[front.end() :]
    data = read.encode("utf-8")
    line_bytes = list(itertools.accumulate(map(len, data.splitlines(keepends=True)), initial=0))
    if len(line_bytes) > 1 and not data.endswith((b"\n", b"\r")):
        line_bytes.pop()  # the last line's end is no line start: as many starts as line ends, plus one
    line_chars = line_bytes if len(data) == len(read) else [0, *(m.end() for m in _LINE_CHARS.finditer(read))]

    def char(at: int) -> int:  # a byte offset as a character offset, counted from its line's start
        line = bisect.bisect_right(line_bytes, at) - 1
        return line_chars[line] + len(data[line_bytes[line] : at].decode("utf-8"))

    def line_start(line: int) -> int:
        return line_chars[line] if line < len(line_chars) else len(source)

    out: list[Heading] = []
    level = first = inner_start = inner_end = -1
    for event, span in pyromark.events_with_range(read, options=_options()):
        if level < 0:
            if type(event) is dict and type(start := event.get("Start")) is dict and "Heading" in start:
                level = int(start["Heading"]["level"][1:])
                first, inner_start, inner_end = bisect.bisect_right(line_bytes, span["start"]) - 1, -1, -1
        elif isinstance(event, dict) and isinstance(end := event.get("End"), dict) and "Heading" in end:
            # Its text, as a reader sees it (markup, links, entities read): what a section path names.
            if inner_start < 0:
                title = ""
            else:
                opens = char(inner_start)
                content = _inline(source[line_start(first) : opens], source[opens : char(inner_end)])
                title = plain_text(_ATTRIBUTES.sub("", content))
            last = bisect.bisect_left(line_bytes, span["end"])
            out.append(Heading(line_start(first), line_start(last), level, title))
            level = -1
        else:
            inner_start = span["start"] if inner_start < 0 else inner_start
            inner_end = max(inner_end, span["end"])
    return out


def _inline(prefix: str, content: str) -> str:
    """A heading's inline source as markdown-it hands it over: ``content`` runs from its first
    inline event to its last one's end; on each line after the first, the block quote markers
    ``prefix`` (what stands before the content on its first line) holds and the indentation are
    not the title's. NUL read as U+FFFD (CommonMark's rule)."""
    first, *rest = _LINE_CHARS.split(content)
    marks = _quote_marks(prefix.count(">"))
    return "\n".join([first, *(marks.sub("", line, count=1) for line in rest)]).strip().replace("\x00", "\ufffd")


@lru_cache(maxsize=8)
def _quote_marks(depth: int) -> re.Pattern[str]:
    return re.compile(rf"^[ \t]*(?:>[ \t]?){{0,{depth}}}")


def _title(text: str) -> str:
    return " ".join(_ATTRIBUTES.sub("", text).split()).casefold()


def _paths(headings: list[Heading]) -> list[tuple[str, ...]]:
    """The section path each heading opens: itself under the nearest shallower ones before it."""
    stack: list[Heading] = []
    out = []
    for h in headings:
        while stack and stack[-1].level >= h.level:
            stack.pop()
        stack.append(h)
        out.append(tuple(_title(s.title) for s in stack))
    return out


def _expected(
    headings: list[Heading], starts: list[int], paths: list[tuple[str, ...]], start: int, end: int, text: str
) -> tuple[str, ...]:
    """The common path of the body text in [start, end); the last heading's path if none."""
    first = bisect.bisect_right(starts, start) - 1
    if first >= 0 and headings[first].end <= start:
        before = paths[first]  # the section the chunk starts in
    elif first >= 0:
        before = paths[first - 1] if first > 0 else ()  # the chunk starts inside a heading
        first -= 1
    else:
        before = ()
    cursor, path, body, held = start, before, [], []
    for n in range(first + 1, len(headings)):
        h = headings[n]
        if h.start >= end:
            break
        if text[cursor : h.start].strip():
            body.append(path)
        cursor, path = max(cursor, h.end), paths[n]
        held.append(path)
    if text[cursor:end].strip():
        body.append(path)
    return _common(body or held or [path])


def _common(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    common = paths[0]
    for p in paths[1:]:
        n = 0
        while n < min(len(common), len(p)) and common[n] == p[n]:
            n += 1
        common = common[:n]
    return common


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(HeadingFacts)
    return own.heading_ok, own.heading_checked


def applies(facts: DocFacts) -> bool:
    return facts.get(HeadingFacts).has_headings  # no headings: the check does not apply


CHECK = Definition(
    name="headings",
    metric="heading_inheritance",
    label="heading inheritance",
    limit=Limit("min_heading_inheritance", 0.95),
    facts=HeadingFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    needs_source=frozenset({"markdown", "rst"}),  # their titles are read from the source itself
    independent=True,
    applies=applies,
    stored="heading_ok",
)
