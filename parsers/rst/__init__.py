"""reStructuredText → Document: block structure from docutils' parser (walk.py), spans from the
source's own lines (lines.py).

``Document.text`` is the decoded file (parsers/bytes/decode.py). docutils gives each node the
line it starts on, never an offset: each unit (a heading, paragraph, list item, table row, code
block…) runs from the first line of its construct to the first line of the next unit, trimmed of
white space, so every character of the source lies in exactly one unit, and its offsets are
exact. A unit whose line docutils does not know, or whose line is not after the one before it, is
part of the unit before it (its text stays there, as written).

docutils runs with no file access and no output: ``.. include::`` and ``.. raw::`` are kept as
text and never followed (``file_insertion_enabled``/``raw_enabled`` off), no configuration file
is read, no message is printed (report and halt levels above every message), and no transform
runs (the spans are the source's; substitutions, footnote numbers and generated contents are
not). Comments are furniture: declared, listed by the gate, not embedded.
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from typing import Any

import docutils
from docutils import nodes

from parsegate.parsers.build.order import renumbered
from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.formats import spec
from parsegate.parsers.model import (
    CodeData,
    Document,
    Element,
    ListData,
    ParseError,
    ParseWarning,
    TableData,
    TextData,
    content_version,
    line_starts,
    trim_span,
)
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.rst.lines import Lines, for_docutils
from parsegate.parsers.rst.walk import Unit, Walker, _Context

NAME = "rst"
SPEC = spec(NAME)  # parsers/formats.py: suffixes, output version
OUTPUT_VERSION = SPEC.output_version
SUFFIXES = SPEC.suffixes
# Part of every chunk_set: chunk ids name the library that found the structure.
VERSION = f"{OUTPUT_VERSION}+docutils/{docutils.__version__}"

_SETTINGS = {
    "file_insertion_enabled": False,  # .. include:: and file options: never a file read
    "raw_enabled": False,
    "report_level": 5,  # above every message: nothing reported
    "halt_level": 5,  # never stop at one
    "warning_stream": False,  # and nowhere to write one
    "syntax_highlight": "none",  # code-block's language is kept; Pygments is not run
    "smart_quotes": False,
    "character_level_inline_markup": False,
    "pep_references": False,
    "rfc_references": False,
    "tab_width": 8,
}


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``options`` and ``suffix`` change nothing here: one form, no limit applies."""
    text, encoding_note = decode_noted(data)
    starts = line_starts(text)
    lines = Lines(text, starts)
    walker = Walker(lines, _doctree)
    try:
        walker.walk(_doctree(for_docutils(text)), _Context())
    except RecursionError:
        raise ParseError("nesting_limit", "blocks nested deeper than docutils' parser can follow") from None
    elements = _elements(walker.units, lines)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format="rst",
        text=text,
        elements=elements,
        metadata={**walker.front, **_metadata(elements, text)},
        parser=f"{NAME} {VERSION}",
        warnings=_warnings(walker),
        _line_starts=starts,
    )
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    if encoding_note is not None:
        doc.warnings.insert(0, encoding_note)
    return doc


@lru_cache(maxsize=1)
def _settings() -> Any:
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser

    settings = get_default_settings(Parser)
    for key, value in _SETTINGS.items():
        setattr(settings, key, value)
    return settings


def _doctree(text: str) -> nodes.document:
    """docutils' reading of ``text``, without transforms."""
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    document = new_document("<rst>", _settings())
    Parser().parse(text, document)
    return document


