"""What the command line shows: rich consoles (built, and rich imported, on first use), the log
handler that prints the library's log records, a run's progress bar and its summary. The only
module of parsegate that prints to the terminal, with the commands that call it."""

from __future__ import annotations

import logging
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

from parsegate.log import log

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from parsegate.engines.work import FileOutcome
    from parsegate.runner.run import RunResult

_consoles: dict[str, Console] = {}
# Characters that act on a terminal rather than show: C0 and C1 controls (ESC starts OSC 52
# clipboard writes and screen clears), and the bidirectional overrides that reorder what is shown.
_ACTING = {
    **{c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0))},
    **{c: f"\\u{c:04x}" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))},
}
_state = {"quiet": False, "verbose": 0}


def inert(text: str) -> str:
    """A user's string (a file name, a reason quoting it, a document's text) as it may reach a
    terminal: every control character and direction override written out (``\\x1b``), so that
    nothing in a corpus can move the cursor, clear the screen or write the clipboard."""
    return text.translate(_ACTING)


def stderr() -> Console:
    """The console for messages, progress and summaries (stderr; silent with -q but for errors)."""
    if "err" not in _consoles:
        from rich.console import Console

        _consoles["err"] = Console(stderr=True, quiet=bool(_state["quiet"]))
    return _consoles["err"]


def stdout() -> Console:
    """The console for what a command was asked to show (inspect's chunks, the store's tables)."""
    if "out" not in _consoles:
        from rich.console import Console

        _consoles["out"] = Console()
    return _consoles["out"]


def configure(quiet: bool, verbose: int) -> None:
    """-q: errors only; default: warnings and what was written; -v: details and tracebacks."""
    _state["quiet"], _state["verbose"] = quiet, verbose
    _consoles.clear()  # built again for this invocation: its terminal width, its -q
    level = logging.ERROR if quiet else (logging.DEBUG if verbose else logging.INFO)
    for handler in [h for h in log.handlers if isinstance(h, ConsoleHandler)]:
        log.removeHandler(handler)
    log.addHandler(ConsoleHandler())
    log.setLevel(level)


def detach() -> None:
    """The command has ended: the library's log goes back to its caller's set-up (a test, a program
    that ran the command line in-process), with nothing of this invocation's left attached."""
    for handler in [h for h in log.handlers if isinstance(h, ConsoleHandler)]:
        log.removeHandler(handler)
    log.setLevel(logging.NOTSET)
    _consoles.clear()


def verbose() -> bool:
    return bool(_state["verbose"])


def error(message: str) -> None:
    """``parsegate: error: …`` on stderr, even with -q. The message is the user's text, never markup."""
    from rich.text import Text

    console = stderr()
    quiet, console.quiet = console.quiet, False
    try:
        console.print(
            Text("parsegate: error: ", style="bold red") + Text(inert(message)), highlight=False, soft_wrap=True
        )
    finally:
        console.quiet = quiet


def say(message: str) -> None:
    """One plain line on stderr (silent with -q)."""
    if "err" not in _consoles:
        _plain(message)
        return
    from rich.text import Text

    stderr().print(Text(inert(message)), highlight=False, soft_wrap=True)


def _plain(message: str) -> None:
    """A line without style while no rich console is built (no progress bar is live, nothing
    has been styled): written as rich writes it, without importing rich (17 ms of a ``chunk``)."""
    if not _state["quiet"]:
        sys.stderr.write(inert(message).expandtabs(8) + "\n")  # rich expands tabs too
        sys.stderr.flush()


