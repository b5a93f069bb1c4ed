"""The CSV/TSV parser (parsers/csv/): exact spans and lines of every row, the dialect and the
header as sniffed, malformed input as warnings or ParseError, and the chunker carrying the header
into every chunk of rows while keeping each row whole."""

from __future__ import annotations

import tracemalloc

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import csv as csv_parser
from parsegate.parsers.model import Document, ParseError, RowData, TableData

ORDERS = (
    b"order,customer,address,total\r\n"
    b'1001,Acme Ltd,"12 High St, Leeds",120.50\r\n'
    b'1002,"Bolt & Co","Unit 4\r\nDock Road, Hull",99.00\r\n'
    b"\r\n"
    b'1003,"Say ""hi"", Ltd",Main St,7\r\n'
)


def rows(doc: Document) -> list[tuple[int, int, tuple[int, int] | None, list[str], bool]]:
    return [(e.start, e.end, e.lines, e.data.cells, e.data.header) for e in doc.elements if isinstance(e.data, RowData)]


def test_each_record_is_one_row_at_the_exact_span_of_its_lines() -> None:
    doc = csv_parser.parse(ORDERS, "orders.csv")
    assert doc.format == "csv" and doc.text == ORDERS.decode() and doc.warnings == []
    assert rows(doc) == [
        (0, 28, (1, 1), ["order", "customer", "address", "total"], True),
        (30, 70, (2, 2), ["1001", "Acme Ltd", "12 High St, Leeds", "120.50"], False),
        (72, 120, (3, 4), ["1002", "Bolt & Co", "Unit 4\r\nDock Road, Hull", "99.00"], False),
        (124, 156, (6, 6), ["1003", 'Say "hi", Ltd', "Main St", "7"], False),
    ]
    assert doc.text[72:120] == '1002,"Bolt & Co","Unit 4\r\nDock Road, Hull",99.00'
    assert doc.text[124:156] == '1003,"Say ""hi"", Ltd",Main St,7'
    table = doc.elements[0]
    assert (table.kind, table.start, table.end, table.lines, table.parent) == ("table", 0, 156, (1, 6), None)
    assert isinstance(table.data, TableData)
    assert table.data.header_text == "order,customer,address,total" and table.data.rows == 3
    assert all(e.parent == "e0" for e in doc.elements[1:])
    assert doc.metadata == {
        "dialect": {"delimiter": ",", "quotechar": '"', "how": "sniffed"},
        "header": True,
        "rows": 3,
        "columns": 4,
    }


def test_lines_agree_with_the_documents_own_line_table() -> None:
    doc = csv_parser.parse(ORDERS.replace(b"\r\n", b"\n"), "orders.csv")
    for e in doc.elements:
        assert e.lines == doc.lines_of(e.start, e.end)


def test_a_tsv_is_tab_separated_by_its_name_though_its_cells_hold_commas() -> None:
    data = b"name\tnote\nAda\tyes, twice\nBob\tno, never\n"
    doc = csv_parser.parse(data, "people.tsv")
    assert doc.format == "tsv" and doc.metadata["dialect"] == {"delimiter": "\t", "quotechar": '"', "how": "by suffix"}
    assert [r[3] for r in rows(doc)] == [["name", "note"], ["Ada", "yes, twice"], ["Bob", "no, never"]]
    assert csv_parser.parse(data, "-", suffix=".tab").format == "tsv"


def test_a_semicolon_separated_file_is_sniffed() -> None:
    data = b"Artikel;Preis;Menge\nSchraube;0,10;500\nMutter;0,05;800\n"
    doc = csv_parser.parse(data, "lager.csv")
    assert doc.metadata["dialect"]["delimiter"] == ";"
    assert [r[3] for r in rows(doc)][1] == ["Schraube", "0,10", "500"]


def test_a_file_of_numbers_only_has_no_header_and_its_rows_no_context() -> None:
    data = b"".join(b"%d,%d,%d\n" % (i, i * i, i * 3) for i in range(1, 40))
    doc = csv_parser.parse(data, "squares.csv")
    assert doc.metadata["header"] is False and all(not r[4] for r in rows(doc)) and len(rows(doc)) == 39
    table = doc.elements[0].data
    assert isinstance(table, TableData) and table.header_text is None and table.header == []
    chunks = Chunker(ChunkConfig(max_tokens=32)).chunk(doc)
    assert len(chunks) > 1 and all(c.embed_text == c.text for c in chunks)


def test_a_header_of_labels_over_text_columns_is_a_header_where_the_sniffer_has_no_vote() -> None:
    """Every column text of varying length: Sniffer.has_header says no; the first row is labels."""
    data = b"name,city\nAlice,Paris\nBob,Rio de Janeiro\nCharlotte,Oslo\n"
    from parsegate.parsers.csv.dialect import sniff, sniffed_header

    assert sniffed_header(data.decode(), sniff(data.decode(), "csv")) is False
    doc = csv_parser.parse(data, "people.csv")
    assert doc.metadata["header"] is True and rows(doc)[0][3:] == (["name", "city"], True)


@pytest.mark.parametrize(
    "first",
    [b"Alice,42", b"Alice,Alice", b"Alice,", b"Alice,%s" % (b"x" * 65)],
    ids=["a number", "a repeated cell", "an empty cell", "a long cell"],
)
def test_a_first_row_that_is_no_labels_is_a_row(first: bytes) -> None:
    doc = csv_parser.parse(first + b"\nBob,Rio de Janeiro\nCharlotte,Oslo\n", "x.csv")
    assert doc.metadata["header"] is False and rows(doc)[0][4] is False and len(rows(doc)) == 3


