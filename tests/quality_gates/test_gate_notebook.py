"""The gate's independent reading of a notebook: each cell's source and text output as
``json.loads`` reads them (references/notebook.py). A parser that drops a cell, or calls it JSON
furniture, fails extraction recall, with the lost words named."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import notebook
from parsegate.parsers.model import Document, Element, FurnitureData
from parsegate.quality_gates.checks.chunks import empty
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references import open_reference
from parsegate.quality_gates.references.notebook import notebook_texts, unescaped
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate

GOLDEN = Path(__file__).parents[2] / "golden_docs" / "notebook" / "sales-analysis" / "input.ipynb"
DATA = GOLDEN.read_bytes()
RESULTS = "cells[4]"  # the markdown cell "## Results", its table and its sentence


def gate(doc: Document):  # type: ignore[no-untyped-def]
    chunker = Chunker(ChunkConfig(max_tokens=128))
    records = chunker.chunk(doc)
    return evaluate(measure(doc, records, chunker.counter, chunker.max_tokens, DATA), Thresholds())


def _in_cell(doc: Document, ref: str) -> set[str]:
    (cell,) = [e for e in doc.elements if e.kind == "cell" and e.data.ref == ref]
    inside = {cell.id}
    for e in doc.elements:
        if e.parent in inside:
            inside.add(e.id)
    return inside


def test_the_golden_notebook_passes_the_gate() -> None:
    verdict = gate(notebook.parse(DATA, "input.ipynb"))
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0
    assert verdict.metrics["heading_inheritance"] == 1.0


def test_a_dropped_cell_fails_recall_by_its_words() -> None:
    doc = notebook.parse(DATA, "input.ipynb")
    dropped = _in_cell(doc, RESULTS)
    doc.elements = [e for e in doc.elements if e.id not in dropped]
    verdict = gate(doc)
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    # all 28 words of the cell ("results", the table, the sentence), of the notebook's 172
    assert verdict.metrics["extraction_recall"] == pytest.approx(1 - 28 / 172, abs=1e-6)
    assert check.faults[0]["count"] == 28
    assert "zurich" in check.faults[0]["words"].split()


def test_a_cell_declared_furniture_is_still_lost() -> None:
    # The reference is the notebook's cells, never the parser's view of what is text: a parser
    # cannot hide a cell it failed to read by calling it JSON.
    doc = notebook.parse(DATA, "input.ipynb")
    dropped = _in_cell(doc, RESULTS)
    cell = next(e for e in doc.elements if e.id in dropped and e.kind == "cell")
    doc.elements = [e for e in doc.elements if e.id not in dropped]
    doc.elements.append(Element("f", "furniture", cell.start, cell.end, data=FurnitureData(reason="JSON")))
    verdict = gate(doc)
    assert verdict.metrics["extraction_recall"] == pytest.approx(1 - 28 / 172, abs=1e-6)


def test_the_reference_reads_cells_and_text_outputs_with_json() -> None:
    ref = open_reference("notebook", DATA, "input.ipynb")
    assert ref is not None and ref.kind == "notebook cells (json)"
    assert ref.text == DATA.decode("utf-8")  # localization compares chunks with the file itself
    assert ref.cells is not None
    assert ref.cells[:2] == [
        "# Quarterly sales analysis\n\nThis notebook checks the regional sales figures before the board "
        "review.\nThe data comes from the finance export of 2 April.",
        "import csv\nfrom statistics import mean\n\nTARGET = 1_000_000",
    ]
    assert "loaded 48 rows from sales.csv\nskipped 2 rows without an amount\n" in ref.cells
    assert ref.cells[-3:] == ["mean([]) if False else 1 / 0", "ZeroDivisionError", "division by zero"]
    assert not any("iVBOR" in c for c in ref.cells)  # an image is no text
    assert notebook_texts("{not json") is None
    assert notebook_texts('{"nbformat": 4}') is None


def test_unescaped_reads_a_slice_of_one_list_exactly_and_any_other_roughly() -> None:
    assert unescaped('a \\"b\\"\\n",\n    "c\\u00e9 \\ud83d\\ude00') == 'a "b"\nc\u00e9 \U0001f600'
    assert unescaped('x\\n"\n ],\n "k": "y') == 'x\n"\n ],\n "k": "y'  # two strings of no one list


def test_a_notebook_whose_cells_hold_no_text_is_empty_not_failed() -> None:
    data = b'{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": []}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    doc = notebook.parse(data, "blank.ipynb")
    chunker = Chunker(ChunkConfig(max_tokens=128))
    records = chunker.chunk(doc)
    facts = measure(doc, records, chunker.counter, chunker.max_tokens, data)
    assert records == [] and empty(facts)
    assert evaluate(facts, Thresholds()).passed
