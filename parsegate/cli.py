"""The ``parsegate`` command line: parse, chunk, run, gate, inspect."""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import orjson
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from chunkers import ChunkConfig, Chunker, ConfigError
from chunkers.budget import DEFAULT_TOKENIZER, TokenizerUnavailable
from chunkers.chunk import chunk_set_id
from parsegate import __version__
from parsegate.evaluation.commands import eval_command
from parsegate.golden.commands import golden_app
from parsegate.pipeline import (
    FileOutcome,
    Selection,
    discover,
    outcome_dict,
    outcome_from_dict,
    run_corpus,
    summarize,
)
from parsegate.reports import write_reports
from parsegate.routing import Router
from parsegate.store import RUN_SCHEMA, archive_previous, read_chunk_lines, write_run
from parsegate.strategy_options import (
    ParentTokens,
    SemanticModel,
    SemanticPercentile,
    SemanticThreshold,
    SemanticWindow,
    StrategyOpt,
)
from parsegate.terminal import print_summary, progress_bar
from parsers.model import Document, ParseError
from parsers.registry import parse_file, parsers, supported_suffixes
from quality_gates.gate import GateConfig, GateConfigError, load_gate_config
from quality_gates.report import print_report

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
ContextShare = Annotated[
    float,
    typer.Option(
        "--context-share",
        help="At most this share of --max-tokens goes to a chunk's context prefix (title, section "
        "path, table header, list lead-in, speaker, class header, imports), filled by priority and "
        "cut at a word with '…' (structural).",
    ),
]
Password = Annotated[
    str | None,
    typer.Option(
        "--password",
        help="Password for encrypted PDFs (also read from PARSEGATE_PDF_PASSWORD).",
        envvar="PARSEGATE_PDF_PASSWORD",
    ),
]
FixedSize = Annotated[int, typer.Option("--fixed-size", help="Window size in characters (fixed strategy).")]
FixedOverlap = Annotated[int, typer.Option("--fixed-overlap", help="Window overlap in characters (fixed strategy).")]


def fail(message: str, code: int = 2) -> NoReturn:
    # escaped: a message may hold brackets ("pip install 'parsegate[embed]'") that are not markup
    err.print(f"[bold red]parsegate: error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def make_chunker(config: ChunkConfig) -> Chunker:
    try:
        return Chunker(config)
    except (ConfigError, TokenizerUnavailable) as exc:
        fail(str(exc))


def use_password(password: str | None) -> None:
    # Parsers (and worker processes, which inherit the environment) read it from there.
    if password:
        os.environ["PARSEGATE_PDF_PASSWORD"] = password


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
    file: Annotated[Path, typer.Argument(help="A file in any supported format (see 'parsegate formats').")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write JSONL here instead of stdout.")] = None,
    password: Password = None,
) -> None:
    """Print a document's elements as JSONL, in reading order, with exact offsets."""
    use_password(password)
    doc = load(file)
    print_warnings(doc)
    write_lines([orjson.dumps(e.to_dict(doc.text)) for e in doc.elements], out)


@app.command()
def chunk(
    file: Annotated[Path, typer.Argument(help="A file in any supported format (see 'parsegate formats').")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write JSONL here instead of stdout.")] = None,
    max_tokens: MaxTokens = None,
    tokenizer: TokenizerOpt = DEFAULT_TOKENIZER,
    strategy: StrategyOpt = "structural",
    min_tokens: MinTokens = 0,
    overlap: Overlap = 0,
    context_share: ContextShare = 0.2,
    fixed_size: FixedSize = 1000,
    fixed_overlap: FixedOverlap = 100,
    parent_tokens: ParentTokens = None,
    semantic_window: SemanticWindow = 3,
    semantic_threshold: SemanticThreshold = None,
    semantic_percentile: SemanticPercentile = 10.0,
    semantic_model: SemanticModel = "all-MiniLM-L6-v2",
    password: Password = None,
) -> None:
    """Chunk one file into parsegate.chunk/1 records (JSONL)."""
    use_password(password)
    chunker = make_chunker(
        ChunkConfig(
            strategy,
            tokenizer,
            max_tokens,
            min_tokens,
            overlap,
            fixed_size,
            fixed_overlap,
            context_share,
            parent_tokens,
            semantic_window,
            semantic_threshold,
            semantic_percentile,
            semantic_model,
        )
    )
    doc = load(file)
    print_warnings(doc)
    try:
        chunks = chunker.chunk(doc)
    except ValueError as exc:
        fail(str(exc))
    write_lines([orjson.dumps(c.to_dict()) for c in chunks], out)


ConfigFile = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Gate thresholds from this TOML file (table [gate]). Default: parsegate.toml, "
        "else [tool.parsegate.gate] in pyproject.toml, in the current folder; else built-in defaults.",
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Override one threshold: key=value, or format.key=value for one format "
        "(e.g. --set max_short_chunk_rate=0.4 --set text.min_heading_inheritance=0). Repeatable.",
    ),
]
AllowFailures = Annotated[
    bool,
    typer.Option("--allow-failures", help="Exit 0 even when the gate fails (the verdict is still in report.json)."),
]


