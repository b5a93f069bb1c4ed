"""The document: the one canonical text every offset refers to, its elements in reading order,
and the errors and warnings of making it."""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field
from typing import Any

from parsegate.parsers.model.element import Element
from parsegate.parsers.model.kinds import NON_BODY_KINDS, CodeData
from parsegate.parsers.model.spans import line_starts


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


def content_version(data: bytes) -> str:
    """A document version: the hash of its source bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()
