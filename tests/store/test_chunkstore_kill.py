"""The store after SIGKILL: a run killed between documents, and a process killed inside a
document's transaction. Every document ends in the store exactly once, never half-written."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from parsegate.parsers import registry
from tests.hostile_plugins import install
from tests.store.test_chunkstore import DOC

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = install(tmp_path / "plugins")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry, "_loaded", None)
    monkeypatch.setenv("PG_TEST_PIDS", str(tmp_path))
    monkeypatch.setenv("PG_TEST_RELEASE", str(tmp_path / "release"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(folder), str(ROOT)]))
    return folder


def parsegate(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "from parsegate.cli.main import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(path: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.02)


def check_store(store: Path) -> dict[str, int]:
    """Every document once per chunk set, and each result with exactly its chunks."""
    with closing(sqlite3.connect(store)) as db:
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        members = db.execute("SELECT doc_id, count(*) FROM members GROUP BY chunk_set, doc_id").fetchall()
        assert all(n == 1 for _, n in members)
        rows = db.execute(
            "SELECT r.doc_id, r.chunk_count, (SELECT count(*) FROM chunks c WHERE c.chunk_set = r.chunk_set"
            " AND c.doc_id = r.doc_id AND c.version = r.version) FROM results r"
        ).fetchall()
        assert all(stored == expected for _, expected, stored in rows), rows
        return {doc: chunks for doc, chunks, _ in rows}


def test_a_run_killed_mid_corpus_is_finished_by_the_next_with_every_document_once(
    plugins: Path, tmp_path: Path
) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    for name in ("a", "b", "c", "d"):
        (root / f"{name}.md").write_text(DOC.format(name=name))
    (root / "m.wait").write_text("waits for the test\n")
    (root / "z.md").write_text(DOC.format(name="z"))
    args = ["run", str(root), "--out", str(tmp_path / "out"), "-w", "1"]
    proc = parsegate(*args)
    wait_for(tmp_path / "m.wait.pid")  # a … d are committed (one worker, sorted order)
    proc.kill()
    proc.communicate(timeout=30)
    store = tmp_path / ".parsegate" / "store.sqlite"
    assert sorted(check_store(store)) == ["a.md", "b.md", "c.md", "d.md"]
    (tmp_path / "release").touch()
    again = parsegate(*args)
    _, stderr = again.communicate(timeout=120)
    assert again.returncode == 0, stderr
    record = json.loads((tmp_path / "out" / "run.json").read_text())
    assert (record["store"]["reused"], record["store"]["parsed"]) == (4, 2)
    chunks = check_store(store)
    assert sorted(chunks) == ["a.md", "b.md", "c.md", "d.md", "m.wait", "z.md"]
    lines = (tmp_path / "out" / "chunks.jsonl").read_text().splitlines()
    assert len(lines) == sum(chunks.values()) and len({json.loads(x)["id"] for x in lines}) == len(lines)


KILL_INSIDE = """
import os, signal, sys
from pathlib import Path
from parsegate.store.schema import connect
from parsegate.store.writer import Doc, add_chunk_set, record_document

class Lines(list):
    def __iter__(self):  # the process dies after two chunk rows went into the transaction
        for n, line in enumerate(list.__iter__(self)):
            if n == 2:
                os.kill(os.getpid(), signal.SIGKILL)
            yield line

db = connect(Path(sys.argv[1]))
add_chunk_set(db, "cs-test", {})
line = b'{"id": "ch-%d", "start": 0, "end": 1, "parent_id": null}'
outcome = {"status": "chunked", "format": "markdown", "code": None, "verdict": "pass", "failed_checks": []}
record_document(db, "cs-test", "/c", Doc("whole.md", "whole.md", "sha256:1", 1), outcome, [line % 1, line % 2], "m 1")
record_document(db, "cs-test", "/c", Doc("half.md", "half.md", "sha256:2", 1), outcome, Lines([line % n for n in range(5)]), "m 1")
"""


def test_a_process_killed_inside_a_documents_transaction_leaves_nothing_of_it(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    proc = subprocess.run([sys.executable, "-c", KILL_INSIDE, str(store)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert check_store(store) == {"whole.md": 2}
    with closing(sqlite3.connect(store)) as db:
        assert db.execute("SELECT doc_id FROM documents").fetchall() == [("whole.md",)]
        assert db.execute("SELECT doc_id FROM members").fetchall() == [("whole.md",)]
