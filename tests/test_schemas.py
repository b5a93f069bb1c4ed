"""Every record parsegate writes validates against its JSON Schema (schemas/); the schemas reject
records that break the contract. conftest.py also validates every output file the whole test
session wrote, at its end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app
from tests.schemas import VALIDATORS, errors, outputs

runner = CliRunner()
GOLDEN = Path(__file__).resolve().parents[1] / "golden_docs"


def test_outputs_of_a_mixed_run_validate(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(GOLDEN, corpus, ignore=shutil.ignore_patterns("expected", "*.json", "*.py"))
    (corpus / "front-only.md").write_text("---\ntitle: Notes\n---\n")  # gate failure: text, and no chunk
    (corpus / "latin1.md").write_bytes(b"caf\x00")  # parse failure (binary content)
    (corpus / "blank.dat").write_bytes(b"")  # unsupported
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(corpus), "--out", str(out), "--allow-failures"])
    assert result.exit_code == 0, result.output
    runner.invoke(app, ["gate", str(out), "--set", "max_short_chunk_rate=0.5", "--allow-failures"])
    files = outputs(out)
    assert {p.name for p in files} == {"chunks.jsonl", "quarantine.jsonl", "run.json", "report.json"}
    assert len(files) == 8  # the regated run and the archived one in history/
    reasons = {json.loads(line)["reason"] for line in (out / "quarantine.jsonl").read_text().splitlines()}
    assert reasons == {"gate_failed", "parse_failed", "unsupported"}
    assert [e for p in files for e in errors(p)] == []


def test_schemas_reject_records_that_break_the_contract(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("# A\n\nSome text here.\n")
    record = json.loads(runner.invoke(app, ["chunk", str(doc)]).stdout.splitlines()[0])
    chunk = VALIDATORS["chunk-1"]
    assert list(chunk.iter_errors(record)) == []
    broken = [
        {k: v for k, v in record.items() if k != "embed_text"},  # a field missing
        {**record, "start": -1},
        {**record, "tokens": "12"},
        {**record, "doc_version": "md5:abc"},
        {**record, "lines": [1]},
        {**record, "extra": 1},  # a field the contract does not name
        {**record, "metadata": {"format_detected": {"format": "markdown"}}},  # detected, but not why
    ]
    assert [len(list(chunk.iter_errors(b))) > 0 for b in broken] == [True] * len(broken)
    quarantine = {"schema": "parsegate.quarantine/1", "doc_id": "x", "format": None, "reason": "lost"}
    assert not VALIDATORS["quarantine-1"].is_valid(quarantine)
