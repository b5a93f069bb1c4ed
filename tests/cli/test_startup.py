"""Start-up: `parsegate --help` and `--version` import click and parsegate/cli/main.py only
(benchmarks time them); every command's module loads when that command runs or shows its own
help, and the top-level help lists every command with its own summary."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import COMMANDS, app, load

HEAVY = (
    "rich",
    "numpy",
    "tokenizers",
    "orjson",
    "parsegate.chunkers",
    "parsegate.quality_gates",
    "parsegate.parsers.registry",
    "parsegate.runner",
    "parsegate.store",
    "parsegate.evaluation",
    "parsegate.golden",
    "parsegate.cli.commands",
    "sqlite3",
)
PROBE = """
import json, sys
heavy = json.loads(sys.argv[2])
sys.argv = ["parsegate", *json.loads(sys.argv[1])]
from parsegate.cli.main import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def imported_by(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), json.dumps(HEAVY)], capture_output=True, text=True, check=True
    )
    imported: list[str] = json.loads(done.stdout.splitlines()[-1])
    return imported


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["-h"], []])
def test_help_and_version_import_no_command_and_no_library(args: list[str]) -> None:
    assert imported_by(*args) == []


def test_parse_help_imports_its_own_command_only() -> None:
    assert imported_by("parse", "--help") == ["parsegate.cli.commands"]


def test_formats_imports_the_registry_and_no_chunker_or_gate() -> None:
    assert imported_by("formats") == ["parsegate.cli.commands", "parsegate.parsers.registry"]


def test_a_command_imports_its_module_when_it_shows_its_help() -> None:
    assert "parsegate.store" in imported_by("store", "--help")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_top_level_help_shows_each_command_with_its_own_summary(name: str) -> None:
    command = load(name)
    assert command.name == name
    assert (command.help or "").split("\n\n")[0].strip() == COMMANDS[name].summary


def test_the_top_level_help_lists_every_command_once_within_80_columns() -> None:
    result = CliRunner().invoke(app, ["--help"], terminal_width=80)
    assert result.exit_code == 0
    lines = result.output.split("Commands:")[1].splitlines()
    listed = [line.split()[0] for line in lines if line.startswith("  ") and not line.startswith("     ")]
    assert listed == list(COMMANDS)
    assert max(len(line) for line in result.output.splitlines()) <= 80


def test_a_mistyped_command_is_suggested() -> None:
    result = CliRunner().invoke(app, ["expotr"])
    assert result.exit_code == 2 and "Did you mean 'export'?" in result.output


def test_version() -> None:
    from parsegate import __version__

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"parsegate {__version__}\n"


def test_chunk_writes_its_plain_lines_without_importing_rich(tmp_path: Path) -> None:
    source, out = tmp_path / "small.md", tmp_path / "small.jsonl"
    source.write_text("# Title\n\nOne paragraph.\n")
    assert "rich" not in imported_by("chunk", str(source), "-o", str(out))
    done = subprocess.run(
        [sys.executable, "-m", "parsegate", "chunk", str(source), "-o", str(out)], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stderr == f"wrote 1 line to {out}\n"
    assert len(out.read_bytes().splitlines()) == 1


@pytest.mark.parametrize("message", ["wrote 2 lines", "a\tb\tc", "two\nlines  ", "é 中 \x1b[2J \u202e", "[bold]x[/]"])
def test_a_plain_line_is_written_as_rich_writes_it(message: str, capsys: pytest.CaptureFixture[str]) -> None:
    from rich.console import Console
    from rich.text import Text

    from parsegate.cli import console

    console.configure(quiet=False, verbose=0)
    try:
        console.say(message)
        plain = capsys.readouterr().err
        assert "err" not in console._consoles  # the line needed no rich console
        buffer = io.StringIO()
        Console(file=buffer).print(Text(console.inert(message)), highlight=False, soft_wrap=True)
        assert plain == buffer.getvalue()
        console.configure(quiet=True, verbose=0)
        console.say(message)
        assert capsys.readouterr().err == ""
    finally:
        console.detach()
