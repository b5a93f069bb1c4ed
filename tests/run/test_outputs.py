"""--output-format parquet for `chunk` and `run`: the same records as the JSONL, the same columns
and rows as `parsegate export --format parquet`, rewritten by `gate`, and a clear error when
pyarrow is missing or the format is unknown."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from parsegate.cli.main import app

runner = CliRunner()
DOC = (
    "# Travel\n\nFees are waived on Sundays [see a[i]]. Bookings close at noon.\n\n"
    "## Claims\n\n- receipts within 30 days\n- one claim per trip\n\n| k | v |\n|---|---|\n| a | 1 |\n"
)
JSON_COLUMNS = ("boxes", "metadata", "warnings")


def records_of(table: Any) -> list[dict[str, Any]]:
    """Parquet rows back as parsegate.chunk/1 records (JSON text columns decoded)."""
    rows: list[dict[str, Any]] = table.to_pylist()
    for row in rows:
        for key in JSON_COLUMNS:
            row[key] = None if row[key] is None else json.loads(row[key])
    return rows


def jsonl_records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_chunk_to_parquet_holds_exactly_the_jsonl_records(tmp_path: Path) -> None:
    doc = tmp_path / "travel.md"
    doc.write_text(DOC)
    as_jsonl = runner.invoke(app, ["chunk", str(doc), "-m", "24"])
    assert as_jsonl.exit_code == 0, as_jsonl.output
    expected = jsonl_records(as_jsonl.stdout)
    assert len(expected) >= 3  # a budget small enough to cut the document
    by_suffix = runner.invoke(app, ["chunk", str(doc), "-m", "24", "-o", str(tmp_path / "c.parquet")])
    assert by_suffix.exit_code == 0, by_suffix.output
    assert records_of(pq.read_table(tmp_path / "c.parquet")) == expected
    to_stdout = runner.invoke(app, ["chunk", str(doc), "-m", "24", "--output-format", "parquet"])
    assert to_stdout.exit_code == 0
    assert records_of(pq.read_table(io.BytesIO(to_stdout.stdout_bytes))) == expected
    # a .parquet name with --output-format jsonl is JSONL: the option wins over the suffix
    runner.invoke(app, ["chunk", str(doc), "-m", "24", "-F", "jsonl", "-o", str(tmp_path / "x.parquet")])
    assert jsonl_records((tmp_path / "x.parquet").read_text()) == expected


def test_run_parquet_agrees_with_the_store_export_and_gate_rewrites_it(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "travel.md").write_text(DOC)
    (corpus / "other.md").write_text(DOC.replace("Travel", "Other"))
    out = tmp_path / "out"
    done = runner.invoke(app, ["run", str(corpus), "-o", str(out), "-m", "24", "--output-format", "parquet"])
    assert done.exit_code == 0, done.output
    run_record = json.loads((out / "run.json").read_text())
    assert run_record["output_format"] == "parquet"
    table = pq.read_table(out / "chunks.parquet")
    assert records_of(table) == jsonl_records((out / "chunks.jsonl").read_text())
    assert {r["doc_id"] for r in records_of(table)} == {"travel.md", "other.md"}
    exported = tmp_path / "export.parquet"
    store = tmp_path / ".parsegate" / "store.sqlite"
    export = runner.invoke(
        app, ["export", run_record["chunk_set"], "-o", str(exported), "-f", "parquet", "--store", str(store)]
    )
    assert export.exit_code == 0, export.output
    exported_table = pq.read_table(exported)
    assert exported_table.schema.equals(table.schema)
    key = [("doc_id", "ascending"), ("start", "ascending")]
    assert exported_table.sort_by(key).equals(table.sort_by(key))
    # Regate so that every document fails: chunks.parquet follows chunks.jsonl (now empty).
    regated = runner.invoke(app, ["gate", str(out), "--set", "max_short_chunk_rate=-1", "--allow-failures"])
    assert regated.exit_code == 0, regated.output
    assert (out / "chunks.jsonl").read_text() == ""
    assert pq.read_table(out / "chunks.parquet").num_rows == 0
    assert len(list((out / "history").glob("*/chunks.parquet"))) == 1


def test_an_unknown_format_is_a_usage_error(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text(DOC)
    result = runner.invoke(app, ["chunk", str(doc), "--output-format", "csv"])
    assert result.exit_code == 2 and "'csv' is not one of 'jsonl', 'parquet'" in result.stderr
    result = runner.invoke(app, ["run", str(tmp_path), "-o", str(tmp_path / "o"), "-F", "csv"])
    assert result.exit_code == 2 and not (tmp_path / "o").exists()


def test_parquet_without_pyarrow_names_the_extra_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = tmp_path / "a.md"
    doc.write_text(DOC)
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.setitem(sys.modules, name, None)  # type: ignore[arg-type]
    result = runner.invoke(app, ["chunk", str(doc), "-o", str(tmp_path / "c.parquet")])
    assert result.exit_code == 2
    assert "pip install 'parsegate[parquet]'" in result.stderr
    assert not (tmp_path / "c.parquet").exists()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text(DOC)
    result = runner.invoke(app, ["run", str(corpus), "-o", str(tmp_path / "o"), "-F", "parquet"])
    assert result.exit_code == 2 and "parsegate[parquet]" in result.stderr
    assert not (tmp_path / "o").exists()  # refused before the output folder is made