def _elements(units: list[Unit], lines: Lines) -> list[Element]:
    """Elements from the units: each leaf from its first line to the next leaf's, containers
    around their leaves."""
    text, starts = lines.text, lines.starts
    leaves: list[Unit] = []
    last = -1
    # In line order: docutils puts a header directive's content first in the tree, wherever it is.
    for u in sorted((u for u in units if not u.container and u.line is not None), key=lambda u: u.line or 0):
        if u.line is None or u.line <= last or u.line >= lines.count:
            u.kept = False
        else:
            leaves.append(u)
            last = u.line
    leaves = _after_stops(leaves, units, lines)
    path: tuple[str, ...] = ()
    for u in leaves:  # (in line order: a header directive's content is under the section it is in)
        if u.kind == "heading":
            path = u.path
        else:
            u.path = path
    first = leaves[0].line if leaves else len(starts)
    if first and text[: starts[first] if first < len(starts) else len(text)].strip():
        lead = Unit("paragraph", 0, TextData(recovered=True))  # text before any block docutils found
        units.insert(0, lead)
        leaves.insert(0, lead)
    spans: dict[int, tuple[int, int]] = {}
    for n, u in enumerate(leaves):
        assert u.line is not None
        end = starts[leaves[n + 1].line] if n + 1 < len(leaves) else len(text)  # type: ignore[index]
        start, end = trim_span(text, starts[u.line], end)
        if start < end:
            spans[id(u)] = (start, end)
        else:
            u.kept = False
    for u in leaves:  # containers around their leaves
        if id(u) not in spans:
            continue
        start, end = spans[id(u)]
        parent = u.parent
        while parent is not None:
            if parent.container:
                held = spans.get(id(parent))
                spans[id(parent)] = (start, end) if held is None else (min(held[0], start), max(held[1], end))
            parent = parent.parent
    order = [u for u in units if id(u) in spans]
    for n, u in enumerate(order):
        u.ident = f"u{n}"
    out: list[Element] = []
    for u in order:
        start, end = spans[id(u)]
        parent = u.parent
        while parent is not None and id(parent) not in spans:
            parent = parent.parent
        data = u.data
        if u.lead is not None and id(u.lead) in spans and isinstance(data, (ListData, CodeData)):
            data.lead_in = u.lead.ident
        if isinstance(data, TableData):
            head = next((r for r in order if r.parent is u and r.kind == "table_row" and r.data.header), None)  # type: ignore[attr-defined]
            if head is not None:
                data.header_text = _header_text(text, *spans[id(head)], head.cells, lines)
        first = bisect.bisect_right(starts, start)
        out.append(
            Element(
                u.ident,
                u.kind,
                start,
                end,
                level=u.level,
                section_path=u.path,
                parent=parent.ident if parent is not None else None,
                lines=(first, bisect.bisect_right(starts, end - 1)),
                data=data,
            )
        )
    return renumbered(out)


def _after_stops(leaves: list[Unit], units: list[Unit], lines: Lines) -> list[Unit]:
    """A unit that ends at its own last line (a comment) leaves what follows it, up to the next
    unit, to a paragraph of its own: text after a comment is never furniture."""
    out: list[Unit] = []
    for n, u in enumerate(leaves):
        out.append(u)
        if u.stop is None:
            continue
        end = leaves[n + 1].line if n + 1 < len(leaves) else lines.count
        assert end is not None
        rest = next((k for k in range(u.stop, end) if not lines.blank(k)), None)
        if rest is not None:
            recovered = Unit("paragraph", rest, TextData(recovered=True), path=u.path, parent=u.parent)
            units.append(recovered)
            out.append(recovered)
    return out


def _header_text(text: str, start: int, end: int, cells: int | None, lines: Lines) -> str | None:
    """A table's header as its rows' context, a span of the source (a chunk holding the header
    row holds it as written): the header row's lines from the one its cells start on (else
    without a directive's own line and options: a csv-table's ``:header:`` option is its header)
    to its last line that is no border."""
    first = bisect.bisect_right(lines.starts, start) - 1
    last = bisect.bisect_right(lines.starts, max(start, end - 1)) - 1
    kept = []
    for n in range(cells if cells is not None and cells > first else first, last + 1):
        bare = lines.line(n).strip()
        if not bare or not bare.strip("=-+|: \t"):
            continue  # a blank or border line
        if cells is None and (bare.startswith("..") or (bare.startswith(":") and not bare.startswith(":header:"))):
            continue  # a directive's own line, an option
        kept.append(n)
    if not kept:
        return None
    s, e = trim_span(
        text, max(start, lines.starts[kept[0]]), min(end, lines.starts[kept[-1]] + len(lines.line(kept[-1])))
    )
    return text[s:e] or None


def _metadata(elements: list[Element], text: str) -> dict[str, Any]:
    """The title: the only top-level section's title (several: the document has parts, no title)."""
    tops = [e for e in elements if e.kind == "heading" and e.level == 1]
    return {"title": tops[0].section_path[-1]} if len(tops) == 1 and tops[0].section_path else {}


def _warnings(walker: Walker) -> list[ParseWarning]:
    out = []
    if walker.unknown:
        named = ", ".join(f"{name} ×{count}" for name, count in sorted(walker.unknown.items()))
        out.append(
            ParseWarning(
                "unknown_directive",
                "directives docutils does not know (Sphinx's, an extension's) kept as text, their"
                f" content read as reStructuredText: {named}",
            )
        )
    if walker.disabled:
        named = ", ".join(f"{name} ×{count}" for name, count in sorted(walker.disabled.items()))
        out.append(ParseWarning("not_followed", f"directives kept as text, never run (no file is read): {named}"))
    return out
