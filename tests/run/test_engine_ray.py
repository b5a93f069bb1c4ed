"""`parsegate run --engine ray` on a local Ray instance (2 CPUs) writes what the local engine
writes: the same chunks.jsonl and quarantine.jsonl bytes, the same outcomes in run.json, and the
same rows in the store. Ray is an optional extra: without it the engine is refused with the
install command; CI installs it (./dev.sh test), elsewhere the comparison is skipped without it."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app

GOLDEN = Path(__file__).resolve().parents[2] / "golden_docs"
HAVE_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(
    not HAVE_RAY and not os.environ.get("CI"), reason="the ray extra is not installed (CI installs it)"
)


def make_corpus(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    shutil.copy(next((GOLDEN / "markdown").glob("*/input.md")), root / "guide.md")
    shutil.copy(next((GOLDEN / "code").glob("*/input.py")), root / "sub" / "tool.py")
    shutil.copy(next((GOLDEN / "pdf").glob("*/input.pdf")), root / "sub" / "paper.pdf")
    (root / "notes.txt").write_text("Plain notes.\n\nA second paragraph, long enough to be a chunk of its own.\n")
    (root / "broken.txt").write_bytes(b"caf\x00 au lait\n")  # binary content: quarantined with its reason
    (root / "empty.md").write_text("")
    return root


def run(corpus: Path, out: Path, store: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "parsegate", "run", str(corpus), "-o", str(out), "--store", str(store)]
    command += ["--allow-failures", *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def outcomes(out: Path) -> list[dict[str, Any]]:
    files = json.loads((out / "run.json").read_text())["files"]
    return [{k: v for k, v in f.items() if k != "seconds"} for f in files]


def store_rows(store: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(store)) as db:
        results = db.execute(
            "SELECT doc_id, version, status, code, chunk_count FROM results ORDER BY doc_id"
        ).fetchall()
        chunks = db.execute("SELECT doc_id, seq, id, record FROM chunks ORDER BY doc_id, seq").fetchall()
    return results + chunks


@needs_ray
def test_ray_writes_what_the_local_engine_writes(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus")
    local = run(corpus, tmp_path / "local", tmp_path / "local.sqlite", "-w", "2")
    assert local.returncode == 0, local.stderr
    ray = run(corpus, tmp_path / "ray", tmp_path / "ray.sqlite", "-w", "2", "--engine", "ray")
    assert ray.returncode == 0, ray.stderr
    for name in ("chunks.jsonl", "quarantine.jsonl"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name
    ids = [json.loads(line)["id"] for line in (tmp_path / "ray" / "chunks.jsonl").read_text().splitlines()]
    assert len(ids) >= 5 and len(set(ids)) == len(ids)
    assert outcomes(tmp_path / "ray") == outcomes(tmp_path / "local")
    codes = {f["path"]: f["code"] for f in outcomes(tmp_path / "ray")}
    assert codes["broken.txt"] == "binary" and codes["sub/paper.pdf"] is None
    assert store_rows(tmp_path / "ray.sqlite") == store_rows(tmp_path / "local.sqlite")
    record = json.loads((tmp_path / "ray" / "run.json").read_text())
    assert record["engine"] == "ray" and record["store"]["parsed"] == 6


def test_ray_engine_without_the_extra_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = make_corpus(tmp_path / "corpus")
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    result = CliRunner().invoke(app, ["run", str(corpus), "-o", str(tmp_path / "out"), "--engine", "ray"])
    assert result.exit_code == 2, result.output
    assert "pip install 'parsegate[ray]'" in result.output
    assert not (tmp_path / "out" / "run.json").exists()
