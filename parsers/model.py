"""The shared document model: what every parser produces and every chunker reads.

Nothing here imports a parser library. Offsets are character offsets into
``Document.text``, the one canonical text of a document.
"""

from __future__ import annotations

import bisect
import collections
import functools
import hashlib
import itertools
import re
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

# Elements whose span encloses other elements. Chunkers pack the leaves; containers
# only carry structure (a list's lead-in, a table's header).
CONTAINER_KINDS = frozenset({"list", "table", "blockquote"})
# Kinds that are never chunk text: metadata and page furniture.
NON_BODY_KINDS = frozenset({"front_matter", "furniture"})


class ParseError(Exception):
    """A file that cannot become a Document. ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ParseWarning:
    code: str
    message: str
    location: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "location": self.location}


# -- the parser → chunker contract: what each kind of element carries, typed ---------------


@dataclass(slots=True)
class Data:
    """What any element may carry beyond its span. Each kind has its own subclass (KIND_DATA);
    a chunker or gate reads them through ``isinstance``, never through string keys."""

    ref: str | None = None  # the item's own reference in the source (docling's self_ref)
    # Inline formatting: {"start", "end", "style"} with offsets into Document.text; links add "href".
    inline: list[dict[str, Any]] = field(default_factory=list)

    # Fields always written to JSON, even at their default (a row's ``header: false`` says something).
    ALWAYS: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.ALWAYS or value not in (None, False, [], ""):
                out[f.name] = value
        return out


@dataclass(slots=True)
class TextData(Data):
    """Paragraphs, headings, captions, footnotes, figure text, rules, HTML blocks."""

    recovered: bool = False  # Markdown: text no block rule claimed
    sheet: str | None = None  # XLSX: the worksheet a heading names
    cells: str | None = None  # XLSX: the cell range a note or title sits in ("A16")
    title_row: bool = False  # XLSX: a one-cell row that titles the table below it
    heading_confidence: float | None = None  # PDF: how sure a heading is to start a section (0-1)


@dataclass(slots=True)
class ListData(Data):
    ordered: bool = False
    lead_in: str | None = None  # id of the paragraph that introduces the list


@dataclass(slots=True)
class ItemData(Data):
    marker: str | None = None  # "-", "1."


@dataclass(slots=True)
class TableData(Data):
    header: list[str] = field(default_factory=list)  # header cells
    rows: int = 0  # body rows
    header_text: str | None = None  # the header line(s) every later row group carries as context
    lead_in: str | None = None  # id of the sentence or caption that introduces the table
    caption: str | None = None
    flat: bool = False  # rows found in text that lost its table markup
    pages: list[int] = field(default_factory=list)  # PDF: the pages a table runs over
    sheet: str | None = None  # XLSX
    cells: str | None = None  # XLSX: its cell range ("A1:C12")
    chart: str | None = None  # a chart's data, with the chart's type

    ALWAYS: ClassVar[tuple[str, ...]] = ("header", "rows", "header_text")


@dataclass(slots=True)
class RowData(Data):
    cells: list[str] = field(default_factory=list)
    header: bool = False

    ALWAYS: ClassVar[tuple[str, ...]] = ("cells", "header")


@dataclass(slots=True)
class CodeData(Data):
    """Code blocks, and the definitions the code parser finds (function, class, method)."""

    language: str | None = None
    info: str | None = None  # a Markdown fence's info string
    symbol: str | None = None  # the qualified name of a definition ("Session.request")
    signature: str | None = None  # a definition up to its body
    context: list[str] = field(default_factory=list)  # imports and constants it uses, headers around it
    parts: list[list[int]] = field(default_factory=list)  # spans of its body's parts, where it may be split
    part: bool = False  # a nested definition: a unit of its own only when its parent is split
    lead_in: str | None = None  # id of the list item that introduces a code block in it

    ALWAYS: ClassVar[tuple[str, ...]] = ("language",)


@dataclass(slots=True)
class TurnData(Data):
    speaker: str = ""

    ALWAYS: ClassVar[tuple[str, ...]] = ("speaker",)


@dataclass(slots=True)
class FurnitureData(Data):
    reason: str | None = None  # why it is not body text: "running header", "navigation", …
    html: str | None = None  # HTML: the markup it was


# Which Data each kind carries; any other kind carries TextData.
KIND_DATA: dict[str, type[Data]] = {
    "list": ListData,
    "list_item": ItemData,
    "table": TableData,
    "table_row": RowData,
    "code": CodeData,
    "function": CodeData,
    "class": CodeData,
    "method": CodeData,
    "turn": TurnData,
    "furniture": FurnitureData,
}


def data_class(kind: str) -> type[Data]:
    return KIND_DATA.get(kind, TextData)


# Slotted, as their data: tens of thousands per document, made and read over and over (a slotted
# instance is made in half the time and its fields are read faster).
@dataclass(slots=True)
class Element:
    id: str
    kind: str
    start: int
    end: int
    level: int | None = None
    section_path: tuple[str, ...] = ()
    parent: str | None = None
    lines: tuple[int, int] | None = None  # 1-based, inclusive
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None
    data: Data = field(default_factory=TextData)

    def __post_init__(self) -> None:
        if self.kind in KIND_DATA and type(self.data) is TextData and self.data == TextData():
            self.data = KIND_DATA[self.kind]()  # no data given: the kind's own, empty

    def with_kind(self, kind: str) -> Element:
        """The same span as another kind (a heading read as a paragraph), with that kind's data."""
        self.kind = kind
        if not isinstance(self.data, data_class(kind)):
            self.data = data_class(kind)(ref=self.data.ref, inline=self.data.inline)
        return self

    @property
    def is_container(self) -> bool:
        return self.kind in CONTAINER_KINDS

    def to_dict(self, text: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "text": text[self.start : self.end],
            "level": self.level,
            "section_path": list(self.section_path),
            "parent": self.parent,
            "lines": list(self.lines) if self.lines else None,
        }
        if self.page is not None:
            out["page"] = self.page
            out["bbox"] = list(self.bbox) if self.bbox else None
        data = self.data.to_json()
        if data:
            out["data"] = data
        return out


