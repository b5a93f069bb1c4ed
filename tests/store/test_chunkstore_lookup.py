"""Retrieval-side lookups from the store (neighbours, parent, section) and the Parquet export."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.store import lookup

runner = CliRunner()
TEXT = "# Guide\n\n" + "\n\n".join(
    f"## Part {n}\n\n" + " ".join(f"Sentence {n}.{k} says something about part {n}." for k in range(12))
    for n in range(4)
)


def run(tmp_path: Path, *extra: str) -> tuple[Path, list[dict]]:
    root = tmp_path / "corpus"
    root.mkdir(exist_ok=True)
    (root / "guide.md").write_text(TEXT)
    out = tmp_path / ("out" + "".join(extra).replace("-", ""))
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", *extra])
    assert result.exit_code == 0, result.output
    return tmp_path / ".parsegate" / "store.sqlite", [
        json.loads(x) for x in (out / "chunks.jsonl").read_text().splitlines()
    ]


def test_neighbours_and_section_come_from_the_store(tmp_path: Path) -> None:
    store, chunks = run(tmp_path, "--max-tokens", "48")
    assert len(chunks) >= 6
    with closing(sqlite3.connect(store)) as db:
        middle = chunks[3]
        assert [c["id"] for c in lookup.neighbours(db, middle["id"])] == [c["id"] for c in chunks[2:5]]
        assert [c["id"] for c in lookup.neighbours(db, chunks[0]["id"], 1, 2)] == [c["id"] for c in chunks[:3]]
        same = [c["id"] for c in chunks if c["section_path"] == middle["section_path"]]
        assert [c["id"] for c in lookup.section(db, middle["id"])] == same and len(same) >= 2
        assert lookup.parent(db, middle["id"]) is None and lookup.neighbours(db, "ch-none") == []


def test_a_child_finds_its_parent_record(tmp_path: Path) -> None:
    store, chunks = run(tmp_path, "--strategy", "parent-child", "--max-tokens", "48", "--parent-tokens", "160")
    with closing(sqlite3.connect(store)) as db:
        children = [c for c in chunks if c["parent_id"]]
        assert children
        for child in children:
            found = lookup.parent(db, child["id"])
            assert found is not None and found["id"] == child["parent_id"]
            assert found["start"] <= child["start"] and child["end"] <= found["end"]


def test_parquet_export_holds_the_same_records(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    store, chunks = run(tmp_path)
    target = tmp_path / "chunks.parquet"
    result = runner.invoke(
        app, ["export", chunks[0]["chunk_set"][:6], "-f", "parquet", "-o", str(target), "--store", str(store)]
    )
    assert result.exit_code == 0, result.output
    rows = pq.read_table(target).to_pylist()
    for row in rows:
        for key in ("boxes", "metadata", "warnings"):
            row[key] = None if row[key] is None else json.loads(row[key])
    assert rows == chunks
