"""CSV and TSV → Document: one table, its header row carried into every piece, one atomic
element per data row.

``Document.text`` is the decoded file (parsers/bytes/decode.py, as for every text format). The
dialect and the header are sniffed by the standard library's ``csv.Sniffer`` (dialect.py); the
records are read by ``csv.reader`` one at a time, each with the exact span of its line(s)
(records.py): a quoted field with line breaks stays in its row. Elements: a ``table`` container
(``TableData``: header cells, body row count, ``header_text`` the header row's own text, which the
chunker repeats as context in every chunk of rows), the header row (``RowData(header=True)``, which
glues to the first body row) and one ``table_row`` per record. Without a header row, the rows
carry no context. Blank lines are no rows.

Memory: the text is walked record by record, and only the Document's own elements are kept.

Malformed input ends in a warning or a ParseError, never a traceback: rows with another number of
fields than the header (``ragged_rows``); a quote that never closes, or a field over the reader's
size limit (``bad_quoting``: the file is then read a line a row, split at the delimiter); binary
content and garbage (ParseError from the decoder).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator

from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.csv.dialect import Dialect, looks_like_labels, sample_of, sniff, sniffed_header
from parsegate.parsers.csv.records import Record, Unclosed, plain_records, records
from parsegate.parsers.formats import spec
from parsegate.parsers.model import (
    Document,
    Element,
    ParseWarning,
    RowData,
    TableData,
    content_version,
)
from parsegate.parsers.options import DEFAULTS, ParseOptions

NAME = "csv"
SPEC = spec(NAME)  # parsers/formats.py: suffixes, output version
OUTPUT_VERSION = SPEC.output_version
VERSION = str(OUTPUT_VERSION)
SUFFIXES = SPEC.suffixes
_LISTED_LINES = 5  # ragged rows named in the warning


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``options`` change nothing here; ``suffix`` (else ``doc_id``'s) tells a TSV by its name."""
    text, encoding_note = decode_noted(data)
    suffix = (suffix or _suffix(doc_id)).lower()
    form = SPEC.form_for(suffix)
    fmt = form.name if form is not None else "csv"  # a file named otherwise (stdin, --format csv): CSV
    sample = sample_of(text)
    dialect = sniff(sample, fmt)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format=fmt,
        text=text,
        elements=[],
        parser=f"{NAME} {VERSION}",
    )
    table = _Table(doc, dialect, sniffed_header(sample, dialect))
    try:
        table.read(records(text, dialect))
    except (Unclosed, csv.Error) as exc:
        why = (
            f"a quoted field opened on line {exc.line} never closes"
            if isinstance(exc, Unclosed)
            else f"the csv module stopped on line {table.lines_read + 1}: {exc}"
        )
        doc.elements.clear()  # (before the plain reading: one set of elements at a time)
        table = _Table(doc, dialect, table.header_sniffed)
        table.read(plain_records(text, dialect))
        doc.warnings.append(
            ParseWarning("bad_quoting", f"{why}: read as one row per line, split at {dialect.delimiter!r}")
        )
    table.finish()
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    if encoding_note is not None:
        doc.warnings.insert(0, encoding_note)
    return doc


def _suffix(doc_id: str) -> str:
    name = doc_id.rsplit("/", 1)[-1]
    return name[name.rfind(".") :] if "." in name else ""


class _Table:
    """The table's elements, appended to the document as records come."""

    def __init__(self, doc: Document, dialect: Dialect, header_sniffed: bool) -> None:
        self.doc, self.dialect, self.header_sniffed = doc, dialect, header_sniffed
        self.data = TableData()
        self.table = Element("e0", "table", 0, 0, data=self.data)
        self.width = 0  # fields of the header (or first) row
        self.ragged: list[int] = []  # first lines of rows of another width
        self.ragged_count = 0
        self.rows = 0
        self.lines_read = 0

    def read(self, found: Iterator[Record]) -> None:
        elements = self.doc.elements
        first: Record | None = None
        for record in found:
            self.lines_read = record.last
            if first is None:
                first = record
                continue
            if not elements:  # the second record: the first one is known now to head a table of rows
                self.open(first, self.header_sniffed or looks_like_labels(first.cells))
            self.row(record)
        if first is not None and not elements:  # a single record: a row, no header
            self.open(first, False)

    def open(self, first: Record, header: bool) -> None:
        """The table container, and the first record: its header row, or its first body row."""
        self.table.start = first.start
        self.doc.elements.append(self.table)
        self.width = len(first.cells)
        if header:
            self.data.header = first.cells
            self.data.header_text = self.doc.text[first.start : first.end]
            self._append(first, True)
        else:
            self.row(first)

    def row(self, record: Record) -> None:
        self.rows += 1
        if len(record.cells) != self.width:
            self.ragged_count += 1
            if len(self.ragged) < _LISTED_LINES:
                self.ragged.append(record.first)
        self._append(record, False)

    def _append(self, record: Record, header: bool) -> None:
        elements = self.doc.elements
        elements.append(
            Element(
                f"e{len(elements)}",
                "table_row",
                record.start,
                record.end,
                parent="e0",
                lines=(record.first, record.last),
                data=RowData(cells=record.cells, header=header),
            )
        )

    def finish(self) -> None:
        doc = self.doc
        header = self.data.header_text is not None
        doc.metadata.update(
            dialect=self.dialect.to_json(), header=header, rows=self.rows, columns=self.width if doc.elements else 0
        )
        if not doc.elements:
            return
        last = doc.elements[-1]
        self.table.end = last.end
        self.table.lines = (doc.elements[1].lines or (1, 1))[0], (last.lines or (1, 1))[1]
        self.data.rows = self.rows
        if self.ragged_count:
            lines = ", ".join(map(str, self.ragged)) + (", …" if self.ragged_count > len(self.ragged) else "")
            what = "the header's" if header else "the first row's"
            doc.warnings.append(
                ParseWarning(
                    "ragged_rows",
                    f"{self.ragged_count} row(s) have another number of fields than {what} {self.width}"
                    f" (lines {lines}); kept as they are",
                )
            )
