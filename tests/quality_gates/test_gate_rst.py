"""The gate's independent reading of a reStructuredText file (references/rst.py): docutils' own
text nodes, whose words the chunks must hold beside the source's words by position, and its own
section titles for heading inheritance. A parser that drops a section's paragraphs fails recall
by both; one whose text is not the source (offsets kept, words changed) fails by the reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import rst
from parsegate.parsers.model import Document
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references import open_reference
from parsegate.quality_gates.references.rst import rst_headings, rst_reading
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate

GOLDEN = Path(__file__).parents[2] / "golden_docs" / "rst" / "tide-gauge" / "input.rst"
DATA = GOLDEN.read_bytes()


def gate(doc: Document, data: bytes = DATA):  # type: ignore[no-untyped-def]
    chunker = Chunker(ChunkConfig(max_tokens=200))
    records = chunker.chunk(doc)
    return evaluate(measure(doc, records, chunker.counter, chunker.max_tokens, data), Thresholds())


def test_the_golden_page_passes_the_gate() -> None:
    verdict = gate(rst.parse(DATA, "input.rst"))
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0
    assert verdict.metrics["heading_inheritance"] == 1.0
    assert verdict.metrics["table_header_coverage"] == 1.0


def test_the_reading_is_docutils_text_without_comments_or_its_messages() -> None:
    reading = rst_reading(DATA.decode("utf-8"))
    assert reading is not None
    joined = " ".join(reading)
    assert "Clear barnacles from the intake holes" in joined  # a list-table cell
    assert ".. autofunction:: gauge.calibrate" in joined  # an unknown directive's source, quoted
    assert "Word version" not in joined  # the comment
    assert "Unknown directive" not in joined  # docutils' message about it
    ref = open_reference("rst", DATA, "input.rst")
    assert ref is not None and ref.kind == "source file, docutils reading" and ref.reading == reading


def test_titles_are_read_with_their_adornment_and_the_labels_above_them() -> None:
    text = DATA.decode("utf-8")
    got = [(h.level, h.title, text[h.start : h.end]) for h in rst_headings(text)]
    assert got[:2] == [
        (
            1,
            "Tide gauge field manual",
            ".. _tide-gauge:\n\n=======================\nTide gauge field manual\n=======================\n",
        ),
        (2, "Installation", "Installation\n============\n"),
    ]
    assert [(level, title) for level, title, _ in got[2:]] == [
        (2, "Reading the logs"),
        (3, "Flags"),
        (2, "Maintenance"),
    ]


def test_a_parser_dropping_a_sections_paragraphs_fails_recall() -> None:
    doc = rst.parse(DATA, "input.rst")
    doc.elements = [e for e in doc.elements if not (e.section_path[-1:] == ("Flags",) and e.kind != "heading")]
    verdict = gate(doc)
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    by_reading = [f for f in check.faults if f.get("reading") == "docutils"]
    by_position = [f for f in check.faults if "start" in f]
    # the definitions of ok, spike and gap, the sentence and the three log lines: 62 words
    assert by_reading[0]["count"] == 62
    assert {"barnacles"}.isdisjoint(by_reading[0]["words"].split())
    assert {"neighbours", "median", "spike", "2024"} <= set(by_reading[0]["words"].split())
    assert by_position and "ok\n   The reading passed the spike filter." in by_position[0]["text"]
    assert verdict.metrics["extraction_recall"] < 0.9


def test_a_document_text_that_is_not_the_source_fails_by_the_reading() -> None:
    # Offsets kept, words changed (a decoder that blanked a line): every source word's position
    # lies in some chunk, so only docutils' reading sees the loss.
    doc = rst.parse(DATA, "input.rst")
    lost = "The logger writes one line every interval. Its fields:"
    start = doc.text.index(lost)
    doc.text = doc.text[:start] + " " * len(lost) + doc.text[start + len(lost) :]
    verdict = gate(doc)
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    (fault,) = check.faults
    # its 9 words, less one "the" that the comment (declared furniture, held) has to spare
    assert (fault["reading"], fault["count"]) == ("docutils", 8)
    assert fault["words"] == "every fields interval its line logger one writes"


@pytest.mark.parametrize("broken", ["section path", "level"])
def test_chunks_filed_under_the_wrong_section_fail_heading_inheritance(broken: str) -> None:
    doc = rst.parse(DATA, "input.rst")
    for e in doc.elements:
        if e.kind == "heading" and e.section_path[-1] == "Flags":
            if broken == "level":
                e.level = 2  # Flags read as a sibling of "Reading the logs"
            for el in doc.elements:
                if el.section_path[-1:] == ("Flags",):
                    el.section_path = ("Tide gauge field manual", "Flags")
    verdict = gate(doc)
    assert verdict.metrics["heading_inheritance"] < 1.0


def test_reference_marks_and_comments_do_not_fail_a_sound_parse() -> None:
    # "Python_", "Overview__" and "_`220`" are words with reference marks in the source and
    # bare in docutils' reading; a section holding only a comment has no body text, so a chunk
    # that runs from it into the next section is filed under the next one.
    text = (
        b"Guide\n=====\n\nSee Python_ and Overview__ or item _`220` and ``x``\\ s.\n\n"
        b".. _Python: https://python.org\n\n__ https://example.org\n\n"
        b"Security\n--------\n\n.. Describe the risks.\n\nCopyright\n---------\n\nPublic domain.\n"
    )
    verdict = gate(rst.parse(text, "g.rst"), text)
    assert verdict.metrics["extraction_recall"] == 1.0
    assert verdict.metrics["heading_inheritance"] == 1.0


def test_titles_with_sphinx_roles_are_read_as_the_parser_files_them() -> None:
    text = (
        b":mod:`sphinx.ext.apidoc` -- API docs\n=====================================\n\nIntro.\n\n"
        b"The :py:class:`~gauge.Logger` class\n-----------------------------------\n\nText.\n"
    )
    assert [h.title for h in rst_headings(text.decode())] == ["sphinx.ext.apidoc -- API docs", "The Logger class"]
    assert gate(rst.parse(text, "r.rst"), text).metrics["heading_inheritance"] == 1.0
