"""Faults while a run works: a parser that hangs, eats memory or crashes; a worker killed from
outside; the main process killed (SIGKILL) or stopped (SIGTERM); a second run into the same
folder; a full disk. Each ends with a clear outcome for the one document at fault, and the run
goes on, or stops leaving only complete documents on disk.

The misbehaving parsers come through the entry-point seam (tests/hostile_plugins.py). Limits are
small (1 s, 256 MB) so that the suite stays fast.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.parsers import registry
from tests.hostile_plugins import install

runner = CliRunner()
GOOD = "# Guide\n\nFirst paragraph. Second sentence.\n\n## Part\n\n- one thing to remember\n- two more things to do\n"


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = install(tmp_path / "plugins")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry, "_loaded", None)
    monkeypatch.setenv("PG_TEST_PIDS", str(tmp_path))
    monkeypatch.setenv("PG_TEST_RELEASE", str(tmp_path / "release"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]))
    yield folder


def corpus_with(tmp_path: Path, *names: str) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    for name in names:
        (root / name).write_text(GOOD.replace("Guide", Path(name).stem) if name.endswith(".md") else "A plain note.\n")
    return root


def outcomes(out: Path) -> dict[str, dict]:
    return {f["path"]: f for f in json.loads((out / "run.json").read_text())["files"]}


def wait_for(path: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.02)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its entry waits to be reaped


def parsegate(*args: str, limit_file_size: int | None = None) -> subprocess.Popen[str]:
    def limit() -> None:
        if limit_file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    return subprocess.Popen(
        [sys.executable, "-c", "from parsegate.cli.main import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
    )


def test_a_hanging_parser_is_stopped_at_its_limit_and_the_run_goes_on(plugins: Path, tmp_path: Path) -> None:
    root = corpus_with(tmp_path, "a.md", "b.hang", "c.md")
    out = tmp_path / "out"
    args = ["run", str(root), "--out", str(out), "-w", "1", "--time-limit", "30", "--time-limit", "hang=1"]
    result = runner.invoke(app, [*args, "--allow-failures"])
    assert result.exit_code == 0, result.output
    files = outcomes(out)
    assert {k: (f["status"], f["code"]) for k, f in files.items()} == {
        "a.md": ("chunked", None),
        "b.hang": ("failed", "timeout"),
        "c.md": ("chunked", None),  # read by the worker that replaced the stopped one
    }
    # Stopped at its format's limit (1 s), not the run's (30 s): the reason names the one applied.
    assert files["b.hang"]["seconds"] >= 1.0
    assert "over the 1 s time limit" in files["b.hang"]["reason"]
    run = json.loads((out / "run.json").read_text())
    assert run["workers_replaced"] == 1 and run["complete"] is True
    (entry,) = [json.loads(x) for x in (out / "quarantine.jsonl").read_text().splitlines()]
    assert (entry["doc_id"], entry["reason"], entry["code"]) == ("b.hang", "parse_failed", "timeout")


def test_a_parser_over_the_memory_limit_fails_its_document_only(plugins: Path, tmp_path: Path) -> None:
    root = corpus_with(tmp_path, "a.md", "b.hog", "c.md")
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--memory-limit", "256"])
    assert result.exit_code == 1  # one document failed
    files = outcomes(out)
    assert {k: (f["status"], f["code"]) for k, f in files.items()} == {
        "a.md": ("chunked", None),
        "b.hog": ("failed", "memory"),
        "c.md": ("chunked", None),
    }
    assert "256 MB memory limit" in files["b.hog"]["reason"]


def test_a_worker_that_aborts_fails_its_document_only(plugins: Path, tmp_path: Path) -> None:
    root = corpus_with(tmp_path, "a.md", "b.crash", "c.md", "d.oom", "e.md", "f.rustoom")
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1"])
    assert result.exit_code == 1
    files = outcomes(out)
    assert (files["b.crash"]["status"], files["b.crash"]["code"]) == ("failed", "worker_died")
    assert "killed by SIGABRT" in files["b.crash"]["reason"]
    # A native allocation failure says so on stderr before it aborts: that is the memory limit.
    assert (files["d.oom"]["status"], files["d.oom"]["code"]) == ("failed", "memory")
    assert "killed by SIGABRT" in files["d.oom"]["reason"] and "std::bad_alloc" in files["d.oom"]["reason"]
    # Rust's allocator (the tokenizers library) says it its own way (issue 39: it was worker_died).
    assert files["f.rustoom"]["code"] == "memory" and "bytes failed" in files["f.rustoom"]["reason"]
    assert [files[n]["status"] for n in ("a.md", "c.md", "e.md")] == ["chunked"] * 3
    assert "b.crash" in result.output and "SIGABRT" in result.output


def test_a_worker_killed_from_outside_fails_its_document_only(plugins: Path, tmp_path: Path) -> None:
    root = corpus_with(tmp_path, "a.md", "b.wait", "c.md", "d.md")
    out = tmp_path / "out"
    proc = parsegate("run", str(root), "--out", str(out), "-w", "2", "--allow-failures")
    wait_for(tmp_path / "b.wait.pid")
    os.kill(int((tmp_path / "b.wait.pid").read_text()), signal.SIGKILL)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    files = outcomes(out)
    assert (files["b.wait"]["code"], files["b.wait"]["status"]) == ("worker_died", "failed")
    assert "killed by SIGKILL" in files["b.wait"]["reason"]
    assert [files[n]["status"] for n in ("a.md", "c.md", "d.md")] == ["chunked"] * 3


def test_sigkill_of_the_run_keeps_finished_documents_and_leaves_no_worker(plugins: Path, tmp_path: Path) -> None:
    root = corpus_with(tmp_path, "a.md", "b.md", "c.md", "d.md", "e.md", "z.wait")
    out = tmp_path / "out"
    args = ["run", str(root), "--out", str(out), "-w", "1"]
    proc = parsegate(*args)
    wait_for(tmp_path / "z.wait.pid")  # a.md … e.md are done (one worker, sorted order)
    worker = int((tmp_path / "z.wait.pid").read_text())
    proc.kill()
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 1.0
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(worker), "the worker outlived its parent by more than a second"
    # What is on disk: the five finished documents, each complete, and nothing that looks finished.
    assert not (out / "run.json").exists() and not (out / "chunks.jsonl").exists()
    journal = [json.loads(x) for x in (out / "run.jsonl.partial").read_text().splitlines()]
    assert journal[0]["schema"] == "parsegate.journal/1"
    done = {e["outcome"]["path"]: e for e in journal[1:]}
    assert sorted(done) == ["a.md", "b.md", "c.md", "d.md", "e.md"]
    partial = (out / "chunks.jsonl.partial").read_bytes()
    for entry in done.values():
        start, length = entry["at"]["chunks.jsonl"]
        lines = partial[start : start + length].splitlines()
        assert len(lines) == entry["outcome"]["chunks"]
        assert {json.loads(line)["doc_id"] for line in lines} == {entry["outcome"]["path"]}
    # A re-run completes the corpus: every document once, the same output as a clean run.
    (tmp_path / "release").touch()
    again = parsegate(*args)
    _, stderr = again.communicate(timeout=120)
    assert again.returncode == 0, stderr
    assert "an interrupted run's partial output moved to" in stderr
    clean = tmp_path / "clean"
    assert runner.invoke(app, ["run", str(root), "--out", str(clean), "-w", "1"]).exit_code == 0
    assert (out / "chunks.jsonl").read_bytes() == (clean / "chunks.jsonl").read_bytes()
    ids = [json.loads(x)["id"] for x in (out / "chunks.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) and {json.loads(x)["doc_id"] for x in (out / "chunks.jsonl").read_text().splitlines()} == {
        "a.md", "b.md", "c.md", "d.md", "e.md", "z.wait"
    }  # fmt: skip
    (incomplete,) = (out / "history").iterdir()
    assert incomplete.name.endswith("-incomplete") and (incomplete / "run.jsonl.partial").exists()


def test_a_second_run_into_the_same_folder_is_refused_and_sigterm_stops_the_first(
    plugins: Path, tmp_path: Path
) -> None:
    root = corpus_with(tmp_path, "a.md", "b.wait")
    out = tmp_path / "out"
    first = parsegate("run", str(root), "--out", str(out), "-w", "1")
    wait_for(tmp_path / "b.wait.pid")
    second = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1"])
    assert second.exit_code == 2
    assert f"is in use by another parsegate run (pid {first.pid} on" in second.output
    assert not (out / "history").exists()  # the refused run touched nothing
    worker = int((tmp_path / "b.wait.pid").read_text())
    first.send_signal(signal.SIGTERM)
    _, stderr = first.communicate(timeout=30)
    assert first.returncode == 130
    assert "interrupted: 1 of 2 documents finished" in stderr
    assert not alive(worker)
    assert not (out / "run.json").exists()
    assert {json.loads(x)["doc_id"] for x in (out / "chunks.jsonl.partial").read_text().splitlines()} == {"a.md"}


def test_a_full_disk_ends_the_run_with_a_message_and_whole_lines(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    for n in range(30):
        (root / f"doc{n:02}.md").write_text(
            f"# Document {n}\n\n" + " ".join(f"Point {i} of {n} holds." for i in range(120))
        )
    out = tmp_path / "out"
    out.mkdir()
    # --no-store: the limit would stop the chunk store first (tested in test_chunkstore_kill.py).
    proc = parsegate("run", str(root), "--out", str(out), "-w", "1", "--no-store", limit_file_size=60_000)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 2, stderr
    assert "cannot write" in stderr and "the file size limit is reached" in stderr and "Traceback" not in stderr
    for name in ("chunks.jsonl.partial", "run.jsonl.partial"):
        data = (out / name).read_bytes()
        assert data.endswith(b"\n")
        assert all(json.loads(line) for line in data.splitlines())  # no half-written line
    journal = [json.loads(x) for x in (out / "run.jsonl.partial").read_text().splitlines()][1:]
    chunks = [json.loads(x) for x in (out / "chunks.jsonl.partial").read_text().splitlines()]
    assert 0 < len(journal) < 30
    assert {c["doc_id"] for c in chunks} >= {e["outcome"]["path"] for e in journal}


def test_documents_are_written_and_counted_as_they_finish(plugins: Path, tmp_path: Path) -> None:
    """a.wait comes first in sorted order and finishes last (it waits until the progress callback
    has seen the other two): its neighbours are on disk and counted before it, the final file is
    still in sorted order."""
    from parsegate.chunkers import ChunkConfig
    from parsegate.engines.base import Limits
    from parsegate.engines.local.supervisor import Supervisor
    from parsegate.quality_gates.thresholds import GateConfig
    from parsegate.runner.discover import discover
    from parsegate.runner.process import process_corpus as run_corpus
    from parsegate.runner.route import Router

    root = corpus_with(tmp_path, "a.wait", "b.md", "c.md")
    out = tmp_path / "out"
    out.mkdir()
    seen: list[str] = []

    def progress(outcome) -> None:  # type: ignore[no-untyped-def]
        seen.append(outcome.path)
        if len(seen) == 2:
            on_disk = {json.loads(x)["doc_id"] for x in (out / "chunks.jsonl.partial").read_text().splitlines()}
            assert on_disk == {"b.md", "c.md"}
            (tmp_path / "release").touch()

    with Supervisor(ChunkConfig(), Limits(), 2) as supervisor, Router(out, GateConfig()) as router:
        files = run_corpus(discover(root), router, supervisor, progress)
        router.finish()
    assert sorted(seen[:2]) == ["b.md", "c.md"] and seen[2] == "a.wait"
    assert [f.path for f in files] == ["a.wait", "b.md", "c.md"]
    assert next(json.loads(x)["doc_id"] for x in (out / "chunks.jsonl").read_text().splitlines()) == "a.wait"


def test_a_busy_worker_has_its_next_document_waiting_while_more_are_left_than_workers(
    plugins: Path, tmp_path: Path
) -> None:
    """When a.md is handed back, the worker is already reading b.wait (it was queued behind a.md)
    and c.md waits in its pipe; d.md, the last, stays with the parent for whichever worker is free."""
    from parsegate.chunkers import ChunkConfig
    from parsegate.engines.base import Task
    from parsegate.engines.local.supervisor import Supervisor

    names = ["a.md", "b.wait", "c.md", "d.md"]
    root = corpus_with(tmp_path, *names)
    seen = []
    with Supervisor(ChunkConfig(), workers=1) as supervisor:
        for done in supervisor.run([Task(n, root / name, name) for n, name in enumerate(names)]):
            worker = supervisor.workers[0]
            seen.append((done.task.doc_id, worker.task and worker.task.doc_id, [t.doc_id for t in worker.queued]))
            (tmp_path / "release").touch()
    assert seen[0] == ("a.md", "b.wait", ["c.md"])
    assert [name for name, _, _ in seen] == names


def test_documents_queued_behind_a_failing_one_are_read_by_the_next_worker(
    plugins: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker stopped for a timeout, a crash or the memory limit had the next document waiting
    in its pipe: that document goes back to the queue (it never started), and the worker that
    replaces it reads it, once."""
    from parsegate.chunkers import ChunkConfig
    from parsegate.engines.base import Limits, Task
    from parsegate.engines.local.supervisor import Supervisor

    handed_back: list[str] = []
    stop = Supervisor._stop

    def stop_and_note(self: Supervisor, worker: object) -> int:
        handed_back.extend(t.doc_id for t in worker.queued)  # type: ignore[attr-defined]
        return stop(self, worker)  # type: ignore[arg-type]

    monkeypatch.setattr(Supervisor, "_stop", stop_and_note)
    names = ["a.md", "b.hang", "c.md", "d.md", "e.crash", "f.md", "g.md", "h.hog", "i.md", "j.md", "k.md"]
    root = corpus_with(tmp_path, *names)
    limits = Limits(seconds=30, per_format=(("hang", 1.0),), memory_mb=256)
    with Supervisor(ChunkConfig(), limits, 1) as supervisor:
        found = [
            (d.task.doc_id, d.outcome.code) for d in supervisor.run([Task(n, root / x, x) for n, x in enumerate(names)])
        ]
        replaced = supervisor.replaced
    assert handed_back == ["c.md", "f.md", "i.md"]
    assert sorted(found) == [(name, {"b": "timeout", "e": "worker_died", "h": "memory"}.get(name[0])) for name in names]
    assert replaced == 2  # the timeout and the crash (a worker over the memory limit leaves by itself)
