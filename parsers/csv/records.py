"""The records of a delimited text, one at a time, each with its exact span and lines.

``csv.reader`` is fed the text line by line (a line keeps its CR, LF or CRLF, so a quoted field
keeps the line breaks inside it); it asks for the next line only while a record is open, so the
lines it took for a record are that record's lines, and their offsets its span. Nothing is read
ahead and no list of lines or records is made: a file of a million rows is walked, not copied.

A quoted field that never closes is reported (``Unclosed``) rather than read to the end of the
file as one cell: ``lines()`` offers the reader one line past the text, which only a record still
inside its quotes takes. The reader's own limit on a field's size (``csv.field_size_limit``, 128 KiB
by default: a quote opened and never closed in a large file) is a ``csv.Error`` the caller turns
into a warning and a plain reading (``plain_records``: each line a record, split at the
delimiter, quotes as they stand).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass

from parsegate.parsers.csv.dialect import Dialect

_LINE_END = re.compile(r"\r\n|\r|\n")
_PAST_END = "\n"  # the line offered after the text: taken only by a record still inside quotes


@dataclass(slots=True)
class Record:
    start: int  # the record's first character
    end: int  # after its last character, before its line break
    first: int  # 1-based lines, inclusive
    last: int
    cells: list[str]


class Unclosed(Exception):
    """A quoted field opened on line ``line`` runs to the end of the file."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


class _Lines:
    """The text's lines, each with its line break, and where the last one taken ends."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0  # where the next line starts
        self.taken = 0  # lines taken
        self.past_end = False  # the line after the text was taken
        self._plain_lf = "\r" not in text  # (most files: a find, not a pattern, per line)

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        text, pos = self.text, self.pos
        if pos >= len(text):
            if self.past_end:
                raise StopIteration
            self.past_end = True
            return _PAST_END
        if self._plain_lf:
            cut = text.find("\n", pos)
            end = len(text) if cut < 0 else cut + 1
        else:
            found = _LINE_END.search(text, pos)
            end = len(text) if found is None else found.end()
        self.pos, self.taken = end, self.taken + 1
        return text[pos:end]


def records(text: str, dialect: Dialect) -> Iterator[Record]:
    """Each record of ``text`` but blank lines; ``Unclosed`` for a quote that never closes,
    ``csv.Error`` for what the reader refuses (a field over its size limit)."""
    lines = _Lines(text)
    reader = csv.reader(lines, **dialect.reader_options())  # type: ignore[arg-type]
    while True:
        start, first = lines.pos, lines.taken + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        if lines.past_end and first <= lines.taken:  # it took text lines, then the one past the end
            raise Unclosed(first)
        if start >= len(text):
            return  # the line past the end, read as the blank line it is
        end = _before_break(text, start, lines.pos)
        if end > start and not text[start:end].isspace():
            yield Record(start, end, first, lines.taken, cells)


def plain_records(text: str, dialect: Dialect) -> Iterator[Record]:
    """Each line a record, split at the delimiter; quotes are characters like any other."""
    lines = _Lines(text)
    for line in lines:
        if lines.past_end:
            return
        start = lines.pos - len(line)
        end = _before_break(text, start, lines.pos)
        if end > start and not text[start:end].isspace():
            yield Record(start, end, lines.taken, lines.taken, text[start:end].split(dialect.delimiter))


def _before_break(text: str, start: int, end: int) -> int:
    """``end`` less the line break the span ends with."""
    if end > start and text[end - 1] == "\n":
        end -= 1
    if end > start and text[end - 1] == "\r":
        end -= 1
    return end
