"""The ``parsegate`` command line: parse, chunk, run, gate, inspect."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import orjson
import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from chunkers import ChunkConfig
from chunkers.budget import DEFAULT_TOKENIZER
from parsegate.chunkstore.commands import diff_command, export_command, retire_command, store_app
from parsegate.cli_run import finish, hold, run
from parsegate.evaluation.commands import eval_command
from parsegate.golden.commands import golden_app
from parsegate.options import (
    AllowFailures,
    ConfigFile,
    ContextShare,
    DocId,
    FixedOverlap,
    FixedSize,
    MaxTokens,
    MinTokens,
    Overlap,
    Password,
    Root,
    SetOpt,
    TokenizerOpt,
    err,
    fail,
    file_doc_id,
    load_gate,
    make_chunker,
    use_password,
)
from parsegate.pipeline import outcome_from_dict
from parsegate.routing import Router
from parsegate.store import RUN_SCHEMA, archive_previous, read_chunk_lines
from parsegate.strategy_options import (
    ParentTokens,
    SemanticModel,
    SemanticPercentile,
    SemanticThreshold,
    SemanticWindow,
    StrategyOpt,
)
from parsers.model import Document, ParseError
from parsers.registry import parse_file, supported_suffixes

app = typer.Typer(
    help="Structure-aware parsing and chunking for retrieval ingestion: every chunk is an exact, "
    "addressable slice of its source, within a real token budget.",
    no_args_is_help=True,
    add_completion=False,
)


def load(path: Path, doc_id: str | None = None, root: Path | None = None) -> Document:
    if not path.exists():
        fail(f"{path}: no such file")
    if path.is_dir():
        fail(f"{path}: is a directory (use 'parsegate run {path} --out OUTDIR')")
    try:
        return parse_file(path, file_doc_id(path, doc_id, root))
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
    doc_id: DocId = None,
    root: Root = None,
) -> None:
    """Print a document's elements as JSONL, in reading order, with exact offsets."""
    use_password(password)
    doc = load(file, doc_id, root)
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
    doc_id: DocId = None,
    root: Root = None,
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
            parent_tokens=parent_tokens,
            semantic_window=semantic_window,
            semantic_threshold=semantic_threshold,
            semantic_percentile=semantic_percentile,
            semantic_model=semantic_model,
        )
    )
    doc = load(file, doc_id, root)
    print_warnings(doc)
    try:
        chunks = chunker.chunk(doc)
    except ValueError as exc:
        fail(str(exc))
    write_lines([orjson.dumps(c.to_dict()) for c in chunks], out)


app.command()(run)


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
    with hold(outdir, "gate"):
        archived, _ = archive_previous(outdir)
        assert archived is not None
        lines = read_chunk_lines(archived)
        files = [outcome_from_dict(f) for f in previous["files"]]
        with Router(outdir, gate_config) as router:
            for f in files:
                f.verdict, f.failed_checks = None, []
                router.route(f, lines.get(f.path, []))
            router.finish()
        record = {k: v for k, v in previous.items() if k not in ("schema", "summary", "files", "gate", "complete")}
        record["regated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        err.print(f"previous outputs moved to {archived}", highlight=False)
        root = Path(previous.get("root") or previous["corpus"])
        finish(outdir, root, record, files, gate_config, float(previous.get("seconds", 0)), allow_failures)
        router.discard_journal()


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
    doc_id: DocId = None,
    root: Root = None,
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
    doc = load(file, doc_id, root)
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
# The chunk store (parsegate/chunkstore): list, compare, export and retire chunk sets.
app.add_typer(store_app, name="store")
app.command("diff")(diff_command)
app.command("export")(export_command)
app.command("retire")(retire_command)


def main() -> None:
    app()
