"""Faults at the edges of a run: an OUTDIR that cannot be one (exit 2, never an internal error),
and an interruption while the run's end is written (it must not say that nothing was written)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import parsegate
from parsegate.cli.main import app
from parsegate.errors import RunInterrupted


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "a.md").write_text("# A\n\nSome text here.\n")
    return root


@pytest.mark.parametrize("out", ["/dev/null/x", "/proc/x", "{file}"])
def test_an_outdir_that_cannot_be_made_is_a_usage_error(out: str, corpus: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", out.format(file=a_file), "--no-store"])
    assert result.exit_code == 2, result.output
    assert "cannot create --out" in result.output and "internal error" not in result.output


def test_an_interruption_in_the_end_phase_says_what_was_kept(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import parsegate.runner.run as run_module

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(run_module, "finish", interrupted)
    with pytest.raises(RunInterrupted) as stopped:
        parsegate.run(corpus, tmp_path / "out", workers=1, use_store=False)
    assert stopped.value.code == 130
    assert "nothing was written" not in stopped.value.message
    assert "run.json is not" in stopped.value.message
    assert (tmp_path / "out" / "chunks.jsonl").exists() and not (tmp_path / "out" / "run.json").exists()