@dataclass
class Document:
    doc_id: str
    version: str
    format: str
    text: str
    elements: list[Element]
    metadata: dict[str, Any] = field(default_factory=dict)
    parser: str = ""
    warnings: list[ParseWarning] = field(default_factory=list)
    _line_starts: list[int] | None = field(default=None, repr=False, compare=False)
    _children: dict[str, list[Element]] | None = field(default=None, repr=False, compare=False)
    _index: dict[str, Element] | None = field(default=None, repr=False, compare=False)

    @property
    def title(self) -> str | None:
        title = self.metadata.get("title")
        return str(title) if title else None

    def by_id(self) -> dict[str, Element]:
        """Elements by id, built on first use and kept (read it, do not change it): the chunker
        asks once per definition it splits, and a fresh dict each time made a 10 MB module
        quadratic."""
        if self._index is None:
            self._index = {e.id: e for e in self.elements}
        return self._index

    def element(self, element_id: str) -> Element | None:
        return self.by_id().get(element_id)

    def children(self, parent_id: str) -> list[Element]:
        """Elements whose structural parent is ``parent_id``, in reading order."""
        if self._children is None:
            self._children = {}
            for e in self.elements:
                if e.parent:
                    self._children.setdefault(e.parent, []).append(e)
        return self._children.get(parent_id, [])

    def leaves(self) -> list[Element]:
        """Body elements that hold text of their own, in reading order. Parts (a method inside
        a class) are not leaves: they become units only when their whole is over budget."""
        return [
            e
            for e in self.elements
            if not e.is_container
            and e.kind not in NON_BODY_KINDS
            and not (isinstance(e.data, CodeData) and e.data.part)
        ]

    def line_of(self, offset: int) -> int:
        """1-based line number of a character offset (CR, LF and CRLF all end a line)."""
        return bisect.bisect_right(self._starts(), offset)

    def lines_of(self, start: int, end: int) -> tuple[int, int]:
        # line_of twice, written out: parsers ask once per element.
        starts = self._starts()
        return (bisect.bisect_right(starts, start), bisect.bisect_right(starts, max(start, end - 1)))

    def _starts(self) -> list[int]:
        """``line_starts(self.text)``, built on first use (or handed over by the parser that built it)."""
        if self._line_starts is None:
            self._line_starts = line_starts(self.text)
        return self._line_starts


