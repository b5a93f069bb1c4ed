"""The gate's sample (``--gate-sample``, quality_gates/sample.py): docling's export, the expensive
reference, on a seeded sample of the documents by id; the cheap references on every document."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.cli.main import app
from parsegate.parsers.registry import parse_file
from parsegate.quality_gates.checks.recall import RecallFacts
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.sample import GateSample
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate
from tests.conftest import GOLDEN

pytest.importorskip("docling")

DOCX = GOLDEN / "office" / "docx" / "incident-policy" / "input.docx"
PAGES = ("api-toc", "article", "blog-comments", "docs-sidebar", "mdbook-chapter")
LIBXML2_ALONE = "libxml2 reading (not in the gate's sample: docling's export not taken)"


def test_the_sample_is_a_hash_of_the_seed_and_the_document_id() -> None:
    # Pinned: the same documents in every run and every release (a change here re-samples corpora).
    ids = [f"doc-{n}" for n in range(20)]
    assert [i for i in ids if GateSample(0.25, 7).sampled(i)] == ["doc-0", "doc-2", "doc-8"]
    assert [i for i in ids if GateSample(0.25, 8).sampled(i)] != ["doc-0", "doc-2", "doc-8"]
    many = [f"d{n}" for n in range(10_000)]
    assert sum(GateSample(0.1).sampled(i) for i in many) == 975
    # A larger fraction takes in every document a smaller one did.
    small = {i for i in many if GateSample(0.1).sampled(i)}
    assert small < {i for i in many if GateSample(0.3).sampled(i)}
    assert not any(GateSample(0.0).sampled(i) for i in many) and all(GateSample(1.0).sampled(i) for i in ids)
    with pytest.raises(ValueError, match="fraction from 0 to 1"):
        GateSample(1.5)


def corpus(root: Path) -> Path:
    docs = root / "docs"
    docs.mkdir()
    for name in PAGES:
        shutil.copy(GOLDEN / "office" / "html" / name / "input.html", docs / f"{name}.html")
    shutil.copy(DOCX, docs / "incident-policy.docx")
    shutil.copy(GOLDEN / "office" / "docx" / "footnoted-rates" / "input.docx", docs / "footnoted-rates.docx")
    (docs / "notes.txt").write_text("Backups run every night at two and are kept for thirty days.\n")
    return docs


def run(docs: Path, out: Path, *extra: str) -> tuple[dict, dict]:
    result = CliRunner().invoke(app, ["run", str(docs), "--out", str(out), "--allow-failures", *extra])
    assert result.exit_code == 0, result.output
    return json.loads((out / "report.json").read_text()), json.loads((out / "run.json").read_text())


def test_a_sampled_run_measures_the_same_documents_with_one_worker_or_two(tmp_path: Path) -> None:
    docs = corpus(tmp_path)
    one, record = run(docs, tmp_path / "one", "--gate-sample", "0.5", "-w", "1", "--no-store")
    two, _ = run(docs, tmp_path / "two", "--gate-sample", "0.5", "-w", "2", "--no-store")
    seen = {d["doc_id"]: (d["sampled"], d["reference"]) for d in one["documents"]}
    assert seen == {d["doc_id"]: (d["sampled"], d["reference"]) for d in two["documents"]}
    assert seen == {
        "api-toc.html": (False, LIBXML2_ALONE),
        "article.html": (False, LIBXML2_ALONE),
        "blog-comments.html": (True, "docling export"),
        "docs-sidebar.html": (False, LIBXML2_ALONE),
        "mdbook-chapter.html": (False, LIBXML2_ALONE),
        "footnoted-rates.docx": (True, "docling export"),
        "incident-policy.docx": (True, "docling export"),
        "notes.txt": (None, "source file"),  # no expensive reference: measured whole, always
    }
    assert record["gate_sample"] == {"fraction": 0.5, "seed": 0}
    assert {f["path"]: f["facts"]["sampled"] for f in record["files"]} == {k: v[0] for k, v in seen.items()}
    assert one["gate_sample"] == {
        "fraction": 0.5,
        "seed": 0,
        "documents": 7,
        "sampled": 3,
        "references": {"docling export": 3, LIBXML2_ALONE: 4, "source file": 1},
    }
    # The cheap checks are measured on every document: a web page outside the sample has its
    # localization and recall against libxml2's reading.
    for d in one["documents"]:
        assert d["not_measured"] == [] and d["metrics"]["extraction_recall"] is not None, d["doc_id"]


def test_an_office_document_outside_the_sample_is_not_measured_never_passed(tmp_path: Path) -> None:
    docs = corpus(tmp_path)
    report, _ = run(docs, tmp_path / "out", "--gate-sample", "0", "--no-store")
    office = [d for d in report["documents"] if d["format"] == "docx"]
    assert len(office) == 2
    for d in office:
        assert (d["sampled"], d["reference"]) == (False, None)
        assert d["not_measured"] == ["localization", "extraction_recall"]
        assert d["metrics"]["localization"] is None and d["metrics"]["extraction_recall"] is None
    # Not 1.0 in the run's figures either: the docx column has no value for them.
    assert report["formats"]["docx"]["metrics"]["extraction_recall"] is None
    assert report["gate_sample"]["references"]["none (not in the gate's sample)"] == 2
    shown = CliRunner().invoke(app, ["run", str(docs), "--out", str(tmp_path / "again"), "--gate-sample", "0"])
    text = " ".join(shown.output.split())
    assert "gate sample 0 (seed 0): docling's export on 0 of the 7 documents it reads" in text
    assert "extraction_recall (2 documents)" in text


def losing_the_last_section() -> tuple[object, list]:
    """The DOCX as a parser would read it that lost its last section (the Escalation heading, its
    paragraph and list): its own text is whole and chunked whole, so only a reference that reads
    the file (docling's export) can tell."""
    doc = parse_file(DOCX, "incident-policy.docx")
    cut = doc.text.index("Escalation")
    lost = dataclasses.replace(doc, text=doc.text[:cut].rstrip(), elements=[e for e in doc.elements if e.end <= cut])
    return lost, Chunker(ChunkConfig()).chunk(lost)


def test_a_loss_only_the_expensive_reference_sees_is_caught_when_sampled() -> None:
    doc, chunks = losing_the_last_section()
    chunker = Chunker(ChunkConfig())
    data = DOCX.read_bytes()
    sampled = measure(doc, chunks, chunker.counter, chunker.max_tokens, data, sampled=True)
    verdict = evaluate(sampled, Thresholds())
    assert sampled.reference == "docling export" and sampled.sampled is True
    assert [c.check for c in verdict.failed] == ["min_extraction_recall"]
    assert "escalation" in verdict.failed[0].faults[0]["words"]
    outside = measure(doc, chunks, chunker.counter, chunker.max_tokens, data, sampled=False)
    verdict = evaluate(outside, Thresholds())
    assert (outside.reference, outside.sampled) == (None, False)
    assert outside.get(RecallFacts).recall_found is None
    assert verdict.passed and verdict.metrics["extraction_recall"] is None
    assert verdict.not_measured == ["localization", "extraction_recall"]


def test_a_document_stored_outside_the_sample_is_measured_again_by_a_full_run(tmp_path: Path) -> None:
    docs = corpus(tmp_path)
    store = ["--store", str(tmp_path / "store.sqlite")]
    run(docs, tmp_path / "sampled", "--gate-sample", "0", *store)
    report, record = run(docs, tmp_path / "full", *store)
    # Every document the sample left out is parsed and measured again; the others are reused.
    assert record["store"]["parsed"] == 7 and record["store"]["reused"] == 1  # notes.txt: nothing left out
    assert all(d["sampled"] is not False and d["not_measured"] == [] for d in report["documents"])
    report, record = run(docs, tmp_path / "again", *store)
    assert record["store"]["parsed"] == 0 and record["store"]["reused"] == 8
    assert {d["doc_id"]: d["reference"] for d in report["documents"]}["incident-policy.docx"] == "docling export"
