"""Document ids read back from disk (run.json, the store) lead nowhere outside the corpus root:
a tampered run.json must not make `parsegate gate` read, or report.html show, an outside file
(issue 39)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.runner.discover import source_of
from parsegate.runner.reports import _read


def test_an_id_that_climbs_out_of_the_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    (root / "docs").mkdir(parents=True)
    (tmp_path / "private_outside.txt").write_text("SECRET")
    (root / "docs" / "a.md").write_text("# A\n")
    (root / "link").symlink_to(tmp_path)
    assert source_of(root, "docs/a.md") == root.resolve() / "docs" / "a.md"
    for ident in (
        "../private_outside.txt",
        "/etc/passwd",
        "docs/../../private_outside.txt",
        "link/private_outside.txt",
    ):
        assert source_of(root, ident) is None, ident
    data, note = _read(root, "../private_outside.txt", None)
    assert data is None and note and "outside the corpus root" in note


def test_gate_refuses_a_run_json_that_names_an_outside_file(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    corpus.mkdir()
    (corpus / "a.txt").write_text("Some plain text that passes the gate easily.\n")
    (tmp_path / "private_outside.txt").write_text("SECRET SALARY TABLE")
    assert CliRunner().invoke(app, ["-q", "run", str(corpus), "--out", str(out), "--no-store"]).exit_code == 0
    run = json.loads((out / "run.json").read_text())
    run["files"][0]["path"] = "../private_outside.txt"
    (out / "run.json").write_text(json.dumps(run))
    result = CliRunner().invoke(app, ["gate", str(out)])
    assert result.exit_code == 2 and "outside its corpus root" in result.output
    assert "SECRET" not in (out / "report.html").read_text()
    assert json.loads((out / "run.json").read_text())["files"][0]["path"] == "../private_outside.txt"  # untouched