_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass
class TextBuilder:
    """Builds a normalized ``Document.text`` piece by piece (for formats whose text is ours to
    build: PDF, Office), handing back each piece's exact span."""

    pieces: list[str] = field(default_factory=list)
    size: int = 0

    def add(self, text: str, sep: str = "\n\n") -> tuple[int, int]:
        if self.pieces:
            self.pieces.append(sep)
            self.size += len(sep)
        start = self.size
        self.pieces.append(text)
        self.size += len(text)
        return start, self.size

    def next_start(self, sep: str = "\n\n") -> int:
        """Where the next piece will start."""
        return self.size + (len(sep) if self.pieces else 0)

    def text(self) -> str:
        return "".join(self.pieces)


def line_starts(text: str) -> list[int]:
    """Offsets where each line begins, splitting on CRLF, CR and LF as CommonMark does."""
    if text.isascii():  # its characters are its bytes
        return byte_line_starts(text.encode("ascii"))
    lines = text.splitlines(keepends=True)
    if len(lines) != _commonmark_lines(text):
        # str.splitlines also ended lines at other characters (\x0b, \x0c, \x1c-\x1e, \x85,
        # U+2028, U+2029), where CommonMark does not.
        return [0, *(m.end() for m in _LINE_END.finditer(text))]
    # It ended them exactly where CommonMark does (or at one other character closing the text,
    # which starts no line either), and its lengths are summed in C (a match object per line
    # was twice as slow).
    starts = [0, *itertools.accumulate(map(len, lines))]
    if text and not text.endswith(("\n", "\r")):
        starts.pop()  # the end of a last line without a line end starts no line
    return starts


def _commonmark_lines(text: str) -> int:
    """How many lines CommonMark reads in ``text`` (CRLF, CR and LF end one). Counted, not
    searched for the other line ends str.splitlines knows: a pattern scan of every character
    took longer than the split itself."""
    ends = text.count("\n")
    if "\r" in text:  # (most text has none: the two counts are not made)
        ends += text.count("\r") - text.count("\r\n")
    return ends + (1 if text and not text.endswith(("\n", "\r")) else 0)


def byte_line_starts(src: bytes) -> list[int]:
    """Offsets where each line begins. bytes.splitlines ends a line at CRLF, CR and LF, exactly
    CommonMark's line ends (str.splitlines has more), and sums lengths in C, not per match."""
    starts = [0, *itertools.accumulate(map(len, src.splitlines(keepends=True)))]
    if src and not src.endswith((b"\n", b"\r")):
        starts.pop()  # the end of a last line without a line end starts no line
    return starts


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without leading and trailing whitespace (empty spans collapse to start)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# What may end a sentence or a heading's run-in ("Note:"), closers after it included.
_SENTENCE_END = frozenset(".!?:;。！？；：")
_CLOSERS = frozenset("\"')]}”’»")
# What a line may end with when its sentence runs on: a comma, an opening parenthesis, a dash, or
# a hyphen breaking a word (ASCII, U+2010 as groff sets it in man pages, a soft hyphen).
_RUNS_ON = frozenset(",–(")
_HYPHENS = frozenset("-\u2010\u00ad")


