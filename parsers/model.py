"""The shared document model: what every parser produces and every chunker reads.

Nothing here imports a parser library. Offsets are character offsets into
``Document.text``, the one canonical text of a document.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

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


@dataclass
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
    data: dict[str, Any] = field(default_factory=dict)

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
        if self.data:
            out["data"] = self.data
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
        return {e.id: e for e in self.elements}

    def element(self, element_id: str) -> Element | None:
        if self._index is None:
            self._index = self.by_id()
        return self._index.get(element_id)

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
            e for e in self.elements if not e.is_container and e.kind not in NON_BODY_KINDS and not e.data.get("part")
        ]

    def line_of(self, offset: int) -> int:
        """1-based line number of a character offset (CR, LF and CRLF all end a line)."""
        if self._line_starts is None:
            self._line_starts = line_starts(self.text)
        return bisect.bisect_right(self._line_starts, offset)

    def lines_of(self, start: int, end: int) -> tuple[int, int]:
        return (self.line_of(start), self.line_of(max(start, end - 1)))


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
    return [0, *(m.end() for m in _LINE_END.finditer(text))]


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without leading and trailing whitespace (empty spans collapse to start)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def content_version(data: bytes) -> str:
    """A document version: the hash of its source bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()