def test_one_record_is_a_row_not_a_header() -> None:
    doc = csv_parser.parse(b"a,b,c", "one.csv")
    assert rows(doc) == [(0, 5, (1, 1), ["a", "b", "c"], False)]
    assert doc.elements[0].data.rows == 1


@pytest.mark.parametrize("data", [b"", b"\n\n", b"  \r\n\t\n"])
def test_an_empty_file_has_no_elements_and_says_so(data: bytes) -> None:
    doc = csv_parser.parse(data, "empty.csv")
    assert doc.elements == [] and [w.code for w in doc.warnings] == ["empty"]
    assert doc.metadata["rows"] == 0 and doc.metadata["columns"] == 0


def test_ragged_rows_are_kept_with_a_warning_naming_their_lines() -> None:
    data = b"a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n"
    doc = csv_parser.parse(data, "ragged.csv")
    assert [r[3] for r in rows(doc)][2:4] == [["4", "5"], ["6", "7", "8", "9"]]
    assert [(w.code, w.message) for w in doc.warnings] == [
        ("ragged_rows", "2 row(s) have another number of fields than the header's 3 (lines 3, 4); kept as they are")
    ]


def test_a_quote_that_never_closes_is_a_warning_and_every_line_a_row() -> None:
    data = b'id,note\n1,ok\n2,"broken\n3,fine\n'
    doc = csv_parser.parse(data, "open.csv")
    assert [(w.code, w.message) for w in doc.warnings] == [
        ("bad_quoting", "a quoted field opened on line 3 never closes: read as one row per line, split at ','")
    ]
    assert rows(doc) == [
        (0, 7, (1, 1), ["id", "note"], True),
        (8, 12, (2, 2), ["1", "ok"], False),
        (13, 22, (3, 3), ["2", '"broken'], False),
        (23, 29, (4, 4), ["3", "fine"], False),
    ]


def test_a_quote_that_closes_on_the_last_line_without_a_line_break_is_no_fault() -> None:
    doc = csv_parser.parse(b'id,note\n1,"two\nlines"', "x.csv")
    assert doc.warnings == [] and rows(doc)[1] == (8, 21, (2, 3), ["1", "two\nlines"], False)


def test_a_field_over_the_readers_limit_is_a_warning_not_a_traceback() -> None:
    data = b'id,blob\n1,"' + b"x" * 200_000 + b'"\n2,small\n'
    doc = csv_parser.parse(data, "big.csv")
    assert [w.code for w in doc.warnings] == ["bad_quoting"]
    assert "field larger than field limit" in doc.warnings[0].message
    assert [r[2] for r in rows(doc)] == [(1, 1), (2, 2), (3, 3)]


@pytest.mark.parametrize(
    "data, code",
    [
        (b"a,b\n1,\x002\n", "binary"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "binary"),
    ],
)
def test_binary_content_named_csv_is_refused_with_a_reason(data: bytes, code: str) -> None:
    with pytest.raises(ParseError) as info:
        csv_parser.parse(data, "junk.csv")
    assert info.value.code == code


def test_every_chunk_of_rows_carries_the_header_and_no_row_is_cut() -> None:
    lines = [b"id,product,region,comment"] + [
        b'%d,Widget %d,EU,"Line one of %d\nline two, with a comma"' % (i, i, i) for i in range(60)
    ]
    doc = csv_parser.parse(b"\n".join(lines) + b"\n", "widgets.csv")
    chunks = Chunker(ChunkConfig(max_tokens=64)).chunk(doc)
    assert len(chunks) > 5
    header = "id,product,region,comment"
    assert all(c.embed_text.startswith(header) for c in chunks)
    bounds = {(e.start, e.end) for e in doc.elements if isinstance(e.data, RowData)}
    starts, ends = {s for s, _ in bounds}, {e for _, e in bounds}
    assert all(c.start in starts and c.end in ends for c in chunks)  # chunks begin and end at rows


def test_parsing_keeps_no_more_than_the_document_in_memory() -> None:
    """What parsing holds beyond the Document it returns, against the file's size (tracemalloc:
    allocations, not time): the decoder's one pass over the bytes (about 1.06 times the file).
    A parser that listed the records first (3.07) or split the text into lines (3.25) is over 1.5."""
    data = b"id,name,score\n" + b"".join(b'%d,"Name %d, Jr",%d.5\n' % (i, i, i % 97) for i in range(20_000))
    csv_parser.parse(data[:2000], "warm-up.csv")  # imports and caches: not the parse's own memory
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        doc = csv_parser.parse(data, "scores.csv")
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(doc.elements) == 20_002 and kept > before
    assert (peak - kept) / len(data) < 1.5


def test_the_sniffer_reads_no_line_longer_than_2048_characters() -> None:
    """Its quote patterns are quadratic in a line's length (a 32 KB line of `, "x` took 2 s)."""
    from parsegate.parsers.csv.dialect import sample_of

    text = 'id,note\n1,"' + ', "x' * 7_000 + '"\n2,ok\n'  # 28 KB: all of it in the sample
    sample = sample_of(text)
    assert [len(line) for line in sample.splitlines()] == [7, 2048, 4]
    assert sample_of("a,b\n1,2\n") == "a,b\n1,2\n"
