"""The corpus a run reads: what it leaves out and why (symlinks out of the corpus, symlinked
folders, FIFOs, unreadable folders), file names that are not UTF-8, document ids relative to
the corpus root for run and chunk alike, and a run with nothing to read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.runner.discover import Selection, discover, doc_path, escape

runner = CliRunner()
GOOD = "# Guide\n\nFirst paragraph. Second sentence.\n\n## Part\n\n- one thing to remember\n- two more things to do\n"


def run_json(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())


def test_a_symlink_out_of_the_corpus_is_not_followed_unless_asked(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "passwd.txt"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:the secret line:/root:/bin/bash\n")
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "guide.md").write_text(GOOD)
    (root / "passwd.txt").symlink_to(secret)
    (root / "elsewhere").symlink_to(secret.parent, target_is_directory=True)
    out = tmp_path / "out"
    assert runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1"]).exit_code == 0
    run = run_json(out)
    assert [f["path"] for f in run["files"]] == ["guide.md"]
    assert run["left_out"] == {"symlink leaving the corpus (use --follow-symlinks)": 2}
    assert "secret" not in (out / "chunks.jsonl").read_text()
    followed = tmp_path / "followed"
    # Followed, the secret is read twice (two links): the run's duplicate check fails it.
    args = ["run", str(root), "--out", str(followed), "-w", "1", "--follow-symlinks", "--allow-failures"]
    assert runner.invoke(app, args).exit_code == 0
    run = run_json(followed)
    assert [f["path"] for f in run["files"]] == ["elsewhere/passwd.txt", "guide.md", "passwd.txt"]
    assert run["followed_symlinks"] == 2 and run["left_out"] == {}


def test_symlinked_folders_fifos_and_unreadable_folders_are_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "corpus"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "guide.md").write_text(GOOD)
    (root / "mirror").symlink_to(root / "docs", target_is_directory=True)  # inside: read once, at its real path
    (root / "inside.md").symlink_to(root / "docs" / "guide.md")  # a file symlink inside is read
    os.mkfifo(root / "pipe.md")  # opening it would block the run
    (root / "locked").mkdir()
    (root / "locked" / "hidden.md").write_text(GOOD)
    real_scandir = os.scandir

    def scandir(path: os.PathLike[str] | str) -> object:  # as for a folder without read permission (we are root)
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    selection = Selection()
    sources = discover(root, selection)
    assert [s.doc_id for s in sources] == ["docs/guide.md", "inside.md"]
    assert selection.left_out == {
        "symlinked folder inside the corpus (read at its real path)": 1,
        "not a regular file (FIFO)": 1,
        "unreadable folder (Permission denied)": 1,
    }


def test_a_file_name_that_is_not_utf8_is_read_and_named_losslessly(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    raw = os.fsencode(root) + b"/bad\xff\\name.md"
    with open(raw, "wb") as f:
        f.write(b"# A title\n\nSome text here.\n")
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1"])
    assert result.exit_code == 0, result.output
    (entry,) = run_json(out)["files"]
    assert entry["path"] == "bad\\xff\\\\name.md" and entry["status"] == "chunked"
    assert os.fsencode(doc_path(entry["path"])) == b"bad\xff\\name.md"  # the exact bytes come back
    assert {json.loads(x)["doc_id"] for x in (out / "chunks.jsonl").read_text().splitlines()} == {entry["path"]}


@pytest.mark.parametrize("name", ["plain.md", "caf\u00e9.md", "back\\slash.md", "x\\xff.md"])
def test_escaped_names_round_trip(name: str) -> None:
    assert doc_path(escape(name)) == name
    assert escape(name) == name.replace("\\", "\\\\")


def test_an_empty_corpus_a_glob_typo_and_out_equal_to_the_corpus_fail(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    out = tmp_path / "out"
    empty = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1"])
    assert empty.exit_code == 1 and "no document was read" in empty.output
    report = json.loads((out / "report.json").read_text())
    assert report["verdict"] == "fail" and report["run_checks"][-1]["check"] == "min_documents"
    assert runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--allow-empty"]).exit_code == 0
    (root / "guide.md").write_text(GOOD)
    typo = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--glob", "*.mdd"])
    assert typo.exit_code == 1 and run_json(out)["left_out"] == {"not matching --glob": 1}
    same = runner.invoke(app, ["run", str(root), "--out", str(root), "-w", "1"])
    assert same.exit_code == 2 and "is the corpus folder" in same.output


def test_doc_ids_are_relative_to_the_root_for_run_and_chunk_alike(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    (root / "policy").mkdir(parents=True)
    (root / "policy" / "travel.md").write_text(GOOD)
    whole, part = tmp_path / "whole", tmp_path / "part"
    assert runner.invoke(app, ["run", str(root), "--out", str(whole), "-w", "1"]).exit_code == 0
    args = ["run", str(root / "policy"), "--out", str(part), "-w", "1", "--root", str(root)]
    assert runner.invoke(app, args).exit_code == 0
    assert (whole / "chunks.jsonl").read_bytes() == (part / "chunks.jsonl").read_bytes()
    chunked = runner.invoke(app, ["chunk", str(root / "policy" / "travel.md"), "--root", str(root)])
    assert chunked.exit_code == 0
    assert chunked.stdout.encode() == (whole / "chunks.jsonl").read_bytes()
    named = runner.invoke(app, ["chunk", str(root / "policy" / "travel.md"), "--doc-id", "kb/travel"])
    assert {json.loads(x)["doc_id"] for x in named.stdout.splitlines()} == {"kb/travel"}
    bare = runner.invoke(app, ["chunk", str(root / "policy" / "travel.md")])
    assert {json.loads(x)["doc_id"] for x in bare.stdout.splitlines()} == {"travel.md"}  # as `run FILE` names it
