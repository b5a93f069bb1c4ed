"""A worker's start is paid once per worker, in parallel with the other workers' starts, so
what it loads before and with its first document bounds what a second worker can gain
(benchmarks/workers.py). These tests hold the start to what the document needs: the plugin
parsers the parent found are passed, not searched for again; a code or text file does not bring
markdown-it; a text file does not bring importlib.metadata (nor importlib.resources, which only
the semantic-embedding strategy's model lookup needs); Markdown without front matter does not
bring PyYAML; and workers that each have one core
do not hand the tokenizer's batches to a thread pool."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig
from parsegate.engines.local.supervisor import Supervisor
from parsegate.parsers import registry
from tests.hostile_plugins import ENTRY_POINTS, PACKAGE, install

# What worker.main does before its first document, then one document, then the modules loaded.
WORKER = """
import json, sys
from pathlib import Path
from parsegate.engines.local.worker import prepare
settings = json.loads(sys.argv[1])
chunker, options = prepare(settings)
from parsegate.engines.work import process
outcome, _ = process(Path(sys.argv[2]), Path(sys.argv[2]).name, chunker)
from parsegate.parsers.registry import parsers
print(json.dumps({
    "status": outcome.status,
    "modules": sorted(m for m in ("markdown_it", "importlib.metadata", "importlib.resources", "yaml") if m in sys.modules),
    "parsers": [p.NAME for p in parsers()],
}))
"""


def worker_reads(path: Path, plugins: list[tuple[str, str]], extra_path: str = "") -> dict[str, object]:
    settings = {
        "sys_path": [extra_path] if extra_path else [],
        "memory": 0,
        "plugins": plugins,
        "config": {},
        "parsing": {},
    }
    settings["config"] = ChunkConfig().__dict__
    done = subprocess.run(
        [sys.executable, "-c", WORKER, json.dumps(settings), str(path)], capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_a_text_file_brings_neither_markdown_it_nor_importlib_metadata_nor_resources(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("First paragraph. Second sentence.\n\nAnother paragraph here.\n")
    found = worker_reads(path, [])
    assert found["status"] == "chunked"
    assert found["modules"] == []


def test_a_code_file_does_not_bring_markdown_it(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_text("import os\n\n\ndef main() -> None:\n    print(os.getcwd())\n")
    found = worker_reads(path, [])
    assert found["status"] == "chunked"
    assert "markdown_it" not in found["modules"]  # type: ignore[operator]


def test_markdown_brings_pyyaml_only_for_front_matter(tmp_path: Path) -> None:
    plain, with_front_matter = tmp_path / "plain.md", tmp_path / "front.md"
    plain.write_text("# Title\n\n---\n\nA paragraph under a rule.\n")
    with_front_matter.write_text("---\ntitle: Notes\n---\n\n# Title\n\nA paragraph.\n")
    found = worker_reads(plain, [])
    assert found["status"] == "chunked"
    assert "yaml" not in found["modules"]  # type: ignore[operator]
    assert "yaml" in worker_reads(with_front_matter, [])["modules"]  # type: ignore[operator]


def test_a_worker_uses_the_plugin_parsers_it_is_given_without_searching(tmp_path: Path) -> None:
    folder = install(tmp_path / "plugins")  # installed, but the worker is told of one only
    path = tmp_path / "notes.txt"
    path.write_text("One paragraph.\n")
    found = worker_reads(path, [("wait", f"{PACKAGE}:Wait")], str(folder))
    assert found["parsers"] == ["markdown", "text", "code", "office", "pdf", "image", "wait"]
    assert worker_reads(path, [], str(folder))["parsers"] == ["markdown", "text", "code", "office", "pdf", "image"]


def test_the_parent_passes_the_plugin_parsers_it_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = install(tmp_path / "plugins")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry, "_loaded", None)
    assert sorted(registry.plugins()) == sorted((name, f"{PACKAGE}:{obj}") for name, obj in ENTRY_POINTS.items())


def test_a_list_set_from_outside_is_answered_with_what_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test that swaps the registry's list (and a monkeypatch that puts the old one back) must
    not leave the entry points of another list behind for the next workers."""
    folder = install(tmp_path / "plugins")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry, "_loaded", None)
    assert len(registry.plugins()) == len(ENTRY_POINTS)
    sys.path.remove(str(folder))  # uninstalled, and the list put back to the built-ins alone
    monkeypatch.setattr(registry, "_loaded", list(registry._BUILTIN))
    assert registry.plugins() == []


def _worker_environment(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode("utf-8", "replace").split("\0") if "=" in item)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc/PID/environ")
@pytest.mark.parametrize(("workers", "threads", "parallelism"), [(1, "2", None), (2, "1", "false")])
def test_workers_with_one_core_each_do_not_hand_batches_to_a_thread_pool(
    monkeypatch: pytest.MonkeyPatch, workers: int, threads: str, parallelism: str | None
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)
    monkeypatch.delenv("RAYON_NUM_THREADS", raising=False)
    with Supervisor(ChunkConfig(), workers=workers) as supervisor:
        supervisor.start()
        environments = [_worker_environment(w.proc.pid) for w in supervisor.workers]
    assert [e.get("RAYON_NUM_THREADS") for e in environments] == [threads] * workers
    assert [e.get("TOKENIZERS_PARALLELISM") for e in environments] == [parallelism] * workers