def flows_across(text: str, left: int, right: int) -> bool:
    """Whether the sentence before a line break (``text[:left]``) runs on after it
    (``text[right:]``): a page break or a wrap, not the writer's, put the break there. It does
    when the text before ends no sentence and what follows continues it: a lower-case word, a
    figure after a lower-case word ("cpu is at | 54%"), or the rest of a hyphenated word."""
    before = left - 1
    while before > 0 and text[before].isspace():
        before -= 1
    while before > 0 and text[before] in _CLOSERS:
        before -= 1
    while right < len(text) and text[right].isspace():
        right += 1
    if before < 0 or right >= len(text):
        return False
    last, nxt = text[before], text[right]
    if last in _SENTENCE_END:
        return False
    if nxt.islower():
        if last in _HYPHENS:  # a word broken at a hyphen, or a dash; not a rule ("-------")
            return before > 0 and (text[before - 1].isalpha() or text[before - 1].isspace())
        return last.isalnum() or last in _RUNS_ON
    return nxt.isdigit() and last.isalpha() and last.islower()


# A page break inside a sentence that goes on with a capital or a figure ("Across 335" |
# "NMC pouch cells, ..."): the line before it and the line after it are full lines of
# wrapped prose. A writer's paragraph ends on a line of its own length, a heading is short.
_FULL_LINE = 0.8  # of the widest line above
_FULL_MIN = 40  # characters: nobody wraps prose narrower than this
# Only a page ends there: the gap holds a form feed (pdftotext), or the text above it runs this
# many lines without a blank one (a page's text layer; a writer's paragraphs are shorter).
_PAGE_LINES = 20
_COLUMNS = re.compile(r"[^.!?:\s][ \u00a0]{2,}\S|\t")
_STOP_INSIDE = re.compile(r"(?:[^\W\d_]|\))[.!?][\"')\]”’]*\s+\S")


def page_break_inside(text: str, left: int, right: int) -> bool:
    """Whether the blank line between ``left`` and ``right`` falls inside a sentence: it flows
    across (flows_across), or the wrapped prose above it (the lines since the blank line before,
    two or more, a sentence ending inside) stops on a full line that ends no sentence and the
    text below opens with a full line too. Text taken from a PDF puts a blank line where a page
    ended, whatever the next page opens with: a name, an acronym, a figure."""
    if flows_across(text, left, right):
        return True
    lines = _run_above(text, left)
    page = "\f" in text[left:right] or len(lines) >= _PAGE_LINES
    if not page or len(lines) < 2 or not _STOP_INSIDE.search("\n".join(lines)):
        return False
    width = max(len(line.rstrip()) for line in lines)
    last = lines[-1].strip()
    if width < _FULL_MIN or len(last) < _FULL_LINE * width or not (last[-1].isalnum() or last[-1] in _RUNS_ON):
        return False
    if _COLUMNS.search(last):  # a row of a listing or a table ("tune/  - tuning files"), no prose
        return False
    # The next line only, however long the text below (this runs at every blank line).
    line_end = text.find("\n", right, right + 4096)
    first = text[right : line_end if line_end >= 0 else right + 4096].strip()
    return first[:1].isalnum() and len(first) >= _FULL_LINE * width


def _run_above(text: str, left: int, most: int = 3 * _PAGE_LINES) -> list[str]:
    """The lines (the last ``most`` of them) of the run of non-blank lines that ends at ``left``:
    a whole page's, wherever a parser or a chunk split it."""
    lines: list[str] = []
    end = left
    while len(lines) < most:
        start = text.rfind("\n", 0, end) + 1
        if not text[start:end].strip():
            break
        lines.append(text[start:end])
        if start == 0:
            break
        end = start - 1
    return lines[::-1]


