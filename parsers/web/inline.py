"""The text of one block of a web page as a browser lays it out: runs of HTML whitespace
collapse to one space, ``<br>`` breaks the line, ``<pre>`` keeps its text as written, and the
inline formatting around each piece (bold, italic, code, a link's target) becomes a span.

Offsets are tracked as integers while the text grows; the string is built once, at the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# HTML's whitespace (not Unicode's: a no-break space is text).
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")


def _reading_order(span: dict[str, Any]) -> tuple[int, int]:
    return span["start"], -span["end"]


@dataclass
class _Mark:
    style: str
    href: str | None
    start: int | None = None  # where its first character landed in this block's text


@dataclass
class InlineText:
    parts: list[str] = field(default_factory=list)
    size: int = 0
    pending_space: bool = False
    marks: list[_Mark] = field(default_factory=list)
    spans: list[dict[str, Any]] = field(default_factory=list)

    # -- text ---------------------------------------------------------------------------
    def add(self, text: str | None) -> None:
        """Text as HTML lays it out: whitespace runs become one space, none at a block's start."""
        if not text:
            return
        if "\xa0" in text:  # a no-break space is text: split on HTML's whitespace only
            words = _HTML_SPACE.split(text)
            leading, trailing = not words[0], not words[-1]
            collapsed = " ".join(word for word in words if word)
        else:
            leading, trailing = text[0].isspace(), text[-1].isspace()
            collapsed = " ".join(text.split())
        if leading:
            self.pending_space = True
        if collapsed:
            self._write(collapsed)
        if trailing:
            self.pending_space = True

    def add_verbatim(self, text: str | None) -> None:
        """Text as written (inside ``<pre>``)."""
        if text:
            self.pending_space = False
            self._write(text)

    def line_break(self) -> None:
        if self.size:
            self.pending_space = False
            self._write("\n", resolve=False)

    def _write(self, text: str, resolve: bool = True) -> None:
        if self.pending_space and self.size and not self.parts[-1].endswith("\n"):
            self.parts.append(" ")
            self.size += 1
        self.pending_space = False
        if resolve:
            for mark in self.marks:
                if mark.start is None:
                    mark.start = self.size
        self.parts.append(text)
        self.size += len(text)

    # -- formatting -----------------------------------------------------------------------
    def open(self, style: str, href: str | None = None) -> None:
        self.marks.append(_Mark(style, href))

    def close(self) -> None:
        if self.marks:
            self._span(self.marks.pop(), self.size)

    def _span(self, mark: _Mark, end: int) -> None:
        if mark.start is not None and end > mark.start:
            span: dict[str, Any] = {"start": mark.start, "end": end, "style": mark.style}
            if mark.href is not None:
                span["href"] = mark.href
            self.spans.append(span)

    # -- the block ------------------------------------------------------------------------
    def take(self) -> tuple[str, list[dict[str, Any]]]:
        """This block's text and spans; formatting still open carries on into the next block."""
        parts = self.parts
        stripped = (parts[0] if len(parts) == 1 else "".join(parts)).rstrip()
        self.parts, self.size, self.pending_space = [], 0, False
        if not self.marks and not self.spans:
            return stripped, []  # most blocks: no formatting at all
        end = len(stripped)
        for mark in self.marks:
            self._span(mark, end)
            mark.start = None
        spans = [span if span["end"] <= end else {**span, "end": end} for span in self.spans if span["start"] < end]
        if len(spans) > 1:
            spans.sort(key=_reading_order)
        self.spans = []
        return stripped, spans

    def empty(self) -> bool:
        """Nothing written: leading whitespace never is, and a line break only after text."""
        return not self.size