class ConsoleHandler(logging.Handler):
    """Records to the stderr console as plain text: a message is the user's text, never markup."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.WARNING and not record.exc_info and "err" not in _consoles:
            _plain(record.getMessage())
            return
        from rich.text import Text

        style = {logging.WARNING: "yellow", logging.ERROR: "bold red"}.get(record.levelno, "dim")
        label = Text(record.levelname.lower() + " ", style=style) if record.levelno >= logging.WARNING else Text()
        stderr().print(label + Text(inert(record.getMessage())), highlight=False, soft_wrap=True)
        if record.exc_info and log.isEnabledFor(logging.DEBUG):
            stderr().print(Text(self.format(record).partition("\n")[2]), highlight=False)


class ProgressBar:
    """A run's progress (runner.run.Progress) as a rich bar on stderr."""

    def __init__(self) -> None:
        self._progress: Progress | None = None
        self._task: Any = None

    def start(self, total: int) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (
            TextColumn("[bold]chunking"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}", markup=False),  # a file name, never markup
        )
        self._progress = Progress(*columns, console=stderr())
        self._progress.start()
        self._task = self._progress.add_task("", total=total)

    def advance(self, outcome: FileOutcome) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=inert(outcome.path)[-50:])

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def print_summary(summary: dict[str, Any], files: list[FileOutcome], seconds: float, console: Console) -> None:
    """Parse failures one per row; unsupported files grouped by reason; chunked files by format.
    File names and reasons are the user's text: cells are Text, never rich markup."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"parsegate run · {summary['files']} files in {seconds:.1f}s", title_justify="left")
    for col in ("outcome", "files", "chunks", "largest", "detail"):
        table.add_column(col, overflow="fold")
    for f in (f for f in files if f.status == "failed"):
        table.add_row(
            Text("parse failed", style="red"), Text(inert(f.path)), "", "", Text(inert(f"{f.reason} [{f.code}]"))
        )
    skipped: dict[str, list[FileOutcome]] = {}
    for f in files:
        if f.status == "skipped":
            skipped.setdefault(f.reason or "", []).append(f)
    for reason, group in sorted(skipped.items()):
        example = group[0].path + (f" (+{len(group) - 1} more)" if len(group) > 1 else "")
        table.add_row(Text("unsupported", style="yellow"), str(len(group)), "", "", Text(inert(f"{reason}: {example}")))
    formats: dict[str, list[FileOutcome]] = {}
    for f in files:
        if f.status == "chunked":
            formats.setdefault(f.format or "-", []).append(f)
    for fmt, group in sorted(formats.items()):
        warned = Counter(w["code"] for f in group for w in f.warnings)
        detail = ", ".join(f"{code} ×{n}" for code, n in sorted(warned.items())) or "no warnings"
        table.add_row(
            Text(f"chunked · {fmt}", style="green"),
            str(len(group)),
            str(sum(f.chunks for f in group)),
            str(max(f.max_tokens for f in group)),
            Text(detail),
        )
    console.print(table)
    console.print(
        f"files {summary['files']} = chunked {summary['chunked']} + unsupported {summary['skipped']} + parse failed "
        f"{summary['failed']} · chunks {summary['chunks']} · largest {summary['largest_chunk_tokens']} tokens · "
        f"index overhead {summary['overhead']}",
        highlight=False,
        soft_wrap=True,
    )


def print_run(result: RunResult) -> None:
    """A run's (or a re-gate's) end: the summary, what was left out, the gate, what was written."""
    from parsegate.cli.gate_table import print_gate

    console = stderr()
    print_summary(result.summary, result.files, result.seconds, console)
    for reason, count in sorted(result.left_out.items()):
        say(f"left out on purpose: {count} paths ({reason})")
    if result.empty:
        say("no document was read (use --allow-empty to accept an empty run)")
    print_gate(result.report, console)
    out = result.out
    if result.wrote:
        say(f"wrote {out}/: chunks.jsonl quarantine.jsonl run.json report.json report.html")
    else:  # nothing but run.json was written: the files are those of the run before, checked by hash
        say(f"outputs up to date in {out}/ (checked against run.json); wrote run.json")
    store = result.record.get("store") or {}
    if store.get("written_because"):  # a run with a store that wrote its outputs again: why
        say(f"store: {store.get('reused', 0)} documents reused; outputs written: {store['written_because']}")