# A page's furniture between the halves of a sentence in pdftotext's text: the running head and
# the page number at a form feed ("you may at" | "Appendix A: Copying" | "28" | "your option").
_FURNITURE_LINES = 3
_FURNITURE_CHARS = 60
_FURNITURE_REPEATS = 3  # pages a running head stands on, at their edge
_EDGE_CHARS = 400  # characters around a form feed looked at for its page's edge lines
# A page number alone or at either end of the line, or a section's number opening it ("3.1. IMAGE
# INCLUSION"): after a page that stopped mid-sentence, no section opens in lower case.
_PAGE_NUMBER = re.compile(r"\d+|[ivxlc]+", re.IGNORECASE)
_PAGE_NUMBERED = re.compile(r"(?:\d+(?:\.\d+)*\.?|[ivxlcdm]+)(?:\s.*)?|.*\s\d+", re.IGNORECASE)


def page_bridge(text: str, left: int, limit: int) -> int | None:
    """Where the sentence that stops at ``left`` goes on across a form feed, past up to three
    lines of the page's furniture, each a paragraph of its own: the offset of the line it goes
    on in, or None. It goes on as ``flows_across`` says, in a lower-case word. Furniture is a
    short line that is a page number, holds one at its start or end ("Font structure 87"), or
    stands on many pages ("The pdfTEX user manual"); a line of body text is none of these."""
    lines = _lines_after(text, left, limit, _FURNITURE_LINES + 1)
    if not any("\f" in gap for gap, _, _ in lines):
        return None  # (most blank lines: no page break in reach)
    # A page's head comes with its number: beside a bare page number, any short line is furniture.
    numbered = any(_PAGE_NUMBER.fullmatch(text[start:end].strip()) for _, start, end in lines)
    fed = False
    for n, (gap, start, end) in enumerate(lines):
        fed = fed or "\f" in gap
        if fed and text[start].islower() and flows_across(text, left, start):
            return start  # a page number is no sentence going on ("at" | "28"), a word is
        if n and gap.count("\n") < 2 and "\f" not in gap:
            return None  # furniture stands alone, after a blank line or a form feed
        if not _furniture(text, text[start:end].strip(), numbered):
            return None
    return None


def _lines_after(text: str, left: int, limit: int, most: int) -> list[tuple[str, int, int]]:
    """(the white space before it, start, end) of each of the next ``most`` non-blank lines."""
    out: list[tuple[str, int, int]] = []
    cursor = left
    while len(out) < most:
        start = cursor
        while start < limit and text[start].isspace():
            start += 1
        if start >= limit:
            break
        end = text.find("\n", start, limit)
        end = limit if end < 0 else end
        out.append((text[cursor:start], start, end))
        cursor = end
    return out


def _furniture(text: str, line: str, numbered: bool) -> bool:
    line = " ".join(line.split())  # pdftotext -layout sets a head and its number columns apart
    if len(line) > _FURNITURE_CHARS or line[-1] in ".!?;:,":
        return False
    return numbered or _PAGE_NUMBERED.fullmatch(line) is not None or line in _running_heads(text)


@functools.lru_cache(maxsize=2)
def _running_heads(text: str) -> frozenset[str]:
    """Lines that stand at the edge of many pages (among the three lines before or after a form
    feed): a running head or foot. Once per document: every form feed asks."""
    seen: collections.Counter[str] = collections.Counter()
    for feed in (m.start() for m in re.finditer("\f", text)):
        after = [" ".join(ln.split()) for ln in text[feed + 1 : feed + 1 + _EDGE_CHARS].split("\n")]
        before = [" ".join(ln.split()) for ln in text[max(0, feed - _EDGE_CHARS) : feed].split("\n")]
        edge = [ln for ln in after if ln][:_FURNITURE_LINES] + [ln for ln in before if ln][-_FURNITURE_LINES:]
        seen.update(set(edge))
    return frozenset(line for line, count in seen.items() if count >= _FURNITURE_REPEATS)


def content_version(data: bytes) -> str:
    """A document version: the hash of its source bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()
