"""The ``parsegate`` command line: parse, chunk, run, inspect."""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, NoReturn

import orjson
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from chunkers import STRATEGIES, ChunkConfig, Chunker, ConfigError
from chunkers.budget import DEFAULT_TOKENIZER, TokenizerUnavailable
from chunkers.chunk import chunk_set_id
from parsegate import __version__
from parsegate.pipeline import FileOutcome, discover, outcome_dict, run_corpus
from parsegate.store import archive_previous, write_run
from parsers.model import Document, ParseError
from parsers.registry import parse_file, parsers, supported_suffixes

app = typer.Typer(
    help="Structure-aware parsing and chunking for retrieval ingestion: every chunk is an exact, "
    "addressable slice of its source, within a real token budget.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)

# -- shared options ------------------------------------------------------------------

MaxTokens = Annotated[
    int | None,
    typer.Option(
        "--max-tokens",
        "-m",
        help="Token budget per chunk, measured on embed_text with special tokens. "
        "Default: the tokenizer model's maximum sequence length (256 for all-MiniLM-L6-v2).",
    ),
]
TokenizerOpt = Annotated[
    str,
    typer.Option(
        "--tokenizer",
        "-t",
        help=f"'{DEFAULT_TOKENIZER}' (offline, default), a path to any tokenizer.json, "
        "or the plain units 'chars' and 'words'.",
    ),
]
StrategyOpt = Annotated[
    str,
    typer.Option(
        "--strategy",
        "-s",
        help=f"One of {', '.join(STRATEGIES)}. 'structural' packs atomic units "
        "(sentences, list items with their lead-in, table rows with their header, code blocks) by section; "
        "'recursive' and 'fixed' are baselines.",
    ),
]
MinTokens = Annotated[
    int,
    typer.Option(
        "--min-tokens",
        help="Merge chunks smaller than this into a neighbour of the same parent "
        "section when the result fits (structural). 0: off.",
    ),
]
Overlap = Annotated[
    int,
    typer.Option(
        "--overlap",
        help="Sentences of the previous chunk repeated at the start of the next, within "
        "a section and the budget (structural). Costs index size: see 'overhead' in the summary.",
    ),
]
FixedSize = Annotated[int, typer.Option("--fixed-size", help="Window size in characters (fixed strategy).")]
FixedOverlap = Annotated[int, typer.Option("--fixed-overlap", help="Window overlap in characters (fixed strategy).")]


def fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[bold red]parsegate: error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def make_chunker(config: ChunkConfig) -> Chunker:
    try:
        return Chunker(config)
    except (ConfigError, TokenizerUnavailable) as exc:
        fail(str(exc))


def load(path: Path) -> Document:
    if not path.exists():
        fail(f"{path}: no such file")
    if path.is_dir():
        fail(f"{path}: is a directory (use 'parsegate run {path} --out OUTDIR')")
    try:
        return parse_file(path)
    except ParseError as exc:
        fail(f"{path}: {exc.message} [{exc.code}]")


def write_lines(lines: list[bytes], out: Path | None) -> None:
    if out is None:
        sys.stdout.buffer.write(b"".join(line + b"\n" for line in lines))
        sys.stdout.flush()
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(b"".join(line + b"\n" for line in lines))
        err.print(f"wrote {len(lines)} lines to {out}")


def print_warnings(doc: Document) -> None:
    for w in doc.warnings:
        err.print(f"[yellow]warning[/] {doc.doc_id}: {w.message} [{w.code}]", highlight=False, soft_wrap=True)


# -- commands --------------------------------------------------------------------------


@app.command()
def parse(
    file: Annotated[Path, typer.Argument(help="A Markdown or plain-text file.")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write JSONL here instead of stdout.")] = None,
) -> None:
    """Print a document's elements as JSONL, in reading order, with exact offsets."""
    doc = load(file)
    print_warnings(doc)
    write_lines([orjson.dumps(e.to_dict(doc.text)) for e in doc.elements], out)


@app.command()
def chunk(
    file: Annotated[Path, typer.Argument(help="A Markdown or plain-text file.")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write JSONL here instead of stdout.")] = None,
    max_tokens: MaxTokens = None,
    tokenizer: TokenizerOpt = DEFAULT_TOKENIZER,
    strategy: StrategyOpt = "structural",
    min_tokens: MinTokens = 0,
    overlap: Overlap = 0,
    fixed_size: FixedSize = 1000,
    fixed_overlap: FixedOverlap = 100,
) -> None:
    """Chunk one file into parsegate.chunk/1 records (JSONL)."""
    chunker = make_chunker(ChunkConfig(strategy, tokenizer, max_tokens, min_tokens, overlap, fixed_size, fixed_overlap))
    doc = load(file)
    print_warnings(doc)
    try:
        chunks = chunker.chunk(doc)
    except ValueError as exc:
        fail(str(exc))
    write_lines([orjson.dumps(c.to_dict()) for c in chunks], out)


@app.command()
def run(
    corpus: Annotated[Path, typer.Argument(help="A folder (searched recursively) or one file.")],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Output folder: chunks.jsonl and run.json. A previous "
            "run there is moved to OUTDIR/history/, never overwritten.",
        ),
    ],
    max_tokens: MaxTokens = None,
    tokenizer: TokenizerOpt = DEFAULT_TOKENIZER,
    strategy: StrategyOpt = "structural",
    min_tokens: MinTokens = 0,
    overlap: Overlap = 0,
    fixed_size: FixedSize = 1000,
    fixed_overlap: FixedOverlap = 100,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Worker processes. Default: all cores.")] = 0,
    glob: Annotated[
        list[str] | None,
        typer.Option(
            "--glob",
            "-g",
            help="Only files whose name matches this pattern (repeatable), e.g. '*.md'. "
            "Default: every file; files no parser reads are listed as skipped.",
        ),
    ] = None,
    allow_failures: Annotated[
        bool,
        typer.Option(
            "--allow-failures", help="Exit 0 even when some files failed to parse (they are still listed in run.json)."
        ),
    ] = False,
) -> None:
    """Parse and chunk every supported file under CORPUS, with a progress bar and a summary.

    Every file is accounted for in run.json: chunked, skipped (no parser for its format)
    or failed (with the reason). Exit status 1 when any file failed, unless --allow-failures.
    """
    if not corpus.exists():
        fail(f"{corpus}: no such file or folder")
    config = ChunkConfig(strategy, tokenizer, max_tokens, min_tokens, overlap, fixed_size, fixed_overlap)
    chunker = make_chunker(config)
    out.mkdir(parents=True, exist_ok=True)
    archived = archive_previous(out)
    if archived is not None:
        err.print(f"previous run moved to {archived}")
    started = datetime.now(UTC)
    clock = time.perf_counter()
    patterns = tuple(glob or ["*"])
    total = len(discover(corpus, patterns))
    with Progress(
        TextColumn("[bold]chunking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err,
        transient=False,
    ) as progress:
        task = progress.add_task("", total=total)

        def advance(outcome: FileOutcome) -> None:
            progress.update(task, advance=1, description=outcome.path[-50:])

        result = run_corpus(
            corpus, out / "chunks.jsonl", chunker.config, workers or os.cpu_count() or 1, advance, patterns
        )
    seconds = time.perf_counter() - clock
    chunk_sets = {p.NAME: chunker.chunk_set(f"{p.NAME} {p.VERSION}") for p in parsers()}
    write_run(
        out,
        {
            "parsegate": __version__,
            "started_at": started.isoformat(timespec="seconds"),
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "seconds": round(seconds, 3),
            "corpus": str(corpus),
            # One id for the run's whole configuration, and the id each format's chunks carry.
            "chunk_set": chunk_set_id(chunk_sets),
            "chunk_sets": chunk_sets,
            "glob": list(patterns),
            "config": {**chunker.config.__dict__, "tokenizer": chunker.counter.fingerprint},
            "summary": result.summary,
            "files": [outcome_dict(f) for f in result.files],
        },
    )
    print_summary(result.summary, result.files, out, seconds)
    if result.summary["failed"] and not allow_failures:
        raise typer.Exit(1)


def print_summary(summary: dict[str, object], files: list[FileOutcome], out: Path, seconds: float) -> None:
    """Failures first, one row each; skipped files grouped by reason; chunked files by format."""
    table = Table(title=f"parsegate run · {summary['files']} files in {seconds:.1f}s", title_justify="left")
    for col in ("outcome", "files", "chunks", "largest", "detail"):
        table.add_column(col, overflow="fold")
    for f in (f for f in files if f.status == "failed"):
        table.add_row(Text("failed", style="red"), f.path, "", "", f"{f.reason} [{f.code}]")
    skipped: dict[str, list[FileOutcome]] = {}
    for f in files:
        if f.status == "skipped":
            skipped.setdefault(f.reason or "", []).append(f)
    for reason, group in sorted(skipped.items()):
        example = group[0].path + (f" (+{len(group) - 1} more)" if len(group) > 1 else "")
        table.add_row(Text("skipped", style="yellow"), str(len(group)), "", "", f"{reason}: {example}")
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
            detail,
        )
    err.print(table)
    err.print(
        f"files {summary['files']} = chunked {summary['chunked']} + skipped {summary['skipped']} + failed "
        f"{summary['failed']} · chunks {summary['chunks']} · largest {summary['largest_chunk_tokens']} tokens · "
        f"index overhead {summary['overhead']}",
        highlight=False,
        soft_wrap=True,
    )
    err.print(f"wrote {out / 'chunks.jsonl'} and {out / 'run.json'}", highlight=False, soft_wrap=True)


@app.command()
def inspect(
    file: Annotated[Path, typer.Argument(help="A Markdown or plain-text file.")],
    max_tokens: MaxTokens = None,
    tokenizer: TokenizerOpt = DEFAULT_TOKENIZER,
    strategy: StrategyOpt = "structural",
    min_tokens: MinTokens = 0,
    overlap: Overlap = 0,
    elements: Annotated[bool, typer.Option("--elements/--no-elements", help="Also list the parsed elements.")] = True,
) -> None:
    """Show a document's elements and where the chunk boundaries fall, with token counts."""
    chunker = make_chunker(ChunkConfig(strategy, tokenizer, max_tokens, min_tokens, overlap))
    doc = load(file)
    console = Console()
    print_warnings(doc)
    if elements:
        table = Table(title=f"{doc.doc_id} · {doc.format} · {len(doc.elements)} elements", title_justify="left")
        for col in ("id", "kind", "lines", "section", "text"):
            table.add_column(col, overflow="ellipsis", no_wrap=True, max_width=60 if col == "text" else None)
        for e in doc.elements:
            lines = f"{e.lines[0]}–{e.lines[1]}" if e.lines else ""
            preview = doc.text[e.start : e.end].replace("\n", " ⏎ ")[:80]
            table.add_row(
                e.id,
                ("  " * (e.level or 0 if e.kind == "list_item" else 0)) + e.kind,
                lines,
                " > ".join(e.section_path),
                preview,
            )
        console.print(table)
    chunks = chunker.chunk(doc)
    budget = chunker.max_tokens
    for n, c in enumerate(chunks):
        where = f"lines {c.lines[0]}–{c.lines[1]}" if c.lines else ""
        console.rule(
            f"[bold]chunk {n + 1}/{len(chunks)}[/] · {c.tokens}/{budget} tokens · {where} · "
            f"{' > '.join(c.section_path) or '(no section)'} · {', '.join(c.kinds)}",
            align="left",
        )
        prefix = c.embed_text[: len(c.embed_text) - len(c.text)]
        if prefix:
            console.print(Text(prefix.rstrip(), style="italic cyan"))
        console.print(Text(c.text, style="" if n % 2 == 0 else "bright_black"))
    console.rule(f"{len(chunks)} chunks · budget {budget} tokens ({chunker.counter.name})", align="left")


@app.command()
def formats() -> None:
    """List the file suffixes parsegate can parse."""
    for suffix in supported_suffixes():
        print(suffix)


def main() -> None:
    app()
