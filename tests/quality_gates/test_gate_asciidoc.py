"""The gate's independent reading of an AsciiDoc file: asciidoc-py's DocBook rendering of it
(references/asciidoc.py), whose words the chunks must hold. A parser that drops a block, or
calls body text a comment, fails extraction recall with the lost words named; the section path
check reads titles (and the document title, which the parser keeps as metadata) on its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import asciidoc
from parsegate.parsers.model import Document, Element, FurnitureData
from parsegate.quality_gates.checks.chunks import empty
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references import open_reference
from parsegate.quality_gates.references.asciidoc import document_title, rendered_texts, section_title
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate

pytest.importorskip("asciidoc")  # the asciidoc extra: in [all] and so in CI's install

GOLDEN = Path(__file__).parents[2] / "golden_docs" / "asciidoc" / "backup-runbook" / "input.adoc"
DATA = GOLDEN.read_bytes()
WARNING = "Never restore over the live primary."


def gate(doc: Document):  # type: ignore[no-untyped-def]
    chunker = Chunker(ChunkConfig(max_tokens=96))
    records = chunker.chunk(doc)
    return evaluate(measure(doc, records, chunker.counter, chunker.max_tokens, DATA), Thresholds())


def _warning_block(doc: Document) -> Element:
    (found,) = [e for e in doc.elements if e.kind == "paragraph" and WARNING in doc.text[e.start : e.end]]
    return found


def test_the_golden_runbook_passes_the_gate_against_asciidoc_py() -> None:
    doc = asciidoc.parse(DATA, "input.adoc")
    verdict = gate(doc)
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0
    assert verdict.metrics["heading_inheritance"] == 1.0
    ref = open_reference("asciidoc", DATA, "input.adoc")
    assert ref is not None and ref.kind == "asciidoc-py DocBook rendering"
    assert ref.text == DATA.decode("utf-8")  # localization still compares chunks with the file


def test_a_dropped_block_fails_recall_by_its_words() -> None:
    doc = asciidoc.parse(DATA, "input.adoc")
    dropped = _warning_block(doc)
    doc.elements = [e for e in doc.elements if e is not dropped]
    verdict = gate(doc)
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    # the admonition's 21 words, of the 270 asciidoc-py renders
    assert check.faults == [
        {
            "words": "a after and checks connection data instance live never new over pass primary restore restore "
            "string switch the the the to",
            "count": 21,
        }
    ]
    assert verdict.metrics["extraction_recall"] == pytest.approx(1 - 21 / 270, abs=1e-6)


def test_body_text_declared_a_comment_is_still_lost() -> None:
    # The rendering is asciidoc-py's, never the parser's view of what is text: a parser cannot
    # hide a block it failed to read by calling it a comment.
    doc = asciidoc.parse(DATA, "input.adoc")
    block = _warning_block(doc)
    doc.elements = [e for e in doc.elements if e is not block]
    doc.elements.append(Element("f", "furniture", block.start, block.end, data=FurnitureData(reason="comment")))
    doc.elements.sort(key=lambda e: e.start)
    verdict = gate(doc)
    assert verdict.metrics["extraction_recall"] == pytest.approx(1 - 21 / 270, abs=1e-6)


def test_a_word_an_attribute_entry_gives_is_found_where_it_is_referenced() -> None:
    # ":service: nightly-backup" is rendered where "{service}" stands; the chunk holds "{service}".
    rendered = " ".join(rendered_texts(DATA.decode("utf-8")) or [])
    assert "nightly-backup job" in rendered
    assert gate(asciidoc.parse(DATA, "input.adoc")).metrics["extraction_recall"] == 1.0


def test_the_reading_never_follows_an_include(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "secret.adoc").write_text("TOPSECRET\n")
    monkeypatch.chdir(tmp_path)
    texts = rendered_texts("Before.\n\ninclude::secret.adoc[]\n\nAfter.\n") or []
    assert "TOPSECRET" not in " ".join(texts)
    assert "After." in texts


def test_titles_are_read_without_their_marks() -> None:
    assert section_title("=== Alert reference ===") == "Alert reference"
    assert section_title("Change history [[history]]\n--------------") == "Change history"
    assert document_title("// c\n:toc:\n\n= Runbook\nbody\n") == (12, 21, "Runbook")
    assert document_title("Intro\n\n= Late\n") is None


def test_the_reading_runs_no_filter_program(monkeypatch: pytest.MonkeyPatch) -> None:
    # asciidoc-py's graphviz filter would run `dot` through a shell; the reading loads none of
    # its filters, and reads the block as text.
    import subprocess

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"ran a program: {args[:1]}")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    texts = rendered_texts('Intro.\n\n["graphviz", "g.png"]\n---------\ndigraph G { Alpha -> Beta }\n---------\n')
    assert texts is not None
    assert "digraph G { Alpha -> Beta }" in texts


@pytest.mark.parametrize("source", ["= Title\n:toc:\n:icons: font\n", "include::chapter-1.adoc[]\n"])
def test_a_header_or_includes_alone_is_empty_not_failed(source: str) -> None:
    data = source.encode()
    doc = asciidoc.parse(data, "doc.adoc")
    chunker = Chunker(ChunkConfig(max_tokens=96))
    records = chunker.chunk(doc)
    assert records == []
    facts = measure(doc, records, chunker.counter, chunker.max_tokens, data)
    assert empty(facts)
    assert evaluate(facts, Thresholds()).passed


def test_a_title_above_an_include_is_not_read_as_the_next_blocks() -> None:
    texts = rendered_texts("Text.\n\n.HTML output\ninclude::example$meta.adoc[]\n\n----\ncode\n----\n") or []
    assert "HTML output" not in texts
    assert "code" in texts
