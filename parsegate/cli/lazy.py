"""Commands whose module is imported only when the command runs (or shows its own help).

``parsegate --help``, ``--version`` and ``formats`` must start in a blink; ``run``, ``eval``,
``golden`` and the store's commands import workers, the gate, numpy, SQLite and rich. Their
modules stay unimported until one of them is resolved by name; the top-level help lists them from
the one-line summaries below (tests/test_startup.py checks each against the command's own).
"""

from __future__ import annotations

import importlib
from difflib import get_close_matches
from typing import TYPE_CHECKING, Any, NamedTuple

import typer
import typer.core
import typer.main

# typer (0.26) carries its own copy of click; the group below is built on it.
from typer._click.exceptions import UsageError
from typer._click.utils import make_default_short_help

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter


class Lazy(NamedTuple):
    module: str
    attribute: str  # a command function, or a typer.Typer (a group of commands)
    summary: str  # the command's short help, as click shows it in the top-level list


# Their summaries: the first paragraph of each command's help (tests/test_startup.py checks them).
LAZY: dict[str, Lazy] = {
    "run": Lazy(
        "parsegate.cli.commands.run", "run",
        "Parse, chunk and gate every file under CORPUS, with a progress bar and a summary.",
    ),
    "golden": Lazy(
        "parsegate.cli.commands.golden", "golden_app",
        "Golden-document regression: re-run cases, report what changed and which evidence no longer arrives whole.",
    ),
    "eval": Lazy(
        "parsegate.cli.commands.eval", "eval_command",
        "Score chunking configurations by the evidence they keep whole and what retrieval brings back.",
    ),
    "store": Lazy("parsegate.cli.commands.store", "store_app", "The chunk store: what it holds."),
    "diff": Lazy(
        "parsegate.cli.commands.store", "diff_command",
        "Documents whose chunks changed between two chunk sets, chunks removed and added, and for every old "
        "chunk the new chunks covering its source span (to re-point citations).",
    ),
    "export": Lazy(
        "parsegate.cli.commands.store", "export_command",
        "Write a chunk set's current chunks (documents not gone; by default those that passed the gate).",
    ),
    "retire": Lazy(
        "parsegate.cli.commands.store", "retire_command",
        "Remove a chunk set with its chunks, and the document versions nothing else refers to.",
    ),
}  # fmt: skip
# The top-level help's order: cli.py's own commands and the lazy ones as users meet them.
ORDER = ("parse", "chunk", "run", "gate", "inspect", "formats", "golden", "eval", "store", "diff", "export", "retire")


def load(name: str) -> Command:
    """The command ``name`` of LAZY, its module imported now."""
    lazy = LAZY[name]
    target: Any = getattr(importlib.import_module(lazy.module), lazy.attribute)
    # Registered on a group of its own exactly as cli.py's commands are on the app (a Typer of one
    # sub-command would otherwise collapse into that command).
    parent = typer.Typer(add_completion=False, rich_markup_mode=None)
    if isinstance(target, typer.Typer):
        parent.add_typer(target, name=name)
    else:
        parent.command(name)(target)
    return typer.main.get_group(parent).commands[name]


class LazyGroup(typer.core.TyperGroup):
    """cli.py's own commands, then LAZY's, each built the first time it is asked for by name."""

    def list_commands(self, ctx: Context) -> list[str]:
        names = [*super().list_commands(ctx), *(n for n in LAZY if n not in self.commands)]
        return sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name in LAZY and cmd_name not in self.commands:
            self.commands[cmd_name] = load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        """typer's, whose "Did you mean" knows only the commands built so far: the lazy ones too."""
        try:
            return super().resolve_command(ctx, args)
        except UsageError as exc:
            matches = get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches and "Did you mean" not in exc.message:
                exc.message = f"{exc.message.rstrip('.')}. Did you mean {', '.join(map(repr, matches))}?"
            raise

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """click's list of commands, without importing a lazy command to read its summary."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names), default=0)  # as click's own list
        rows = []
        for name in names:
            command = self.commands.get(name)
            if command is None:
                rows.append((name, make_default_short_help(LAZY[name].summary, limit)))
            elif not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
