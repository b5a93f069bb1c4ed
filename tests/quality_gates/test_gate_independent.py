"""The gate's checks against independent signals, each broken by a fixture that breaks exactly
it: a parser that files content under the wrong heading, alters text or drops a table column;
an over-budget chunk under an additive tokenizer with an added token; overlapping code chunks."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.record import Chunk
from parsegate.chunkers.tokens.counter import default_tokenizer_path, load_counter
from parsegate.parsers import code, markdown, pdf
from parsegate.quality_gates.checks.localization import LocalizationFacts
from parsegate.quality_gates.checks.recall import RecallFacts
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate
from tests.conftest import GOLDEN

GUIDE = b"""# Guide

Read this guide before you install anything on the servers.

## Install

Run the installer and accept the licence.

## Configure

Set the region to eu-west and the retention to 30 days.
"""


def verdict_of(doc, records, counter, budget, source):
    return evaluate(measure(doc, records, counter, budget, source), Thresholds())


def failed(verdict) -> list[tuple[str, object]]:
    return [(c.check, c.value) for c in verdict.failed]


@pytest.fixture(scope="module")
def chunker() -> Chunker:
    return Chunker(ChunkConfig(max_tokens=64))


def test_the_guide_passes_as_parsed(chunker: Chunker) -> None:
    doc = markdown.parse(GUIDE, "guide.md")
    verdict = verdict_of(doc, chunker.chunk(doc), chunker.counter, 64, GUIDE)
    assert verdict.passed, verdict.failed
    assert verdict.metrics["heading_inheritance"] == verdict.metrics["extraction_recall"] == 1.0


def test_a_latin_1_file_is_checked_against_its_own_bytes(chunker: Chunker) -> None:
    """A file that is not UTF-8 is read as Windows-1252 by the parser (with a warning) and by the
    gate's reference on its own: recall and localization are measured (the reference was None:
    no check at all), and a parser that read it otherwise fails them."""
    latin = GUIDE.replace(b"licence.", b"licence (\xe9dition fran\xe7aise).")
    doc = markdown.parse(latin, "guide.md")
    assert [w.code for w in doc.warnings] == ["not_utf8"] and "(édition française)" in doc.text
    verdict = verdict_of(doc, chunker.chunk(doc), chunker.counter, 64, latin)
    assert verdict.passed, verdict.failed
    assert verdict.metrics["localization"] == verdict.metrics["extraction_recall"] == 1.0
    misread = markdown.parse(latin, "guide.md")
    misread.text = misread.text.replace("é", "Ã©")  # the same bytes read as UTF-8 mojibake would be
    misread.text = misread.text[: len(doc.text)]
    records = chunker.chunk(misread)
    assert not verdict_of(misread, records, chunker.counter, 64, latin).passed


def test_a_parser_that_files_content_under_the_wrong_heading(chunker: Chunker) -> None:
    """Every element claims to sit under "Install": the chunks agree with the parser (the old
    check scored 1.0), markdown-it's own headings do not."""
    doc = markdown.parse(GUIDE, "guide.md")
    for e in doc.elements:
        if e.kind != "heading":
            e.section_path = ("Guide", "Install")
    records = chunker.chunk(doc)
    verdict = verdict_of(doc, records, chunker.counter, 64, GUIDE)
    wrong = sum(1 for c in records if "Set the region" in c.text or "Read this guide" in c.text)
    assert failed(verdict) == [("min_heading_inheritance", pytest.approx(1 - wrong / len(records), abs=1e-6))]
    fault = next(f for f in verdict.failed[0].faults if "Set the region" in GUIDE.decode()[f["start"] : f["end"]])
    assert "the source puts it under guide > configure" in fault["why"]


def test_a_parser_that_alters_text(chunker: Chunker) -> None:
    """The parser's text says 60 days where the file says 30: the chunk is its slice of the
    parser's text (the old check passed), not of the file."""
    doc = markdown.parse(GUIDE, "guide.md")
    doc.text = doc.text.replace("30 days", "60 days")
    records = chunker.chunk(doc)
    verdict = verdict_of(doc, records, chunker.counter, 64, GUIDE)
    assert failed(verdict) == [("min_localization", pytest.approx(2 / 3, abs=1e-6))]
    offset = GUIDE.decode().index("30 days")
    assert verdict.failed[0].faults[0]["why"] == f"text differs from the source file at offset {offset}"


