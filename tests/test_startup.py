"""Start-up: `parsegate --help`, `--version` and `formats` import typer and parsegate's option
definitions only (benchmarks/startup.py times them); every other command's libraries load when
that command runs, and the top-level help lists the lazy commands with their own summaries."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer.main
from parsegate.chunkers.budget import DEFAULT_TOKENIZER
from typer._click.utils import make_default_short_help
from typer.testing import CliRunner

from parsegate.cli import params as options
from parsegate.cli.lazy import LAZY, load
from parsegate.cli.main import app

HEAVY = (
    "rich",
    "numpy",
    "tokenizers",
    "orjson",
    "chunkers",
    "quality_gates",
    "parsegate.parsers.registry",
    "parsegate.cli.commands.run",
    "parsegate.store",
    "parsegate.evaluation",
    "parsegate.golden",
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


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["-h"], ["chunk", "--help"], ["parse", "--help"]])
def test_help_and_version_import_no_library_of_any_command(args: list[str]) -> None:
    assert imported_by(*args) == []


def test_formats_imports_the_registry_only() -> None:
    assert imported_by("formats") == ["parsegate.parsers.registry"]


def test_a_lazy_command_imports_its_module_when_it_runs() -> None:
    assert "parsegate.cli.commands.run" in imported_by("run", "--help")
    assert "parsegate.store" in imported_by("store", "--help")


@pytest.mark.parametrize("name", list(LAZY))
def test_the_top_level_help_shows_each_lazy_command_with_its_own_summary(name: str) -> None:
    assert make_default_short_help(LAZY[name].summary, 1000) == load(name).get_short_help_str(1000)


def test_the_top_level_help_lists_every_command_once() -> None:
    result = CliRunner().invoke(app, ["--help"])
    listed = [line.split()[0] for line in result.output.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == ["parse", "chunk", "run", "gate", "inspect", "formats", *list(LAZY)[1:]]
    group = typer.main.get_command(app)
    assert all(group.get_command(None, name) is not None for name in listed)  # type: ignore[arg-type]


def test_the_options_default_tokenizer_is_the_chunkers_own() -> None:
    assert options.DEFAULT_TOKENIZER == DEFAULT_TOKENIZER


def test_the_stderr_console_is_built_on_first_print_with_the_settings_given_before() -> None:
    console = options._LazyConsole()
    console.quiet = True
    assert console.quiet is True and object.__getattribute__(console, "_console") is None
    console.print("not shown")  # quiet: rich prints nothing
    real = object.__getattribute__(console, "_console")
    assert real is not None and real.quiet is True and real.stderr is True


def test_a_mistyped_lazy_command_is_suggested() -> None:
    result = CliRunner().invoke(app, ["expotr"])
    assert result.exit_code == 2 and "Did you mean 'export'?" in result.output