def load_gate(config: Path | None, overrides: list[str] | None) -> GateConfig:
    try:
        return load_gate_config(Path.cwd(), config, overrides)
    except GateConfigError as exc:
        fail(str(exc))


@app.command()
def run(
    corpus: Annotated[Path, typer.Argument(help="A folder (searched recursively) or one file.")],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Output folder: chunks.jsonl (documents that passed the gate), quarantine.jsonl (everything "
            "else, with reasons), run.json, report.json, report.html. A previous run there is moved to "
            "OUTDIR/history/, never overwritten.",
        ),
    ],
    max_tokens: MaxTokens = None,
    tokenizer: TokenizerOpt = DEFAULT_TOKENIZER,
    strategy: StrategyOpt = "structural",
    min_tokens: MinTokens = 0,
    overlap: Overlap = 0,
    context_share: ContextShare = 0.2,
    fixed_size: FixedSize = 1000,
    fixed_overlap: FixedOverlap = 100,
    parent_tokens: ParentTokens = None,
    semantic_window: SemanticWindow = 3,
    semantic_threshold: SemanticThreshold = None,
    semantic_percentile: SemanticPercentile = 10.0,
    semantic_model: SemanticModel = "all-MiniLM-L6-v2",
    workers: Annotated[int, typer.Option("--workers", "-w", help="Worker processes. Default: all cores.")] = 0,
    glob: Annotated[
        list[str] | None,
        typer.Option(
            "--glob",
            "-g",
            help="Only files whose name matches this pattern (repeatable), e.g. '*.md'. "
            "Default: every file; files no parser reads are quarantined as unsupported.",
        ),
    ] = None,
    config: ConfigFile = None,
    set_: SetOpt = None,
    allow_failures: AllowFailures = False,
    password: Password = None,
    include_hidden: Annotated[
        bool,
        typer.Option(
            "--include-hidden",
            help="Also read hidden files and folders (.git, .venv, …), which are "
            "left out by default; run.json counts what was left out and why.",
        ),
    ] = False,
) -> None:
    """Parse, chunk and gate every file under CORPUS, with a progress bar and a summary.

    Documents that pass the quality gate go to chunks.jsonl; documents that fail it, files
    that fail to parse and files no parser reads go to quarantine.jsonl with every reason.
    Exit status 1 when the gate fails (more than max_failed_share of the documents failed).
    """
    if not corpus.exists():
        fail(f"{corpus}: no such file or folder")
    use_password(password)
    gate = load_gate(config, set_)
    chunker = make_chunker(
        ChunkConfig(
            strategy,
            tokenizer,
            max_tokens,
            min_tokens,
            overlap,
            fixed_size,
            fixed_overlap,
            context_share,
            parent_tokens,
            semantic_window,
            semantic_threshold,
            semantic_percentile,
            semantic_model,
        )
    )
    out.mkdir(parents=True, exist_ok=True)
    archived = archive_previous(out)
    if archived is not None:
        err.print(f"previous run moved to {archived}", highlight=False)
    started = datetime.now(UTC)
    clock = time.perf_counter()
    patterns = tuple(glob or ["*"])
    selection = Selection(patterns, exclude=(out.resolve(),), include_hidden=include_hidden)
    paths = discover(corpus, selection)
    with Router(out, gate) as router, progress_bar(len(paths)) as advance:
        files = run_corpus(corpus, router, chunker.config, workers or os.cpu_count() or 1, advance, paths)
    seconds = time.perf_counter() - clock
    chunk_sets = {p.NAME: chunker.chunk_set(f"{p.NAME} {p.VERSION}") for p in parsers()}
    record = {
        "parsegate": __version__,
        "started_at": started.isoformat(timespec="seconds"),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(seconds, 3),
        "corpus": str(corpus.resolve()),
        # One id for the run's whole configuration, and the id each format's chunks carry.
        "chunk_set": chunk_set_id(chunk_sets),
        "chunk_sets": chunk_sets,
        "glob": list(patterns),
        "left_out": selection.left_out,
        "config": {**chunker.config.__dict__, "tokenizer": chunker.counter.fingerprint},
    }
    finish(out, corpus, record, files, gate, seconds, allow_failures)


