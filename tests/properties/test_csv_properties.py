"""The CSV/TSV parser on any input: a Document or a ParseError, nothing else; and in a Document,
rows in order at exact spans that, with whitespace, make up the whole text (nothing lost)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from parsegate.parsers import csv as csv_parser
from parsegate.parsers.model import Document, ParseError, RowData

# Text made mostly of what delimited files are made of: delimiters, both quotes, line ends, NUL.
CSVISH = st.text(alphabet=st.sampled_from([*",;\t|\"'\r\n \x00ab1é", "\u2028", "\x0c"]), max_size=300)
SUFFIX = st.sampled_from([".csv", ".tsv", ".tab"])


def parsed(data: bytes, suffix: str) -> Document | None:
    try:
        return csv_parser.parse(data, f"input{suffix}")
    except ParseError:
        return None


def check(doc: Document) -> None:
    text = doc.text
    row_spans = [(e.start, e.end) for e in doc.elements if isinstance(e.data, RowData)]
    assert row_spans == sorted(row_spans)
    cursor = 0
    for start, end in row_spans:
        assert cursor <= start < end <= len(text)
        assert not text[cursor:start].strip(" \t\r\n\x0b\x0c\u2028")  # only blank lines between rows
        cursor = end
    assert not text[cursor:].strip(" \t\r\n\x0b\x0c\u2028")
    for e in doc.elements:
        assert e.lines == doc.lines_of(e.start, e.end)
    if row_spans:
        table = doc.elements[0]
        assert (table.start, table.end) == (row_spans[0][0], row_spans[-1][1])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), SUFFIX)
@example(b'a,"b\n', ".csv")
@example(b"\xff\xfe" + "a,b\n".encode("utf-16-le"), ".csv")
@example(b'"' + b"x" * 140_000, ".csv")  # a field past csv.field_size_limit (no random input is that long)
def test_any_bytes_give_a_document_or_a_parse_error(data: bytes, suffix: str) -> None:
    doc = parsed(data, suffix)
    if doc is not None:
        check(doc)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CSVISH, SUFFIX)
@example('a,b\n"1,2\n3,4', ".csv")
@example("a\tb\n\u2028\t\x0c\n", ".tsv")
def test_any_delimited_text_gives_a_document_or_a_parse_error(text: str, suffix: str) -> None:
    doc = parsed(text.encode("utf-8"), suffix)
    if doc is not None:
        check(doc)
