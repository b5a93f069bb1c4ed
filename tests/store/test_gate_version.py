"""A chunk store's outcome measured by another version of the gate is measured again, not reused:
the store's key names the parser and chunker versions (the chunks), and each stored outcome's
facts name the gate's measurement (``measured_by``). Before, a run after a change to a check or a
reference took the old verdict from the store."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.quality_gates.facts import MEASURE_VERSION


def run(docs: Path, out: Path, store: Path) -> dict:
    result = CliRunner().invoke(app, ["run", str(docs), "--out", str(out), "--store", str(store)])
    assert result.exit_code == 0, result.output
    return json.loads((out / "run.json").read_text())["store"]


def test_an_outcome_measured_by_another_gate_is_measured_again(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Backups\n\nBackups run every night at two and are kept for thirty days.\n")
    (docs / "b.txt").write_text("Restores are tested every month on a spare machine.\n")
    store = tmp_path / "store.sqlite"
    assert run(docs, tmp_path / "first", store)["parsed"] == 2
    again = run(docs, tmp_path / "again", store)
    assert (again["parsed"], again["reused"]) == (0, 2)
    # An older gate measured b.txt (its facts name another version; one written before the
    # field existed names none).
    with sqlite3.connect(store) as db:
        for doc_id, old in (("b.txt", f'"measured_by":{MEASURE_VERSION - 1}'), ("a.md", "")):
            db.execute(
                "UPDATE results SET outcome = replace(outcome, ?, ?) WHERE doc_id = ?",
                (f'"measured_by":{MEASURE_VERSION}', old, doc_id),
            )
    later = run(docs, tmp_path / "later", store)
    assert (later["parsed"], later["reused"]) == (2, 0)
    assert run(docs, tmp_path / "last", store)["reused"] == 2
