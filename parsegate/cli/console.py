"""What a run shows in the terminal: a progress bar, and the per-file accounting."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from parsegate.engines.work import FileOutcome


@contextmanager
def progress_bar(total: int, console: Console | None = None) -> Iterator[Callable[[FileOutcome], None]]:
    columns = (
        TextColumn("[bold]chunking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}", markup=False),  # a file name, never markup
    )
    with Progress(*columns, console=console or Console(stderr=True)) as progress:
        task = progress.add_task("", total=total)

        def advance(outcome: FileOutcome) -> None:
            progress.update(task, advance=1, description=outcome.path[-50:])

        yield advance


def print_summary(summary: dict[str, Any], files: list[FileOutcome], seconds: float, console: Console) -> None:
    """Parse failures one per row; unsupported files grouped by reason; chunked files by format.
    File names and reasons are the user's text: cells are Text, never rich markup."""
    table = Table(title=f"parsegate run · {summary['files']} files in {seconds:.1f}s", title_justify="left")
    for col in ("outcome", "files", "chunks", "largest", "detail"):
        table.add_column(col, overflow="fold")
    for f in (f for f in files if f.status == "failed"):
        table.add_row(Text("parse failed", style="red"), Text(f.path), "", "", Text(f"{f.reason} [{f.code}]"))
    skipped: dict[str, list[FileOutcome]] = {}
    for f in files:
        if f.status == "skipped":
            skipped.setdefault(f.reason or "", []).append(f)
    for reason, group in sorted(skipped.items()):
        example = group[0].path + (f" (+{len(group) - 1} more)" if len(group) > 1 else "")
        table.add_row(Text("unsupported", style="yellow"), str(len(group)), "", "", Text(f"{reason}: {example}"))
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
