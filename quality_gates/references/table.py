"""A CSV or TSV file's records as the standard library's ``csv`` module reads them, on its own:
the gate's independent reading of a delimited file, which the recall check compares with the
parser's rows (quality_gates/checks/recall_rows.py).

Nothing here comes from the parser: the text is the gate's own decoding (text.py), read here by
``csv.reader`` over ``io.StringIO`` in the dialect ``csv.Sniffer`` gives (a ``tsv`` document
is tab-separated). Where the reader refuses the file (a field past its size limit) or a quote
never closes (a line put after the text is taken into the last record), every line is a record,
as the parser's own fallback reads it. For each record the reading keeps its first line, its
field and word counts and a key of its words (the gate's words, words.py: quotes, delimiters and
doubled quotes are no words), in arrays: a million records cost some 40 MB, not a list of lists
of strings.
"""

from __future__ import annotations

import csv
import io
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

from parsegate.quality_gates.words import words

_SAMPLE = 32_768


def row_key(found: list[str]) -> int:
    """A record's words as one number (collisions between two rows of a file are what a
    64-bit hash makes of them: negligible)."""
    return hash(tuple(found))


@dataclass
class Records:
    """The records of a file: per record, its first and last lines, its field and word counts and
    its key."""

    lines: array[int] = field(default_factory=lambda: array("q"))
    last_lines: array[int] = field(default_factory=lambda: array("q"))
    fields: array[int] = field(default_factory=lambda: array("q"))
    word_counts: array[int] = field(default_factory=lambda: array("q"))
    keys: array[int] = field(default_factory=lambda: array("q"))
    plain: bool = False  # read a line a record (the reader refused the file)

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, line: int, last: int, cells: list[str]) -> None:
        found = words(" ".join(cells))
        if not found and not any(cell.strip() for cell in cells):
            return  # a blank line, or one of delimiters only: nothing to find
        self.lines.append(line)
        self.last_lines.append(last)
        self.fields.append(len(cells))
        self.word_counts.append(len(found))
        self.keys.append(row_key(found))


def read_records(text: str, tab: bool) -> Records:
    """The records of ``text`` (``tab``: a TSV)."""
    options = _dialect(text, tab)
    out = Records()
    try:
        for line, last, cells in _read(text, options):
            out.add(line, last, cells)
    except (csv.Error, _Unclosed):
        out = Records(plain=True)
        delimiter = str(options["delimiter"])
        for n, line_text in enumerate(io.StringIO(text, newline=""), start=1):
            out.add(n, n, line_text.rstrip("\r\n").split(delimiter))
    return out


class _Unclosed(Exception):
    pass


# A last line past the text: read as a record of its own, unless a quote left open takes it in.
_SENTINEL = "\ue000parsegate-end"


def _read(text: str, options: dict[str, object]) -> Iterator[tuple[int, int, list[str]]]:
    """Each record with its first and last lines; _Unclosed when the text ends inside a quoted field."""
    closed = not text or text.endswith(("\n", "\r"))
    reader = csv.reader(io.StringIO(text + ("" if closed else "\n") + _SENTINEL, newline=""), **options)  # type: ignore[arg-type]
    line, pending = 1, None
    for cells in reader:
        if pending is not None:
            yield pending
        pending, line = (line, reader.line_num, cells), reader.line_num + 1
    if pending is None or pending[2] != [_SENTINEL]:
        raise _Unclosed


def _dialect(text: str, tab: bool) -> dict[str, object]:
    if tab:
        return {"delimiter": "\t", "quotechar": '"', "doublequote": True}
    # its first lines, each at most 2 KB (the sniffer's patterns are quadratic in a line's length)
    sample = "".join(line[:2048] + ("\n" if len(line) > 2048 else "") for line in text[:_SAMPLE].splitlines(True))
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return {"delimiter": ",", "quotechar": '"', "doublequote": True}
    quote = sniffed.quotechar if sniffed.quotechar in ('"', "'") else '"'
    return {
        "delimiter": sniffed.delimiter,
        "quotechar": quote,
        "doublequote": True,  # RFC 4180's escape (the sniffer's guess misses it beside a delimiter)
        "skipinitialspace": bool(sniffed.skipinitialspace),  # `a, "b"`: the quote opens the field
    }