def test_wrong_line_numbers_fail_localization(chunker: Chunker) -> None:
    doc = markdown.parse(GUIDE, "guide.md")
    records = chunker.chunk(doc)
    lines = records[-1].lines
    assert lines is not None
    records[-1].lines = (lines[0] + 1, lines[1] + 1)
    verdict = verdict_of(doc, records, chunker.counter, 64, GUIDE)
    assert failed(verdict) == [("min_localization", pytest.approx(2 / 3, abs=1e-6))]
    assert "but the span covers lines [9, 11]" in verdict.failed[0].faults[0]["why"]


# -- PDF ---------------------------------------------------------------------------------

TABLE_PDF = GOLDEN / "pdf" / "table-two-pages" / "input.pdf"


def test_a_pdf_parser_that_drops_a_table_column(chunker: Chunker, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table finder loses the last column ("Level (cm)"): the chunks are consistent with the
    parser's text (text coverage 1.0), but PDFium's text layer still has every level."""
    data = TABLE_PDF.read_bytes()
    whole = pdf.parse(data, "input.pdf")
    assert verdict_of(whole, chunker.chunk(whole), chunker.counter, 64, data).passed
    ruled_tables = pdf.ruled_tables

    def without_last_column(*args: object) -> list:
        tables = ruled_tables(*args)  # type: ignore[arg-type]
        for table in tables:
            table.rows = [row[:-1] for row in table.rows]
        return tables

    monkeypatch.setattr(pdf, "ruled_tables", without_last_column)
    doc = pdf.parse(data, "input.pdf")
    assert "| S1 | 1 |" in doc.text and "100" not in doc.text
    verdict = verdict_of(doc, chunker.chunk(doc), chunker.counter, 64, data)
    assert verdict.metrics["text_coverage"] == 1.0
    ((check, value),) = failed(verdict)
    assert check == "min_extraction_recall" and value < 0.8
    pages = verdict.failed[0].faults
    assert [f["page"] for f in pages] == [1, 2] and {"100", "137", "142"} <= set(pages[0]["words"].split())
    assert all(len(f["boxes"]) == f["count"] for f in pages)  # each lost word is drawn on its page


def test_a_pdf_parser_that_misreads_a_word(chunker: Chunker) -> None:
    """The word is not in its box. (Recall does not move: "level" reaches other chunks in the
    table header they repeat, as many times as the page has it.)"""
    data = TABLE_PDF.read_bytes()
    doc = pdf.parse(data, "input.pdf")
    doc.text = doc.text.replace("Water level", "Water lever")
    verdict = verdict_of(doc, chunker.chunk(doc), chunker.counter, 64, data)
    assert [c for c, _ in failed(verdict)] == ["min_localization"]
    assert verdict.failed[0].faults[0]["why"] == "1 words not inside its boxes on the page: lever"


def test_a_pdf_chunk_with_boxes_elsewhere(chunker: Chunker) -> None:
    data = TABLE_PDF.read_bytes()
    doc = pdf.parse(data, "input.pdf")
    records = chunker.chunk(doc)
    first, table = records[0], next(c for c in records[1:] if "table_row" in c.kinds)
    assert "Station Readings" in first.text and table.boxes
    first.boxes = table.boxes  # the heading's words are not in the table's box
    verdict = verdict_of(doc, records, chunker.counter, 64, data)
    assert failed(verdict) == [("min_localization", pytest.approx(1 - 1 / len(records), abs=1e-6))]
    why = verdict.failed[0].faults[0]["why"]
    assert re.match(r"\d+ words not inside its boxes on the page: .*\breadings\b", why), why
    first.boxes = [{**b, "page": 2} for b in table.boxes]
    why = verdict_of(doc, records, chunker.counter, 64, data).failed[0].faults[0]["why"]
    assert why == "a box on page 2, which the chunk does not name or the file does not have"


# -- budget -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def newline_tokenizer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """all-MiniLM-L6-v2 with one added token, "\\n": each newline now costs a token, which a
    BERT-style additivity check that ignores added tokens does not see."""
    spec = json.loads(default_tokenizer_path().read_text())
    spec["added_tokens"].append(
        {"id": len(spec["model"]["vocab"]), "content": "\n", "single_word": False, "lstrip": False,
         "rstrip": False, "normalized": False, "special": False}
    )  # fmt: skip
    folder = tmp_path_factory.mktemp("newline-tokenizer")
    (folder / "tokenizer.json").write_text(json.dumps(spec))
    return folder / "tokenizer.json"


def test_an_over_budget_chunk_under_an_additive_tokenizer_with_an_added_token(newline_tokenizer: Path) -> None:
    """The record says 60 tokens (what the units add up to); the tokenizer it names counts more.
    The gate counts every embed_text with that tokenizer and never trusts the record."""
    plain, newline = load_counter(), load_counter(str(newline_tokenizer))
    source = b"".join(b"Item %d is ready.\n" % n for n in range(1, 13))
    doc = code_free_text(source)
    text = source.decode().rstrip("\n")
    record = Chunk(
        id="ch-over", doc_id="items.txt", doc_version="v", chunk_set="cs", start=0, end=len(text), text=text,
        embed_text=text, tokens=plain.count(text), tokenizer=newline.fingerprint, section_path=[],
        kinds=["paragraph"], lines=(1, 12),
    )  # fmt: skip
    assert record.tokens <= 64 < newline.count(text)
    verdict = verdict_of(doc, [record], newline, 64, source)
    assert failed(verdict) == [("min_budget_compliance", 0.0), ("min_token_count_accuracy", 0.0)]
    assert verdict.failed[0].faults[0]["why"] == f"{newline.count(text)} tokens over the budget of 64"
    # The same record under the tokenizer it does not name is within budget: the name matters.
    unknown = verdict_of(doc, [replace(record, tokenizer="elsewhere@sha256:0")], newline, 64, source)
    assert unknown.failed[0].faults[0]["why"] == "unknown tokenizer 'elsewhere@sha256:0'"


def code_free_text(source: bytes):
    from parsegate.parsers import text

    return text.parse(source, "items.txt")


# -- code units -------------------------------------------------------------------------

STORE = b"""import json


class Store:
    def load(self, raw):
        return json.loads(raw)

    def size(self):
        return 0


def helper(x):
    return x + 1
"""


def test_overlapping_code_chunks(chunker: Chunker) -> None:
    doc = code.parse(STORE, "store.py")
    records = Chunker(ChunkConfig(max_tokens=28)).chunk(doc)
    counter = chunker.counter
    assert verdict_of(doc, records, counter, 64, STORE).passed
    last = records[-1]
    start = records[-2].start  # takes in the chunk before too (whole statements: still parses)
    last.start, last.text, last.lines = start, doc.text[start : last.end], doc.lines_of(start, last.end)
    last.embed_text = last.text
    last.tokens = counter.count(last.embed_text)
    verdict = verdict_of(doc, records, counter, 64, STORE)
    assert failed(verdict) == [("max_code_overlaps", 1)]
    assert verdict.failed[0].faults[0]["other"] == records[-2].id


TOTAL = b"""def total(values, weight):
    result = 0
    for value in values:
        result += value * weight
    return result
"""


def test_a_chunk_that_claims_a_whole_definition_but_does_not_parse() -> None:
    """A piece of a split function ("for value in values:") labelled as a whole function."""
    doc = code.parse(TOTAL, "total.py")
    small = Chunker(ChunkConfig(max_tokens=20))
    records = small.chunk(doc)
    assert [c.kinds for c in records] == [["code"]] * 3  # pieces, marked as such: not parsed alone
    before = failed(verdict_of(doc, records, small.counter, 20, TOTAL))
    assert before == [("max_short_chunk_rate", pytest.approx(1 / 3, abs=1e-6))]  # "for value in values:"
    records[1].kinds = ["function"]
    verdict = verdict_of(doc, records, small.counter, 20, TOTAL)
    assert failed(verdict) == [*before, ("min_code_parse", 0.0)]
    assert verdict.failed[1].faults[0]["chunk"] == records[1].id


def test_a_chunk_that_leaves_nested_blocks_still_parses_on_its_own() -> None:
    """A class under an ``if`` inside an ``else``, then a sibling class, then a module function:
    every indentation the chunk returns to gets a stand-in block, so it parses; a chunk that
    really is broken still does not."""
    import ast

    from parsegate.quality_gates.checks.code_parse import wrap_python_blocks

    body = "        class A:\n            x = 1\n\n    # c\n    class B:\n        y = 2\n\n\ndef f():\n    pass\n"
    ast.parse(wrap_python_blocks(body))
    with pytest.raises(SyntaxError):
        ast.parse(wrap_python_blocks("        def f(x):\n            return (x +\n"))


def test_a_page_too_deep_for_docling_is_checked_against_libxml2_s_reading(chunker: Chunker) -> None:
    # docling walks HTML recursively and runs out of stack at 500 nested <div>s (and costs the
    # depth per element before it does: it is not given a page that deep); our parser does not.
    # The document keeps its chunks, and the checks docling's view served (they were "not
    # measured") are made against libxml2's reading of the page, which the report names.
    from parsegate.parsers import office

    data = ("<html><body>" + "<div>" * 500 + "<p>Deep text survives.</p>" + "</div>" * 500 + "</body></html>").encode()
    doc = office.parse(data, "deep.html")
    records = chunker.chunk(doc)
    facts = measure(doc, records, chunker.counter, chunker.max_tokens, data)
    verdict = evaluate(facts, Thresholds())
    assert verdict.passed and not {"localization", "extraction_recall"} & set(verdict.not_measured)
    recall = facts.get(RecallFacts)
    assert recall.recall_source == (
        "libxml2 reading (docling's export not taken: the page nests 256 or more elements deep)"
    )
    assert (recall.recall_words, recall.recall_found) == (3, 3)
    assert "Deep text survives." in records[0].text
    altered = [replace(c, text=c.text.replace("survives", "vanishes")) for c in records]
    assert (
        evaluate(measure(doc, altered, chunker.counter, chunker.max_tokens, data), Thresholds()).metrics["localization"]
        == 0.0
    )


def test_a_page_that_breaks_docling_s_backend_is_checked_against_libxml2_s_reading(
    chunker: Chunker, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docling.backend.html_backend import HTMLDocumentBackend

    from parsegate.parsers import office

    def broken(self: object) -> None:
        raise KeyError(-3)  # as docling's backend raised on a fuzzed page's mangled table

    monkeypatch.setattr(HTMLDocumentBackend, "convert", broken)
    data = b"<html><body><h1>Prices</h1><p>Widgets cost four euros.</p></body></html>"
    doc = office.parse(data, "prices.html")
    records = chunker.chunk(doc)
    facts = measure(doc, records, chunker.counter, chunker.max_tokens, data)
    assert facts.get(RecallFacts).recall_source == "libxml2 reading (docling could not read the page)"
    assert evaluate(facts, Thresholds()).passed


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_text_saved_in_another_unicode_encoding_is_checked_against_its_own_decoding(
    chunker: Chunker, encoding: str
) -> None:
    # The gate decodes the source itself (a BOM, or UTF-16's zero bytes): the checks against the
    # source are measured and pass; they were reported failed (UTF-16 without a BOM read as
    # UTF-8) or not measured (with a BOM).
    from parsegate.parsers import text

    data = "# Notes\n\nText saved by an editor in another encoding.\n".encode(encoding)
    doc = text.parse(data, "notes.txt")
    records = chunker.chunk(doc)
    facts = measure(doc, records, chunker.counter, chunker.max_tokens, data)
    verdict = evaluate(facts, Thresholds())
    recall = facts.get(RecallFacts)
    assert facts.get(LocalizationFacts).localized == len(records) and recall.recall_source == "source file"
    assert recall.recall_words and recall.recall_found == recall.recall_words
    assert verdict.passed and not verdict.not_measured
