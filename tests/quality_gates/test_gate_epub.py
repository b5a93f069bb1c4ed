"""The gate's independent reading of an EPUB: the book's title and the text nodes of every spine
item as lxml reads them (references/epub.py), its own walk of container.xml and the OPF. A parser
that drops a chapter, or calls it furniture of another kind than the words it holds, fails
extraction recall with the lost words named; words no chapter holds fail localization."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import epub
from parsegate.parsers.model import Document
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references import open_reference
from parsegate.quality_gates.references.epub import epub_reading
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate
from tests.epub_books import epub as book

GOLDEN = Path(__file__).parents[2] / "golden_docs" / "epub" / "harbour-walks" / "input.epub"
DATA = GOLDEN.read_bytes()
TIDES = 3  # the spine's third item: ch02.xhtml, "Tides and Timetables"


def gate(doc: Document, data: bytes = DATA):  # type: ignore[no-untyped-def]
    chunker = Chunker(ChunkConfig(max_tokens=128))
    records = chunker.chunk(doc)
    return evaluate(measure(doc, records, chunker.counter, chunker.max_tokens, data), Thresholds())


def test_the_golden_book_passes_the_gate() -> None:
    verdict = gate(epub.parse(DATA, "input.epub"))
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0
    assert verdict.metrics["localization"] == 1.0
    assert verdict.metrics["heading_inheritance"] == 1.0


def test_a_dropped_chapter_fails_recall_by_its_words() -> None:
    doc = epub.parse(DATA, "input.epub")
    doc.elements = [e for e in doc.elements if e.page != TIDES]
    verdict = gate(doc)
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    lost = check.faults[0]["words"].split()
    # chapter by chapter: all 95 words of ch02's text nodes, of the book's 260 (less furniture)
    assert check.faults[0]["count"] == 95
    assert (check.faults[0]["chapter"], check.faults[0]["page"]) == ("OEBPS/text/ch02.xhtml", TIDES)
    assert verdict.metrics["extraction_recall"] == pytest.approx(1 - 95 / 260, abs=1e-6)
    assert {"gull", "oyster", "breakwater"} <= set(lost)


def test_a_chapter_the_parser_never_read_fails_recall_too() -> None:
    # The reference walks the package itself: a book whose second chapter the parser skipped
    # (here: parsed from a copy without it) is measured against both chapters.
    two = {
        "one.xhtml": "<h1>Arrival</h1><p>The train reached Ellery at dusk.</p>",
        "two.xhtml": "<p>Lanterns swung over the quay.</p>",
    }
    whole = book(two)
    doc = epub.parse(book({"one.xhtml": two["one.xhtml"]}), "b.epub")
    verdict = gate(doc, whole)
    # read: "A Book", "Arrival", the 6 words of its sentence; lost: "Lanterns swung over the quay"
    assert verdict.metrics["extraction_recall"] == pytest.approx(9 / 14, abs=1e-6)


def test_a_chapter_read_into_another_chapters_pages_is_lost_from_its_own() -> None:
    # Recall goes chapter by chapter: ch02's elements labelled as ch03's (a parser that misnumbers
    # its chapters) keep every word of the book in some chunk, but none in a chunk naming ch02.
    doc = epub.parse(DATA, "input.epub")
    for e in doc.elements:
        if e.page == TIDES:
            e.page = TIDES + 1
    verdict = gate(doc)
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    assert check.faults[0]["page"] == TIDES and check.faults[0]["count"] == 95


def test_words_in_no_chapter_fail_localization() -> None:
    doc = epub.parse(DATA, "input.epub")
    para = next(e for e in doc.elements if e.kind == "paragraph")
    doc.text = doc.text[: para.start] + "Zebras" + doc.text[para.start + 6 :]
    verdict = gate(doc)
    assert verdict.metrics["localization"] < 1.0


def test_the_reference_is_the_title_and_the_spines_text_nodes_in_order() -> None:
    ref = open_reference("epub", DATA, "input.epub")
    assert ref is not None and ref.kind == "EPUB spine's text nodes (lxml)"
    nodes = ref.html_nodes
    assert nodes is not None
    assert nodes[:3] == ["Harbour Walks of Port Ellery", "Contents", "The Old Quay"]  # title, then the nav in the spine
    assert nodes.index("Tides and Timetables", 5) < nodes.index("Planning a Walk", 6)
    assert "Contents" not in nodes[2:]  # a chapter's <title> is no text node a reader sees
    assert epub_reading(b"not a zip") is None
