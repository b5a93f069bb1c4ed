"""A user's first run should pass when nothing is wrong (issue 36):

- an empty ``__init__.py`` failed the gate (``chunks 0``), so every Python repository's first run
  exited 1: a file with nothing to say is counted and reported as empty, not failed; text that is
  there and reaches no chunk (a scanned page) still fails;
- ``parsegate run -m 512`` was refused with a message naming ``--allow-over-model-max``, which
  ``run`` did not accept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app

pytest.importorskip("tree_sitter_language_pack")


def _run(corpus: Path, out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out), "--no-store", "-w", "1", *extra])
    return result.exit_code, result.output


def test_an_empty_init_file_is_empty_not_failed(tmp_path: Path) -> None:
    corpus = tmp_path / "repo"
    (corpus / "pkg").mkdir(parents=True)
    (corpus / "pkg" / "__init__.py").write_text("")
    (corpus / "pkg" / "blank.md").write_text("\n  \n")
    (corpus / "pkg" / "mod.py").write_text("def inc(x):\n    return x + 1\n")
    code, output = _run(corpus, tmp_path / "out")
    assert code == 0, output
    assert "3 passed (2 empty)" in output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["counts"]["empty"] == 2 and report["counts"]["quarantined"] == 0


def test_a_page_with_text_that_reaches_no_chunk_still_fails(tmp_path: Path) -> None:
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.parsers import markdown
    from parsegate.quality_gates.measure import measure
    from parsegate.quality_gates.thresholds import Thresholds
    from parsegate.quality_gates.verdict import evaluate

    chunker = Chunker(ChunkConfig(max_tokens=64))
    source = b"Some words a broken chunker never chunked.\n"
    doc = markdown.parse(source, "lost.md")
    verdict = evaluate(measure(doc, [], chunker.counter, 64, source), Thresholds())
    assert ("min_chunks", 0) in [(c.check, c.value) for c in verdict.failed]


def test_run_takes_allow_over_model_max(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nSome words.\n")
    code, output = _run(corpus, tmp_path / "refused", "-m", "512")
    assert code == 2 and "--allow-over-model-max" in output
    code, output = _run(corpus, tmp_path / "taken", "-m", "512", "--allow-over-model-max")
    assert code == 0, output
