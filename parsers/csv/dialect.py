"""A delimited file's dialect and whether its first row is a header, both from the standard
library's ``csv.Sniffer`` on the file's first lines, with fallbacks where it cannot tell.

- Delimiter: a ``.tsv``/``.tab`` file (format ``tsv``) is tab-separated by its name; otherwise the sniffer chooses
  among ``, ; <tab> |`` (a file it cannot read, one column, is comma-separated: each line one cell).
- Quoting: the sniffer's quote character (``"`` or ``'``); a quote inside a quoted field is
  doubled (RFC 4180), whatever the sniffer guesses.
- Header: ``Sniffer.has_header`` votes column by column (a first-row cell that is text where the
  column holds numbers, or of another length where its values all have one length, is a header
  cell). Where it has nothing to vote on (every column text of varying length) it says no; then
  a first row of distinct, short, non-numeric labels is taken for the header, as most CSV files
  have one.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass

SAMPLE_CHARS = 32_768  # the first lines the sniffer reads (its delimiter scan is per ASCII character)
_DELIMITERS = ",;\t|"
_LABEL_CHARS = 64  # a header cell is a label, not a sentence
_LINE_CHARS = 2048  # of a line of the sample


@dataclass(frozen=True)
class Dialect:
    """What the ``csv`` module reads a file with, and how it was chosen."""

    delimiter: str
    quotechar: str
    doublequote: bool
    skipinitialspace: bool
    how: str  # "sniffed", "by suffix", "default"

    def reader_options(self) -> dict[str, object]:
        return {
            "delimiter": self.delimiter,
            "quotechar": self.quotechar,
            "doublequote": self.doublequote,
            "skipinitialspace": self.skipinitialspace,
            "strict": False,
        }

    def to_json(self) -> dict[str, object]:
        return {"delimiter": self.delimiter, "quotechar": self.quotechar, "how": self.how}


def sample_of(text: str) -> str:
    """The first lines of ``text``, cut at a line end (a whole file when it is small), each line
    cut at 2,048 characters: the sniffer's quote patterns scan a line from every delimiter they
    try, and a 32 KB line of ``, "x`` took it 2 s (a line that long tells no dialect anyway)."""
    head = text[:SAMPLE_CHARS]
    if len(text) > SAMPLE_CHARS:
        cut = max(head.rfind("\n"), head.rfind("\r"))
        head = head[: cut + 1] if cut > 0 else head
    lines = head.splitlines(keepends=True)
    if all(len(line) <= _LINE_CHARS for line in lines):
        return head
    return "".join(line if len(line) <= _LINE_CHARS else line[:_LINE_CHARS] + "\n" for line in lines)


def sniff(sample: str, fmt: str) -> Dialect:
    """The dialect of a file whose first lines are ``sample``, read as ``fmt`` (``csv``, ``tsv``)."""
    if fmt == "tsv":
        return Dialect("\t", '"', True, False, "by suffix")
    try:
        found = csv.Sniffer().sniff(sample, delimiters=_DELIMITERS)
    except csv.Error:  # "Could not determine delimiter": one column, or no regular structure
        return Dialect(",", '"', True, False, "default")
    quotechar = found.quotechar if found.quotechar in ('"', "'") else '"'
    # Doubled quotes, always: the sniffer says no when the field holding them also holds a
    # delimiter ("27"" cable, black"), and without them (and no escape character, which it never
    # finds) a quote inside a quoted field cannot be written at all.
    return Dialect(found.delimiter, quotechar, True, bool(found.skipinitialspace), "sniffed")


class _KnownDialect(csv.Sniffer):
    """``Sniffer.has_header`` reads the sample with the dialect already chosen (a TSV's tab, not
    a dialect it would sniff again)."""

    def __init__(self, dialect: Dialect) -> None:
        super().__init__()
        self.known = dialect

    def sniff(self, sample: str, delimiters: str | None = None) -> type[csv.Dialect]:
        known = self.known

        class Known(csv.Dialect):
            delimiter = known.delimiter
            quotechar = known.quotechar
            doublequote = known.doublequote
            skipinitialspace = known.skipinitialspace
            lineterminator = "\r\n"
            quoting = csv.QUOTE_MINIMAL

        return Known


def sniffed_header(sample: str, dialect: Dialect) -> bool:
    """``Sniffer.has_header`` on the sample, read with ``dialect`` (False where it cannot read it)."""
    try:
        return _KnownDialect(dialect).has_header(sample)
    except (csv.Error, StopIteration, ValueError, TypeError, OverflowError):
        return False


def looks_like_labels(cells: Sequence[str]) -> bool:
    """A first row of column names: every cell a short, non-numeric label, no two the same."""
    names = [cell.strip() for cell in cells]
    return (
        bool(names)
        and all(names)
        and len(set(names)) == len(names)
        and all(len(name) <= _LABEL_CHARS and "\n" not in name and "\r" not in name for name in names)
        and not any(_numeric(name) for name in names)
    )


def _numeric(cell: str) -> bool:
    try:
        complex(cell.replace(",", ""))
    except ValueError:
        return False
    return True
