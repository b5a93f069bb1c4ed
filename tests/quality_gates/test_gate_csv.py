"""The gate's independent reading of a CSV/TSV file (quality_gates/references/table.py: the
``csv`` module's records, read apart from the parser) against the parser's rows in the chunks
(quality_gates/checks/recall_rows.py): a parser that drops a row, or reads two records as one,
fails extraction recall; words by position alone cannot see it."""

from __future__ import annotations

import itertools

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import csv as csv_parser
from parsegate.parsers.model import Document, RowData
from parsegate.quality_gates.checks.base import Faults
from parsegate.quality_gates.checks.recall import RecallFacts, _by_position
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references import open_reference
from parsegate.quality_gates.references.table import read_records
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate
from parsegate.quality_gates.words import words
from tests.conftest import GOLDEN

EXPENSES = GOLDEN / "csv/expense-report/input.csv"
READINGS = GOLDEN / "csv/station-readings/input.tsv"


@pytest.fixture(scope="module")
def chunker() -> Chunker:
    return Chunker(ChunkConfig(max_tokens=96))


def gate(doc: Document, source: bytes, chunker: Chunker):  # type: ignore[no-untyped-def]
    chunks = chunker.chunk(doc)
    return measure(doc, chunks, chunker.counter, chunker.config.max_tokens, source), chunks


@pytest.mark.parametrize("path", [EXPENSES, READINGS], ids=["csv", "tsv"])
def test_the_golden_files_pass_with_every_record_found(path, chunker: Chunker) -> None:  # type: ignore[no-untyped-def]
    data = path.read_bytes()
    doc = csv_parser.parse(data, path.name)
    facts, _ = gate(doc, data, chunker)
    recall = facts.get(RecallFacts)
    assert recall.recall_source == "source file, csv module reading"
    assert recall.recall_found == recall.recall_words == len(words(doc.text))
    verdict = evaluate(facts, Thresholds())
    assert verdict.passed, verdict.failed


def test_the_reading_counts_records_and_fields_on_its_own() -> None:
    text = EXPENSES.read_bytes().decode()
    records = read_records(text, tab=False)
    assert len(records) == 13 and not records.plain
    assert list(records.lines) == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14]  # the quoted line break: 5-6
    assert set(records.fields) == {7}
    readings = read_records(READINGS.read_bytes().decode(), tab=True)
    assert len(readings) == 13 and set(readings.fields) == {7}
    unclosed = read_records('a,b\n1,"2\n3,4\n', tab=False)
    assert unclosed.plain and list(unclosed.lines) == [1, 2, 3]


def without_row(doc: Document, first_line: int) -> Document:
    """The parser's document less the row that starts on ``first_line``."""
    doc.elements = [e for e in doc.elements if not (isinstance(e.data, RowData) and e.lines[0] == first_line)]
    doc._index = doc._children = None
    return doc


def test_a_dropped_row_fails_recall_though_every_word_lies_inside_a_chunk() -> None:
    data = EXPENSES.read_bytes()
    doc = without_row(csv_parser.parse(data, EXPENSES.name), 5)  # the row with the quoted line break
    facts, chunks = gate(doc, data, Chunker(ChunkConfig(max_tokens=256)))
    assert [c.lines for c in chunks] == [(1, 8), (9, 14)]  # the first chunk runs over the row it lacks
    recall = facts.get(RecallFacts)
    lost = len(words(doc.text[366:491]))  # the row's words: lines 5-6 of the file
    assert (recall.recall_words - recall.recall_found) == lost == 20
    assert facts.faults["extraction_recall"] == [
        {
            "lines": [5, 6],
            "records": 1,
            "words": 20,
            "why": "records of the file (as the csv module reads it) that no row of a chunk holds",
        }
    ]
    verdict = evaluate(facts, Thresholds())
    assert [c.check for c in verdict.failed] == ["min_extraction_recall"]
    # Words by position (the other text formats' reading) find every word: a chunk runs over the gap.
    reference = open_reference("text", data, EXPENSES.name)
    assert reference is not None
    total, found = _by_position(Faults(), doc, chunks, reference, {})
    assert found == total


def test_two_records_read_as_one_row_fail_recall(chunker: Chunker) -> None:
    data = EXPENSES.read_bytes()
    doc = csv_parser.parse(data, EXPENSES.name)
    rows = [e for e in doc.elements if isinstance(e.data, RowData)]
    second, third = rows[2], rows[3]  # lines 3 and 4: as a parser that misread a quote would
    second.end, second.lines = third.end, (3, 4)
    doc.elements.remove(third)
    doc._index = doc._children = None
    facts, _ = gate(doc, data, chunker)
    recall = facts.get(RecallFacts)
    assert recall.recall_words - recall.recall_found == len(words(doc.text[second.start : second.end]))
    assert not evaluate(facts, Thresholds()).passed


def test_a_row_over_the_budget_cut_in_pieces_is_found(chunker: Chunker) -> None:
    """The pieces of a row alone over budget lie in chunks that follow each other, the space
    between two pieces in neither (a real file: questions with their evidence as JSON cells)."""
    data = b'id,text\n1,"' + b" ".join(b"word%d" % i for i in range(300)) + b'"\n2,short\n'
    doc = csv_parser.parse(data, "long.csv")
    facts, chunks = gate(doc, data, chunker)
    assert len(chunks) > 3 and any(b.start > a.end for a, b in itertools.pairwise(chunks))
    recall = facts.get(RecallFacts)
    assert recall.recall_found == recall.recall_words == 305


def test_quoted_fields_after_a_space_are_read_alike(chunker: Chunker) -> None:
    """`a, "x, y"`: with the space skipped (the sniffer says so) the quote opens the field, and
    the quoted line break is inside it; read without, the records split otherwise."""
    data = b'name, note, n\nann, "two\nlines", 1\nbob, "x, y", 2\ncy, plain, 3\n'
    doc = csv_parser.parse(data, "spaced.csv")
    assert [e.lines for e in doc.elements[1:]] == [(1, 1), (2, 3), (4, 4), (5, 5)]
    records = read_records(data.decode(), tab=False)
    assert list(records.lines) == [1, 2, 4, 5] and list(records.last_lines) == [1, 3, 4, 5]
    recall = gate(doc, data, chunker)[0].get(RecallFacts)
    assert recall.recall_found == recall.recall_words == 14
