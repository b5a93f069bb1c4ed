"""The gate over a whole run: run-level duplicates, and re-gating a run written by an older
parsegate (facts/1: unknown fields ignored, missing ones reported as not measured)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app

PARAGRAPH = "Backups run every night at two and are kept for thirty days in the second region.\n"


def run(corpus: Path, out: Path, *extra: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out), "-w", "1", *extra])
    return result.exit_code, json.loads((out / "report.json").read_text())


def test_four_identical_files_fail_the_run_on_duplicates(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    for name in "abcd":
        (corpus / f"{name}.txt").write_text(PARAGRAPH)
    code, report = run(corpus, tmp_path / "out")
    assert code == 1 and report["verdict"] == "fail"
    assert report["counts"]["gate_failed"] == 0  # each file alone is fine...
    assert report["overall"]["duplicate_rate"] == 0.75  # ...but 3 of 4 chunks embed the same text
    [check] = report["run_checks"]
    assert (check["check"], check["metric"], check["value"], check["threshold"], check["passed"]) == (
        "max_duplicate_rate", "run.duplicate_rate", 0.75, 0.1, False,
    )  # fmt: skip
    # The failed run-level check names the documents at fault and the one each repeats.
    assert [(f["doc_id"], f["duplicate_of"], f["count"]) for f in check["faults"]] == [
        ("b.txt", "a.txt", 1), ("c.txt", "a.txt", 1), ("d.txt", "a.txt", 1),
    ]  # fmt: skip
    (corpus / "b.txt").write_text("Restores are tested every month on a copy of the production database.\n")
    (corpus / "c.txt").unlink()
    (corpus / "d.txt").unlink()
    code, report = run(corpus, tmp_path / "out2")
    assert code == 0 and report["run_checks"][0]["passed"]


def test_a_copy_beside_its_original_is_named_as_its_duplicate(tmp_path: Path) -> None:
    """Issue 37: a .pptx saved beside its .ppt failed the run on run-level duplicates while every
    document passed, and no file was named. The failed check names the copy, the document it
    repeats and the chunks (ids as in the outputs), in report.json, on both documents' entries
    and on the terminal."""
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "review.md").write_text("# Review\n\n" + PARAGRAPH + "\n## Costs\n\n" + PARAGRAPH.replace("two", "six"))
    (corpus / "review copy.md").write_bytes((corpus / "review.md").read_bytes())
    (corpus / "other.txt").write_text("Restores are tested every month on a copy of the production database.\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out), "-w", "2", "--max-tokens", "24"])
    report = json.loads((out / "report.json").read_text())
    assert result.exit_code == 1 and report["counts"]["gate_failed"] == 0
    [check] = report["run_checks"]
    [fault] = check["faults"]
    ids: dict[str, list[str]] = {}
    for line in (out / "chunks.jsonl").read_text().splitlines():
        record = json.loads(line)
        ids.setdefault(record["doc_id"], []).append(record["id"])
    assert len(ids["review.md"]) == 2 and fault["count"] == 2
    assert (fault["doc_id"], fault["duplicate_of"]) == ("review.md", "review copy.md")  # in document order
    assert fault["why"] == "2 of its 2 chunks embed the same text as review copy.md's"
    assert [(p["chunk"], p["of_chunk"]) for p in fault["pairs"]] == list(
        zip(ids["review.md"], ids["review copy.md"], strict=True)
    )
    by_doc = {d["doc_id"]: d["run_faults"] for d in report["documents"]}
    assert by_doc["review.md"] == by_doc["review copy.md"] == [{"metric": "run.duplicate_rate", **fault}]
    assert by_doc["other.txt"] == []
    shown = " ".join(result.output.split())
    assert (
        f"review.md: 2 of its 2 chunks embed the same text as review copy.md's (chunks {ids['review.md'][0]}" in shown
    )


def test_gate_reads_a_run_written_by_an_older_parsegate(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "guide.md").write_text("# Guide\n\n" + PARAGRAPH)
    out = tmp_path / "out"
    assert run(corpus, out)[0] == 0
    record = json.loads((out / "run.json").read_text())
    for f in record["files"]:
        facts = f["facts"]
        # What facts/1 had: no schema, text_hashes, no independent measurements; plus a field
        # from some other version that this one does not know.
        for name in ("schema", "recall_words", "recall_found", "recall_source", "tokens_exact", "embed_hashes"):
            facts.pop(name)
        facts["text_hashes"] = ["0" * 16]
        facts["from_the_future"] = {"x": 1}
        f["added_later"] = True
    (out / "run.json").write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["gate", str(out)])
    assert result.exit_code == 0, result.output
    document = json.loads((out / "report.json").read_text())["documents"][0]
    # localization, heading_ok and duplicates were redefined in facts/2: old values are not evidence.
    assert document["not_measured"] == [
        "heading_inheritance", "localization", "token_count_accuracy", "duplicate_rate", "extraction_recall",
    ]  # fmt: skip
    assert document["metrics"]["localization"] is None and document["verdict"] == "pass"
    assert "not measured: duplicate_rate (1 documents)" in " ".join(result.output.split())


def test_a_run_reports_each_document_as_re_gating_it_does(tmp_path: Path) -> None:
    """The run's report takes the router's verdicts; `gate` measures the same facts afresh."""
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "a.md").write_text("# Title\n\n" + PARAGRAPH + "\n## Part\n\n" + PARAGRAPH.replace("two", "four"))
    (corpus / "b.txt").write_text("Short.\n\n" + PARAGRAPH * 3)
    (corpus / "c.md").write_text("# Only a heading\n")
    code, report = run(corpus, tmp_path / "out", "--no-store", "--max-tokens", "24")
    documents = report["documents"]
    assert code in (0, 1) and all(d["metrics"] for d in documents)
    again = CliRunner().invoke(app, ["gate", str(tmp_path / "out")])
    assert again.exit_code == code, again.output
    regated = json.loads((tmp_path / "out" / "report.json").read_text())
    assert regated["documents"] == documents and regated["formats"] == report["formats"]


def test_a_re_gate_that_fails_leaves_no_journal(tmp_path: Path) -> None:
    """`parsegate gate` writes new outputs through the same journal as a run: a failing verdict
    (exit 1, after run.json) must not leave run.jsonl.partial behind as if it were interrupted."""
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "a.txt").write_text(PARAGRAPH)
    out = tmp_path / "out"
    assert run(corpus, out)[0] == 0
    result = CliRunner().invoke(app, ["gate", str(out), "--set", "min_chunks=5"])
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in out.iterdir() if p.name.endswith(".partial")) == []
