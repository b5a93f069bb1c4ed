"""A delimited table (CSV, TSV) by its content: rows of one shape.

The standard library's ``csv.Sniffer`` chooses a delimiter among ``, ; <tab> |``; the content
is a table when, read with it, at least ``_MIN_ROWS`` rows agree on a field count, nearly every
row has that count, and the count says "table" rather than "prose with a comma in each line":
three fields or more, or two where the sniffer finds a header (a column whose first cell is
text over values that are numbers or of one length). A Markdown pipe table (lines that start
with ``|``) is Markdown's, not a delimited file.
"""

from __future__ import annotations

import csv
from collections import Counter

_DELIMITERS = ",;\t|"
_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_MIN_ROWS = 3  # a header and two rows
_SHARE = 0.9  # of rows with the common field count
_SAMPLE = 32_768
_LINE = 2048  # a sniffer scan of a longer line costs seconds and tells nothing more


def delimited(text: str) -> tuple[str, str] | None:
    """``("csv" | "tsv", why)`` when ``text`` (a file's first characters) is a delimited table."""
    lines = [line for line in text[:_SAMPLE].splitlines() if line.strip()]
    if len(text) > _SAMPLE or len(lines) > 2 * _MIN_ROWS:
        lines = lines[:-1]  # the last line may be cut short
    if len(lines) < _MIN_ROWS or lines[0].lstrip().startswith("|") or any(len(line) > _LINE for line in lines):
        return None
    sample = "\n".join(lines) + "\n"
    sniffer = csv.Sniffer()
    try:
        dialect = sniffer.sniff(sample, delimiters=_DELIMITERS)
    except csv.Error:
        return None
    try:
        rows = list(csv.reader(sample.splitlines(), delimiter=dialect.delimiter, quotechar=dialect.quotechar))
    except csv.Error:
        return None
    counts = Counter(len(row) for row in rows)
    fields, agreeing = counts.most_common(1)[0]
    if fields < 2 or agreeing < _MIN_ROWS or agreeing < _SHARE * len(rows):
        return None
    if fields == 2 and not _has_header(sniffer, sample):
        return None
    delimiter = dialect.delimiter
    why = f"content: {agreeing} of {len(rows)} rows of {fields} {_NAMES[delimiter]}-separated fields"
    return ("tsv" if delimiter == "\t" else "csv"), why


def _has_header(sniffer: csv.Sniffer, sample: str) -> bool:
    try:
        return sniffer.has_header(sample)
    except (csv.Error, StopIteration, ValueError, TypeError, OverflowError):
        return False
