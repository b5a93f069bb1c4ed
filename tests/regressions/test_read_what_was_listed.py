"""A run reads what its listing found, and files each outcome under the bytes it read (issue 39):

- a file swapped for a symbolic link to a file outside the corpus after the listing was followed,
  and the outside text indexed;
- a file made binary (or emptied) while the run read it had its failure stored under the hash of its good bytes,
  so that the good file was quarantined on every later run with the store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.engines.work import process
from parsegate.runner.discover import discover
from tests.hostile_plugins import install

DOC = "# Notes\n\nA paragraph of plain words that the run reads and keeps.\n"


def test_a_file_swapped_for_a_link_after_the_listing_is_not_followed(tmp_path: Path) -> None:
    corpus, outside = tmp_path / "corpus", tmp_path / "private.md"
    corpus.mkdir()
    (corpus / "a.md").write_text(DOC)
    (corpus / "linked.md").symlink_to(corpus / "a.md")  # a link inside the corpus: read at its target
    outside.write_text("# Private\n\nsecret text outside the corpus\n")
    sources = discover(corpus)
    assert [(s.doc_id, s.path.name) for s in sources] == [("a.md", "a.md"), ("linked.md", "a.md")]
    (corpus / "a.md").unlink()
    (corpus / "a.md").symlink_to(outside)  # the swap, between the listing and the read
    chunker = Chunker(ChunkConfig())
    for source in sources:
        outcome, lines = process(source.path, source.doc_id, chunker)
        assert outcome.status == "failed" and outcome.code == "not_a_file" and lines == []
        assert "symbolic link" in (outcome.reason or "")


def test_a_failure_of_bytes_changed_during_the_run_is_not_stored_under_the_listed_bytes(tmp_path: Path) -> None:
    plugins = install(tmp_path / "plugins")
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    corpus.mkdir()
    # The .wait file goes to the one worker first (the costliest first) and holds it until released.
    (corpus / "first.wait").write_text("a document only the test parser reads\n" * 60_000)
    (corpus / "victim.md").write_text(DOC)
    env = {
        **os.environ,
        "PYTHONPATH": str(plugins),
        "PG_TEST_PIDS": str(tmp_path),
        "PG_TEST_RELEASE": str(tmp_path / "go"),
    }
    command = [
        sys.executable,
        "-m",
        "parsegate",
        "-q",
        "run",
        str(corpus),
        "--out",
        str(out),
        "-w",
        "1",
        "--allow-failures",
    ]
    running = subprocess.Popen(command, env=env, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while not (tmp_path / "first.wait.pid").exists():  # the listing and the hashes are done
        assert running.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    (corpus / "victim.md").write_bytes(b"\x00\x01binary\x00" * 8)  # made binary while the run works
    (tmp_path / "go").touch()
    assert running.wait(timeout=120) == 0
    first = json.loads((out / "run.json").read_text())
    (victim,) = [f for f in first["files"] if f["path"] == "victim.md"]
    assert victim["status"] == "failed", victim
    assert first["store"]["not_stored"] == 1
    (corpus / "victim.md").write_text(DOC)  # the bytes the listing hashed, back
    assert subprocess.run(command, env=env, cwd=tmp_path, timeout=120).returncode == 0
    second = json.loads((out / "run.json").read_text())
    assert {f["path"]: f["status"] for f in second["files"]}["victim.md"] == "chunked"
