"""An unchanged re-run answered from OUTDIR's note before the command line is built
(parsegate/chunkstore/quick.py): the same run.json (less its timings) and the same terminal
summary as the full path's up-to-date run, and the full path for any change to the corpus, the
outputs, the command line, the environment, the config files, the code or the store."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from parsegate import cli_app, cli_run, routing, store
from parsegate.chunkstore import quick
from parsegate.cli import main

DOC = "# {name}\n\nFirst paragraph about {name}. It has a second sentence.\n\n## Part\n\n- one thing\n- two things\n"
TIMINGS = {"started_at", "finished_at", "seconds"}
ARGV = ["run", "corpus", "--out", "out", "-w", "1"]


@pytest.fixture(autouse=True)
def pytest_bookkeeping(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest names the test phase in the environment (setup, call): not a change of the run's."""
    monkeypatch.setattr(quick, "_VOLATILE", quick._VOLATILE | {"PYTEST_CURRENT_TEST"})


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A corpus of three documents in the working folder, and a first (full) run into out/."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    for name in ("a", "b", "c"):
        (tmp_path / "corpus" / f"{name}.md").write_text(DOC.format(name=name))
    assert command(monkeypatch, main, ARGV) == 0
    assert (tmp_path / "out" / quick.NOTE).is_file()
    return tmp_path


def command(monkeypatch: pytest.MonkeyPatch, entry: Callable[[], None], argv: list[str]) -> int:
    monkeypatch.setattr(sys, "argv", ["parsegate", *argv])
    try:
        entry()
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def run_json(work: Path) -> dict[str, object]:
    record = json.loads((work / "out" / "run.json").read_text())
    return {k: v for k, v in record.items() if k not in TIMINGS}


def without_title(text: str) -> list[str]:
    return text.splitlines()[1:]  # the summary's title says how long the run took