@app.command()
def gate(
    outdir: Annotated[Path, typer.Argument(help="The --out folder of an earlier 'parsegate run'.")],
    config: ConfigFile = None,
    set_: SetOpt = None,
    allow_failures: AllowFailures = False,
) -> None:
    """Re-evaluate an earlier run under other thresholds, without parsing anything again.

    Documents move between chunks.jsonl and quarantine.jsonl as the new verdicts say; the
    run's previous outputs move to OUTDIR/history/.
    """
    run_json = outdir / "run.json"
    if not run_json.is_file():
        fail(f"{outdir}: no run.json here; run 'parsegate run CORPUS --out {outdir}' first")
    previous = json.loads(run_json.read_text())
    if previous.get("schema") != RUN_SCHEMA:
        fail(f"{run_json}: not a {RUN_SCHEMA} file")
    gate_config = load_gate(config, set_)
    archived = archive_previous(outdir)
    assert archived is not None
    lines = read_chunk_lines(archived)
    files = [outcome_from_dict(f) for f in previous["files"]]
    with Router(outdir, gate_config) as router:
        for f in files:
            f.verdict, f.failed_checks = None, []
            router.route(f, lines.get(f.path, []))
    record = {k: v for k, v in previous.items() if k not in ("schema", "summary", "files", "gate")}
    record["regated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    err.print(f"previous outputs moved to {archived}", highlight=False)
    finish(
        outdir, Path(previous["corpus"]), record, files, gate_config, float(previous.get("seconds", 0)), allow_failures
    )


def finish(
    out: Path,
    corpus: Path,
    record: dict[str, Any],
    files: list[FileOutcome],
    gate_config: GateConfig,
    seconds: float,
    allow_failures: bool,
) -> None:
    summary = summarize(files)
    outcomes = [outcome_dict(f) for f in files]
    write_run(out, {**record, "gate": gate_config.to_dict(), "summary": summary, "files": outcomes})
    report = write_reports(out, outcomes, gate_config, record, corpus)
    print_summary(summary, files, seconds, err)
    for reason, count in sorted(record.get("left_out", {}).items()):
        err.print(f"left out on purpose: {count} files ({reason})", highlight=False, soft_wrap=True)
    print_report(report, err)
    err.print(f"wrote {out}/: chunks.jsonl quarantine.jsonl run.json report.json report.html", highlight=False)
    if report["verdict"] == "fail" and not allow_failures:
        raise typer.Exit(1)


@app.command()
def inspect(
    file: Annotated[Path, typer.Argument(help="A file in any supported format (see 'parsegate formats').")],
    max_tokens: MaxTokens = None,
    tokenizer: TokenizerOpt = DEFAULT_TOKENIZER,
    strategy: StrategyOpt = "structural",
    min_tokens: MinTokens = 0,
    overlap: Overlap = 0,
    context_share: ContextShare = 0.2,
    parent_tokens: ParentTokens = None,
    semantic_window: SemanticWindow = 3,
    semantic_threshold: SemanticThreshold = None,
    semantic_percentile: SemanticPercentile = 10.0,
    semantic_model: SemanticModel = "all-MiniLM-L6-v2",
    elements: Annotated[bool, typer.Option("--elements/--no-elements", help="Also list the parsed elements.")] = True,
    password: Password = None,
) -> None:
    """Show a document's elements and where the chunk boundaries fall, with token counts."""
    use_password(password)
    chunker = make_chunker(
        ChunkConfig(
            strategy,
            tokenizer,
            max_tokens,
            min_tokens,
            overlap,
            context_share=context_share,
            parent_tokens=parent_tokens,
            semantic_window=semantic_window,
            semantic_threshold=semantic_threshold,
            semantic_percentile=semantic_percentile,
            semantic_model=semantic_model,
        )
    )
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
    parents = {c.parent_id for c in chunks if c.parent_id}  # parent-child: their own budget
    for n, c in enumerate(chunks):
        if c.lines:
            where = f"lines {c.lines[0]}–{c.lines[1]}"
        else:
            where = f"pages {', '.join(map(str, c.pages))}" if c.pages else ""
        role = f"parent · {c.tokens}/{chunker.config.parent_tokens}" if c.id in parents else f"{c.tokens}/{budget}"
        console.rule(
            f"[bold]chunk {n + 1}/{len(chunks)}[/] · {role} tokens · {where} · "
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


app.add_typer(golden_app, name="golden")
app.command("eval")(eval_command)


def main() -> None:
    app()
