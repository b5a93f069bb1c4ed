"""Where each JSON string of a notebook lies in its source text, and where each decoded
character of a string lies inside it.

The standard ``json`` module reads the structure (and says what is wrong with a file that is not
JSON); it gives no positions, so the string tokens are found by a pattern over the same text. In
valid JSON a double quote outside a string opens one (numbers, literals, white space and
punctuation hold no quote or backslash), so the tokens the pattern finds, in order, are exactly
the strings ``json`` reads, keys included, in the order a walk of the parsed value meets them
(objects are read as lists of pairs: duplicate keys keep their place).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# One JSON string token, quotes included (unrolled: no alternation per character).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# One escape inside a string: \uXXXX (a surrogate pair is two) or a backslash and one character.
_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}|\\.", re.DOTALL)
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class NotJson(ValueError):
    """The text is not JSON (the message says where), or nests deeper than can be read."""


@dataclass(frozen=True, slots=True)
class Str:
    """A JSON string value and the span of its content in the source (between its quotes)."""

    value: str
    start: int
    end: int


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as json reads it with ``object_pairs_hook``: its pairs in source order."""


def load(text: str) -> Any:
    """``text`` (a JSON document) as Python values, with every string value a ``Str``; objects
    are dicts (of plain ``str`` keys: a repeated key keeps its last value, as ``json`` does)."""
    body = text[1:] if text.startswith("\ufeff") else text
    try:
        tree = json.loads(body, object_pairs_hook=_Pairs)
    except json.JSONDecodeError as exc:
        raise NotJson(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise NotJson("nested too deeply to read") from None
    tokens = _STRING.finditer(text)
    try:
        return _positioned(tree, tokens)
    except RecursionError:
        raise NotJson("nested too deeply to read") from None


def _positioned(node: Any, tokens: Iterator[re.Match[str]]) -> Any:
    if isinstance(node, _Pairs):
        out: dict[str, Any] = {}
        for key, value in node:
            next(tokens)  # the key's token
            out[key] = _positioned(value, tokens)
        return out
    if isinstance(node, list):
        return [_positioned(item, tokens) for item in node]
    if isinstance(node, str):
        token = next(tokens)
        return Str(node, token.start() + 1, token.end() - 1)
    return node


def char_starts(text: str, s: Str) -> list[int] | None:
    """Where each character of ``s.value`` starts in ``text`` (and, last, ``s.end``); None when
    the string has no escape (character ``i`` is then at ``s.start + i``)."""
    if text.find("\\", s.start, s.end) < 0:
        return None
    starts: list[int] = []
    decoded: list[str] = []
    at = s.start
    pending: tuple[int, int] | None = None  # a high surrogate escape: its code and start
    for m in _ESCAPE.finditer(text, s.start, s.end):
        for i in range(at, m.start()):
            starts.append(i)
            decoded.append(text[i])
        escape = m.group(0)
        if escape[1] == "u":
            code = int(escape[2:], 16)
            if pending is not None and m.start() == pending[1] + 6 and 0xDC00 <= code <= 0xDFFF:
                # the pair's low half: one character from the high half's start
                decoded[-1] = chr(0x10000 + ((pending[0] - 0xD800) << 10) + (code - 0xDC00))
                pending = None
                at = m.end()
                continue
            starts.append(m.start())
            decoded.append(chr(code))
            pending = (code, m.start()) if 0xD800 <= code <= 0xDBFF else None
        else:
            starts.append(m.start())
            decoded.append(_SIMPLE.get(escape[1], escape[1]))
            pending = None
        at = m.end()
    for i in range(at, s.end):
        starts.append(i)
        decoded.append(text[i])
    if "".join(decoded) != s.value:  # (never, for the tokens of a text json read)
        raise NotJson(f"a string at offset {s.start} does not decode as JSON reads it")
    starts.append(s.end)
    return starts


@dataclass
class Block:
    """Strings read as one text (a cell's ``source`` list, an output's ``text``): its decoded
    text, and each decoded offset's place in the source."""

    source: str  # the notebook's text
    pieces: list[Str]
    text: str = ""
    _firsts: list[int] = field(default_factory=list)  # decoded offset where each piece starts
    _starts: list[list[int] | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.text = "".join(p.value for p in self.pieces)
        at = 0
        for piece in self.pieces:
            self._firsts.append(at)
            self._starts.append(char_starts(self.source, piece))
            at += len(piece.value)

    @property
    def start(self) -> int:
        return self.pieces[0].start

    @property
    def end(self) -> int:
        return self.pieces[-1].end

    def _place(self, piece: int, i: int) -> int:
        """Where character ``i`` of piece ``piece`` starts (``i`` == its length: the piece's end)."""
        starts = self._starts[piece]
        return self.pieces[piece].start + i if starts is None else starts[i]

    def raw_start(self, offset: int) -> int:
        """Where the decoded character at ``offset`` starts in the source."""
        piece = bisect.bisect_right(self._firsts, offset) - 1
        while piece + 1 < len(self.pieces) and offset - self._firsts[piece] >= len(self.pieces[piece].value):
            piece += 1  # past the end of this piece (empty pieces after it): the next one's start
        return self._place(piece, offset - self._firsts[piece])

    def raw_end(self, offset: int) -> int:
        """Where the decoded text up to ``offset`` (exclusive) ends in the source: right after
        character ``offset - 1``, inside the same piece (never over the quotes to the next)."""
        if offset <= 0:
            return self.start
        piece = bisect.bisect_right(self._firsts, offset - 1) - 1
        return self._place(piece, offset - self._firsts[piece])

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        return self.raw_start(start), self.raw_end(end)


def decoded(slice_: str) -> str:
    """The text a slice of a string list (from inside one string to inside the same or a later
    one of the same list) stands for: what the notebook's readers read there."""
    return "".join(json.loads(f'["{slice_}"]'))