def test_an_unchanged_rerun_writes_what_the_full_path_writes_and_prints_the_same(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert command(monkeypatch, cli_app.main, ARGV) == 0  # the full path, found up to date
    full_err, full_record = capsys.readouterr().err, run_json(work)
    assert "outputs up to date" in full_err
    outputs = {
        p.name: p.stat().st_mtime_ns for p in (work / "out").iterdir() if p.name not in ("run.json", ".parsegate.lock")
    }
    assert quick.rerun(ARGV) == 0
    quick_err = capsys.readouterr().err
    assert without_title(quick_err) == without_title(full_err)
    assert quick_err.splitlines()[0].startswith("parsegate run · 3 files in 0.")
    assert run_json(work) == full_record
    assert json.loads((work / "out" / "run.json").read_text())["store"]["reused"] == 3
    assert {
        p.name: p.stat().st_mtime_ns for p in (work / "out").iterdir() if p.name not in ("run.json", ".parsegate.lock")
    } == outputs


def test_the_rerun_records_every_document_as_seen_in_the_store(work: Path) -> None:
    def seen() -> list[str]:
        with sqlite3.connect(work / ".parsegate" / "store.sqlite") as db:
            return [r[0] for r in db.execute("SELECT seen_at FROM members ORDER BY doc_id")]

    before = seen()
    assert quick.rerun(ARGV) == 0
    after = seen()
    assert len(after) == 3 and all(a > b for a, b in zip(after, before, strict=True))


def _edit(work: Path) -> None:
    with (work / "corpus" / "b.md").open("a") as doc:
        doc.write("One more sentence.\n")


def _retire(work: Path) -> None:
    with sqlite3.connect(work / ".parsegate" / "store.sqlite") as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM chunk_sets")


CHANGES: dict[str, Callable[[Path], object]] = {
    "a document edited": _edit,
    "a document added": lambda w: (w / "corpus" / "d.md").write_text(DOC.format(name="d")),
    "a document deleted": lambda w: (w / "corpus" / "c.md").unlink(),
    "a document renamed": lambda w: (w / "corpus" / "c.md").rename(w / "corpus" / "e.md"),
    "a binary file added (left out, counted)": lambda w: (w / "corpus" / "x.bin").write_bytes(b"\x00\x01" * 9),
    "a .gitignore added": lambda w: (w / "corpus" / ".gitignore").write_text("b.md\n"),
    "a folder added": lambda w: (w / "corpus" / "sub").mkdir(),
    "an output edited": lambda w: (w / "out" / "chunks.jsonl").write_text(  # a chunk left out, every line valid
        "".join((w / "out" / "chunks.jsonl").read_text().splitlines(keepends=True)[:-1])
    ),
    "an output deleted": lambda w: (w / "out" / "report.html").unlink(),
    "a partial output left": lambda w: (w / "out" / "chunks.jsonl.partial").write_bytes(b""),
    "a gate config in the working folder": lambda w: (w / "parsegate.toml").write_text("[gate]\nmin_documents = 1\n"),
    "the chunk set retired": _retire,
    "the note's fingerprint not run.json's": lambda w: (w / "out" / quick.NOTE).write_text(
        (w / "out" / quick.NOTE).read_text().replace('"fingerprint": "sha256:', '"fingerprint": "sha256:0')
    ),
}


@pytest.mark.parametrize("change", CHANGES)
def test_any_change_takes_the_full_path(work: Path, change: str) -> None:
    CHANGES[change](work)
    assert quick.rerun(ARGV) is None


def test_another_command_line_or_environment_takes_the_full_path(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert quick.rerun([*ARGV, "--max-tokens", "100"]) is None
    assert quick.rerun(["-q", *ARGV]) is None
    monkeypatch.setenv("PARSEGATE_MARKDOWN_ENGINE", "markdown-it")
    assert quick.rerun(ARGV) is None
    monkeypatch.delenv("PARSEGATE_MARKDOWN_ENGINE")
    assert quick.rerun(ARGV) == 0


def test_a_change_to_parsegate_itself_takes_the_full_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "package"
    package.mkdir()
    (package / "versions.py").write_text("OUTPUT_VERSIONS = 1\n")
    monkeypatch.setattr(quick, "_PACKAGE", package)  # stands for parsegate's folder
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.md").write_text(DOC.format(name="a"))
    assert command(monkeypatch, main, ARGV) == 0
    assert quick.rerun(ARGV) == 0
    (package / "versions.py").write_text("OUTPUT_VERSIONS = 22\n")
    assert quick.rerun(ARGV) is None


def test_a_failed_gate_is_answered_with_the_same_exit_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.md").write_text(DOC.format(name="a"))
    (tmp_path / "corpus" / "bad.md").write_bytes(b"# caf\x00\n")  # binary content: the gate fails
    assert command(monkeypatch, main, ARGV) == 1
    capsys.readouterr()
    assert quick.rerun(ARGV) == 1
    assert "gate FAIL" in capsys.readouterr().err


def test_a_corpus_with_a_symlink_leaves_no_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.md").write_text(DOC.format(name="a"))
    (tmp_path / "elsewhere.md").write_text(DOC.format(name="b"))
    (tmp_path / "corpus" / "link.md").symlink_to(tmp_path / "elsewhere.md")  # left out, counted
    assert command(monkeypatch, main, ARGV) == 0
    assert not (tmp_path / "out" / quick.NOTE).exists()
    assert quick.rerun(ARGV) is None


def test_a_full_run_removes_the_note_before_it_changes_the_outputs(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit(work)
    written = []
    real = store.archive_previous

    def archive(out: Path) -> tuple[Path | None, str]:
        written.append((out / quick.NOTE).exists())
        return real(out)

    monkeypatch.setattr(cli_run, "archive_previous", archive)
    assert command(monkeypatch, main, ARGV) == 0
    assert written == [False]
    assert quick.rerun(ARGV) == 0  # the new note vouches for the new outputs


def test_the_outputs_named_without_the_gate_are_the_routers() -> None:
    assert (store.OUTPUTS, store.JOURNAL) == (routing.OUTPUTS, routing.JOURNAL)


def test_the_console_script_answers_without_building_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.md").write_text(DOC.format(name="a"))
    script = (
        "import sys\n"
        "from parsegate.cli import main\n"
        "sys.argv = ['parsegate', 'run', 'corpus', '--out', 'out']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(sorted(m for m in ('parsegate.cli_app', 'typer', 'rich', 'parsegate.chunkers') if m in sys.modules))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PARSEGATE_MARKDOWN_ENGINE"}
    first, again = (
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path, env=env
        )
        for _ in range(2)
    )
    assert first.stdout.strip() == "['parsegate.chunkers', 'parsegate.cli_app', 'rich', 'typer']"
    assert again.stdout.strip() == "[]"
    assert again.stderr.splitlines()[0].startswith("parsegate run · 1 files in 0.")
    assert again.stderr.splitlines()[-1] == "outputs up to date in out/ (checked against run.json); wrote run.json"


def test_the_store_is_asked_for_the_chunk_set_and_every_result(work: Path) -> None:
    note = json.loads((work / "out" / quick.NOTE).read_text())
    with sqlite3.connect(work / ".parsegate" / "store.sqlite") as db:
        assert quick._holds(db, note["chunk_set"], note["documents"])
        assert not quick._holds(db, note["chunk_set"], [*note["documents"], ["d.md", "sha256:00"]])
        assert not quick._holds(db, "cs-other", note["documents"])


def test_a_run_stopped_before_its_end_leaves_no_note(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit(work)

    def stopped(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_run, "finish", stopped)
    assert command(monkeypatch, main, ARGV) == 130
    assert not (work / "out" / quick.NOTE).exists()
