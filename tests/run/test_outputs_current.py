"""A re-run that would write exactly what OUTDIR holds leaves the files be (chunkstore/current.py):
unchanged corpus and settings → chunks.jsonl, quarantine.jsonl, report.json and report.html
untouched (mtime kept) and "outputs up to date"; a tampered output, another threshold, another
chunk size or a changed document → a full run that writes them again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app

runner = CliRunner()
KEPT = ("chunks.jsonl", "quarantine.jsonl", "report.json", "report.html")
DOC = "# {name}\n\nFirst paragraph about {name}. It has a second sentence.\n\n## Part\n\n- one thing\n- two things\n"


def make_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    for name in ("a", "b", "c"):
        (root / f"{name}.md").write_text(DOC.format(name=name))
    (root / "bad.md").write_bytes(b"# caf\x00\n")  # binary content: quarantined, the same way every time
    return root


def run(root: Path, out: Path, *extra: str) -> str:
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--allow-failures", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def why(out: Path) -> str | None:
    """Why the last run wrote its outputs (run.json's store.written_because); None: up to date."""
    store = json.loads((out / "run.json").read_text())["store"]
    assert store["outputs"] == ("up to date" if "written_because" not in store else "written")
    return store.get("written_because")


def snapshot(out: Path) -> dict[str, tuple[bytes, int]]:
    return {name: ((out / name).read_bytes(), (out / name).stat().st_mtime_ns) for name in KEPT}


def age(out: Path) -> None:
    """Back-date the outputs, so that a rewrite shows in the mtime whatever the clock's grain."""
    for name in KEPT:
        os.utime(out / name, ns=(1_000_000_000, 1_000_000_000))


def test_an_unchanged_rerun_leaves_the_outputs_untouched_and_says_so(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    assert why(out) == "4 of 4 documents parsed: 4 not in the store under these settings"  # a first run
    age(out)
    before = snapshot(out)
    output = run(root, out)
    assert "outputs up to date" in output and why(out) is None
    assert snapshot(out) == before  # same bytes, same mtime: not written
    assert not (out / "history").exists()
    record = json.loads((out / "run.json").read_text())
    assert record["store"]["reused"] == 4 and record["store"]["parsed"] == 0
    assert record["summary"]["chunked"] == 3 and record["summary"]["failed"] == 1
    assert record["outputs"]["files"]["chunks.jsonl"].startswith("sha256:")


def test_a_tampered_output_is_written_again(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    good = (out / "report.html").read_bytes()
    (out / "report.html").write_bytes(good.replace(b"</body>", b"<p>edited</p></body>"))
    age(out)
    output = run(root, out)
    assert "outputs up to date" not in output
    assert why(out) == "report.html changed since the earlier run wrote it"
    assert "store: 4 documents reused; outputs written: report.html changed since the earlier run" in output
    assert b"edited" not in (out / "report.html").read_bytes()  # rendered again (with this run's timings)
    assert all((out / name).stat().st_mtime_ns > 1_000_000_000 for name in KEPT)
    assert len(list((out / "history").iterdir())) == 1  # the tampered run filed away


def test_a_missing_output_is_written_again(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    (out / "quarantine.jsonl").unlink()
    assert "outputs up to date" not in run(root, out)
    assert why(out) == "the output folder's files are not those the earlier run wrote (quarantine.jsonl)"
    assert (out / "quarantine.jsonl").read_bytes().count(b"\n") == 1


def test_another_threshold_writes_the_outputs_again(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    age(out)
    output = run(root, out, "--set", "max_failed_share=0.9")
    assert "outputs up to date" not in output
    assert why(out) == "the settings differ from the earlier run's (configuration, thresholds, versions or selection)"
    assert all((out / name).stat().st_mtime_ns > 1_000_000_000 for name in KEPT)
    assert json.loads((out / "report.json").read_text())["thresholds"]["default"]["max_failed_share"] == 0.9


def test_another_chunk_size_or_a_changed_document_writes_the_outputs_again(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    age(out)
    assert "outputs up to date" not in run(root, out, "--max-tokens", "64")
    assert why(out) == "4 of 4 documents parsed: 4 not in the store under these settings"  # a new chunk set
    run(root, out)  # back to the first settings: a full run again (OUTDIR holds the 64-token run)
    assert why(out) == "the settings differ from the earlier run's (configuration, thresholds, versions or selection)"
    assert "outputs up to date" in run(root, out)
    (root / "b.md").write_text(DOC.format(name="bee"))
    (root / "d.md").write_text(DOC.format(name="dee"))
    age(out)
    assert "outputs up to date" not in run(root, out)
    assert why(out) == "2 of 5 documents parsed: 1 changed, 1 not in the store under these settings"
    assert b"bee" in (out / "chunks.jsonl").read_bytes()


def test_gate_drops_the_fingerprint_so_the_next_run_is_a_full_one(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    result = runner.invoke(app, ["gate", str(out), "--set", "max_failed_share=0.9"])
    assert result.exit_code == 0, result.output
    assert "outputs" not in json.loads((out / "run.json").read_text())
    assert "outputs up to date" not in run(root, out)
    assert why(out) == "the earlier run recorded no fingerprint of its outputs (no store, or re-gated since)"


def test_a_deleted_document_writes_the_outputs_again(tmp_path: Path) -> None:
    """Every other document is reused: only the fingerprint's list of documents tells them apart."""
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    (root / "c.md").unlink()
    assert "outputs up to date" not in run(root, out)
    assert why(out) == "the documents differ from the earlier run's (one added, deleted, or read again)"
    assert b'"doc_id":"c.md"' not in (out / "chunks.jsonl").read_bytes()
    assert b'"doc_id":"a.md"' in (out / "chunks.jsonl").read_bytes()


def test_an_output_file_the_run_did_not_write_makes_a_full_run(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    (out / "chunks.parquet").write_bytes(b"PAR1 not this run's")
    assert "outputs up to date" not in run(root, out)
    assert why(out) == "the output folder's files are not those the earlier run wrote (chunks.parquet)"
    assert not (out / "chunks.parquet").exists()  # filed away with the run it was found beside


def test_a_run_whose_gate_failed_is_up_to_date_too_and_still_fails(tmp_path: Path) -> None:
    """A failed gate ends the run with exit status 1 after run.json: it leaves no journal behind
    (which would read as an interrupted run's output and make every re-run a full one)."""
    root, out = make_corpus(tmp_path), tmp_path / "out"
    first = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1"])
    assert first.exit_code == 1, first.output
    assert sorted(p.name for p in out.iterdir() if p.name.endswith(".partial")) == []
    again = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1"])
    assert again.exit_code == 1
    assert "outputs up to date" in again.output


def test_an_edited_run_json_makes_a_full_run(tmp_path: Path) -> None:
    """An up-to-date re-run prints and keeps run.json's outcomes: they are checked by hash too."""
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    record = json.loads((out / "run.json").read_text())
    record["files"][0]["verdict"] = "fail" if record["files"][0]["verdict"] == "pass" else "pass"
    (out / "run.json").write_text(json.dumps(record))
    assert "outputs up to date" not in run(root, out)
    assert why(out) == "run.json's outcomes are not those the earlier run wrote (edited since)"
    assert json.loads((out / "run.json").read_text())["summary"] == {**record["summary"]}


def test_an_unchanged_rerun_imports_no_parser_and_builds_no_tokenizer(tmp_path: Path) -> None:
    """What a re-run is spared: the parser modules (only their versions are needed, for the chunk
    set id) and the tokenizer (only its fingerprint and limits, read off the file)."""
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    script = (
        "import sys\n"
        "from parsegate.cli.main import main\n"
        f"sys.argv = ['parsegate', 'run', {str(root)!r}, '--out', {str(out)!r}, '--allow-failures']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "from parsegate.chunkers.tokens.counter import load_counter\n"
        "parsers = [m for m in sys.modules if m.split('.')[:3] in (['parsegate', 'parsers', n] for n in\n"
        "    ('markdown', 'text', 'code', 'office', 'pdf'))]\n"
        "print(sorted(parsers), load_counter()._tokenizer is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "outputs up to date" in done.stderr
    assert done.stdout.strip() == "[] False"


def test_an_interrupted_runs_output_and_an_unfinished_run_say_so(tmp_path: Path) -> None:
    root, out = make_corpus(tmp_path), tmp_path / "out"
    run(root, out)
    (out / "chunks.jsonl.partial").write_bytes(b"")
    run(root, out)
    assert why(out) == "an interrupted run left chunks.jsonl.partial in the output folder"
    record = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps({**record, "complete": False}))
    run(root, out)
    assert why(out) == "the earlier run in the output folder did not finish"
    (out / "run.json").write_text("{not json")
    run(root, out)
    assert why(out) == "the output folder's run.json cannot be read"
    assert "outputs up to date" in run(root, out) and why(out) is None
    shutil.rmtree(out)  # history/ holds the unreadable run.json (the schema check reads every one)
    run(root, out)  # every document is in the store, but no outputs are at hand
    assert why(out) == "the output folder holds no earlier run (no run.json)"
