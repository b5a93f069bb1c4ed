"""The command line's conventions: --version, -h, python -m parsegate, '-' for stdin/stdout,
-q/-v with logging, distinct exit codes, config tables named when unknown, the model maximum."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate import __version__
from parsegate.cli import main as cli
from parsegate.cli.main import app

runner = CliRunner()
DOC = "# Guide\n\nFirst paragraph. Second sentence.\n"


def test_version_and_short_help() -> None:
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.output) == (0, f"parsegate {__version__}\n")
    short, long = runner.invoke(app, ["chunk", "-h"]), runner.invoke(app, ["chunk", "--help"])
    assert short.exit_code == 0 and short.output == long.output and "--max-tokens" in short.output


def test_help_shows_option_text_with_brackets_verbatim() -> None:
    result = runner.invoke(app, ["gate", "--help"], terminal_width=200)
    assert "(table [gate])" in result.output and "[tool.parsegate.gate]" in result.output


def test_choice_options_show_their_choices_in_help() -> None:
    result = runner.invoke(app, ["run", "--help"], terminal_width=200)
    assert "--engine [local|ray]" in result.output and "FUNCTION" not in result.output


def test_python_dash_m_parsegate_and_parsegate_cli(tmp_path: Path) -> None:
    for module in ("parsegate", "parsegate.cli.main"):
        done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (0, f"parsegate {__version__}\n")


def test_chunk_reads_stdin_and_writes_stdout() -> None:
    result = runner.invoke(app, ["chunk", "-", "--doc-id", "guide.md", "-o", "-"], input=DOC)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["doc_id"], r["start"], r["end"], r["section_path"]) for r in records] == [
        ("guide.md", 0, len(DOC.rstrip("\n")), ["Guide"])
    ]
    # stdin without a named suffix: the content decides (a Markdown title heading), --format overrides it.
    parsed = runner.invoke(app, ["parse", "-"], input=DOC)
    kinds = [json.loads(line)["kind"] for line in parsed.stdout.splitlines()]
    assert kinds == ["heading", "paragraph"]
    plain = runner.invoke(app, ["parse", "-", "--format", "txt"], input=DOC)
    assert json.loads(plain.stdout.splitlines()[0])["kind"] != "heading"


def test_dash_o_dash_writes_no_file_named_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.md").write_text(DOC)
    result = runner.invoke(app, ["parse", "a.md", "-o", "-"])
    assert result.exit_code == 0 and not (tmp_path / "-").exists()
    assert json.loads(result.stdout.splitlines()[0])["kind"] == "heading"


def test_warnings_are_logged_and_quiet_silences_them(tmp_path: Path) -> None:
    doc = tmp_path / "a.xyz"
    doc.write_text("Plain words in a file of no known format.\n")
    loud = runner.invoke(app, ["parse", str(doc)])
    assert "warning a.xyz: no parser for '.xyz' files; read as text [unknown_format]" in loud.stderr
    quiet = runner.invoke(app, ["-q", "parse", str(doc)])
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == loud.stdout
    # errors still reach a quiet user
    missing = runner.invoke(app, ["-q", "parse", str(tmp_path / "nope.md")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_library_warnings_go_through_logging(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import parsegate

    doc = tmp_path / "a.xyz"
    doc.write_text("Plain words.\n")
    with caplog.at_level(logging.WARNING, logger="parsegate"):
        parsegate.parse(doc)
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("parsegate", logging.WARNING, "a.xyz: no parser for '.xyz' files; read as text [unknown_format]")
    ]


def test_exit_codes_usage_input_and_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "a.md"
    doc.write_text(DOC)
    assert runner.invoke(app, ["chunk", str(doc), "--no-such-option"]).exit_code == 2  # usage
    assert runner.invoke(app, ["chunk", str(tmp_path / "missing.md")]).exit_code == 2  # input

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom in a parser")

    import parsegate.api

    monkeypatch.setattr(parsegate.api, "parse", crash)  # what the command calls to read the file
    monkeypatch.setattr(sys, "argv", ["parsegate", "chunk", str(doc)])
    with pytest.raises(SystemExit) as exited:
        cli.main()
    assert exited.value.code == 3
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        "parsegate: internal error: RuntimeError: boom in a parser (a bug; -v shows the traceback)"
    ]
    monkeypatch.setattr(sys, "argv", ["parsegate", "-v", "chunk", str(doc)])
    with pytest.raises(SystemExit):
        cli.main()
    assert "Traceback" in capsys.readouterr().err


def test_unknown_config_table_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "a.md").write_text(DOC)
    (tmp_path / "parsegate.toml").write_text("[chunk]\nmax_tokens = 128\n\n[gate]\nmin_chunks = 1\n")
    result = runner.invoke(app, ["run", "c", "--out", "out"])
    assert result.exit_code == 2
    assert "unknown table or key 'chunk'" in " ".join(result.stderr.split())
    assert not (tmp_path / "out" / "run.json").exists()


def test_max_tokens_above_the_model_maximum_is_refused_unless_allowed(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text(DOC)
    assert runner.invoke(app, ["chunk", str(doc), "-m", "256"]).exit_code == 0
    refused = runner.invoke(app, ["chunk", str(doc), "-m", "257"])
    assert refused.exit_code == 2 and "maximum sequence length (256)" in " ".join(refused.stderr.split())
    allowed = runner.invoke(app, ["chunk", str(doc), "-m", "257", "--allow-over-model-max"])
    assert allowed.exit_code == 0
    # plain units have no model maximum
    assert runner.invoke(app, ["chunk", str(doc), "-t", "chars", "-m", "5000"]).exit_code == 0


def test_quiet_run_prints_nothing_but_keeps_its_exit_status(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "a.md").write_text(DOC)
    loud = runner.invoke(app, ["run", str(tmp_path / "c"), "--out", str(tmp_path / "out1")])
    assert loud.exit_code == 0 and "chunked" in loud.stderr
    quiet = runner.invoke(app, ["-q", "run", str(tmp_path / "c"), "--out", str(tmp_path / "out2")])
    assert (quiet.exit_code, quiet.stderr) == (0, "")
    assert (tmp_path / "out2" / "run.json").is_file()


def test_every_chunking_option_reaches_the_config_by_its_field_name() -> None:
    # chunk, inspect and run take their chunking options from the strategy table, one per
    # ChunkConfig field: a field without its option (or an option without its field) fails here.
    from dataclasses import fields

    from parsegate.chunkers import ChunkConfig
    from parsegate.cli.main import load

    names = {f.name for f in fields(ChunkConfig)}
    for command in ("chunk", "inspect", "run"):
        params = {p.name for p in load(command).params}
        assert names <= params, (command, names - params)
