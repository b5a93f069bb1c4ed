"""The ``parsegate`` command line (click). Each command lives in its own module under
parsegate/cli/commands/, imported only when it runs or shows its own help: ``parsegate --help``
and ``--version`` import click and this module only.

Exit status of every command: 0 ok, 1 the gate (or a golden check) failed, 2 a usage, input or
output error (a message, never a traceback), 3 an internal error (a bug: one line, the traceback
with -v), 130 interrupted (Ctrl-C, SIGTERM).
"""

from __future__ import annotations

import importlib
import sys
from difflib import get_close_matches
from typing import Any, NamedTuple

import click

from parsegate.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, CommandError
from parsegate.version import __version__


class Command(NamedTuple):
    module: str
    summary: str  # the first line of the command's help (tests/cli check the two agree)


COMMANDS: dict[str, Command] = {
    "parse": Command("parse", "Print a document's elements as JSONL, in reading order, with exact offsets."),
    "chunk": Command("chunk", "Chunk one file into parsegate.chunk/1 records (JSONL, or Parquet)."),
    "run": Command("run", "Parse, chunk and gate every file under CORPUS into OUTDIR."),
    "gate": Command("run", "Re-evaluate an earlier run under other thresholds, without parsing again."),
    "inspect": Command("inspect", "Show a document's elements and where the chunk boundaries fall."),
    "formats": Command("formats", "List the formats parsegate reads: suffixes, parser, extra."),
    "golden": Command("golden", "Golden-document regression: re-run cases, report what changed."),
    "eval": Command("eval", "Score chunking configurations by the evidence they keep whole and find."),
    "store": Command("store", "The chunk store: what it holds."),
    "diff": Command("store", "What changed between two chunk sets, and where each old chunk went."),
    "export": Command("store", "Write a chunk set's current chunks (JSONL or Parquet)."),
    "retire": Command("store", "Remove a chunk set and what nothing else refers to."),
}


def load(name: str) -> click.Command:
    """The command ``name``, its module imported now."""
    module = importlib.import_module(f"parsegate.cli.commands.{COMMANDS[name].module}")
    command: click.Command = getattr(module, f"{name}_command")
    return command


class Parsegate(click.Group):
    """The commands of COMMANDS, each imported the first time it is asked for by name; every
    error a command raises becomes its message and exit status here (the CLI's one place)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return load(cmd_name) if cmd_name in COMMANDS else None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            matches = get_close_matches(args[0], list(COMMANDS)) if args else []
            if matches:
                hint = f"{exc.message.rstrip('.')}. Did you mean {', '.join(map(repr, matches))}?"
                raise click.UsageError(hint, ctx) from None
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands from COMMANDS' summaries, without importing a command."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, command.summary) for name, command in COMMANDS.items()])

    def invoke(self, ctx: click.Context) -> Any:
        from parsegate.cli import console

        try:
            code = super().invoke(ctx)
        except CommandError as exc:
            console.error(exc.message)
            raise click.exceptions.Exit(exc.code) from None
        except KeyboardInterrupt:
            console.error("interrupted")
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # anything else that escapes a command is parsegate's bug, not the input
            _internal_error(exc, console.verbose())
            raise click.exceptions.Exit(EXIT_INTERNAL) from None
        finally:
            console.detach()
        if isinstance(code, int) and code:
            raise click.exceptions.Exit(code)
        return code


def _internal_error(exc: Exception, verbose: bool) -> None:
    import traceback

    from rich.text import Text

    from parsegate.cli import console

    err = console.stderr()
    if verbose:
        err.print(Text("".join(traceback.format_exception(exc))), highlight=False)
    quiet, err.quiet = err.quiet, False
    err.print(
        Text(f"parsegate: internal error: {type(exc).__name__}: {exc}", style="bold red")
        + Text("" if verbose else " (a bug; -v shows the traceback)"),
        soft_wrap=True,
    )
    err.quiet = quiet


@click.group(
    cls=Parsegate,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    help="Structure-aware parsing and chunking for retrieval ingestion: every chunk is an exact, addressable "
    "slice of its source, within a real token budget, and a quality gate decides what is embedded.\n\n"
    "Options before the command apply to every command: parsegate -q run ...",
)
@click.version_option(__version__, "--version", prog_name="parsegate", message="%(prog)s %(version)s")
@click.option("-q", "--quiet", is_flag=True, help="Errors only: no warnings, progress or summary.")
@click.option("-v", "--verbose", count=True, help="More detail (tracebacks of internal errors).")
def app(quiet: bool, verbose: int) -> None:
    from parsegate.cli import console

    console.configure(quiet, verbose)


def main() -> None:
    """The console script."""
    sys.exit(app.main(prog_name="parsegate", standalone_mode=True))


if __name__ == "__main__":
    main()
