"""The ``parsegate`` command line: parse, chunk, run, gate, inspect."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from parsegate import __version__
from parsegate.api import parse as parse_source
from parsegate.cli.lazy import LazyGroup
from parsegate.cli.params import (
    DEFAULT_TOKENIZER,
    EXIT_INTERNAL,
    AllowFailures,
    AllowOverModelMax,
    ConfigFile,
    ContextShare,
    DocId,
    FixedOverlap,
    FixedSize,
    Format,
    MaxTokens,
    MinTokens,
    Overlap,
    Password,
    Root,
    SetOpt,
    TokenizerOpt,
    chunk_config,
    err,
    fail,
    file_doc_id,
    load_gate,
    make_chunker,
    use_password,
)
from parsegate.cli.strategy_params import (
    ParentTokens,
    SemanticModel,
    SemanticPercentile,
    SemanticThreshold,
    SemanticWindow,
    StrategyOpt,
)
from parsegate.log import log, use_cli
from parsegate.runner.outputs import OutputFormat

if TYPE_CHECKING:
    from parsegate.parsers.model import Document

# Start-up is part of the interface (`parsegate --help` in a blink): this module imports typer and
# the option definitions only. Each command imports what it needs; run, golden, eval and the
# store's commands live in modules imported only when they run (parsegate/cli/lazy.py).
app = typer.Typer(
    help="Structure-aware parsing and chunking for retrieval ingestion: every chunk is an exact, "
    "addressable slice of its source, within a real token budget.",
    no_args_is_help=True,
    add_completion=False,
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    # Help is plain text: option help such as "table [gate]" is not rich markup.
    rich_markup_mode=None,
)
STDIO = Path("-")


def show_version(value: bool) -> None:
    if value:
        print(f"parsegate {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit."),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Errors only: no warnings, progress or summary.")
    ] = False,
    verbose: Annotated[
        int, typer.Option("--verbose", "-v", count=True, help="More detail (tracebacks of internal errors).")
    ] = 0,
) -> None:
    """Options for every command; give them before the command: parsegate -q run …"""
    err.quiet = quiet
    use_cli(err, -1 if quiet else min(verbose, 1))


def load(path: Path, doc_id: str | None = None, root: Path | None = None, fmt: str | None = None) -> Document:
    """One document from a file, or from stdin when the path is '-'."""
    from parsegate.parsers.model import ParseError

    source: Path | bytes = path
    if path == STDIO:
        source, ident = sys.stdin.buffer.read(), doc_id or "stdin"
    elif not path.exists():
        fail(f"{path}: no such file")
    elif path.is_dir():
        fail(f"{path}: is a directory (use 'parsegate run {path} --out OUTDIR')")
    else:
        ident = file_doc_id(path, doc_id, root)
    try:
        return parse_source(source, format=fmt, doc_id=ident)
    except ParseError as exc:
        fail(f"{path}: {exc.message} [{exc.code}]")


def write_records(lines: list[bytes], out: Path | None, output_format: str) -> None:
    """Chunk records as JSONL, or as Parquet (a file, or stdout with '-' or no --out)."""
    from parsegate.errors import MissingExtra
    from parsegate.runner.outputs import parquet_bytes, write_parquet

    if output_format == "jsonl":
        write_lines(lines, out)
        return
    try:
        if out is None or out == STDIO:
            sys.stdout.buffer.write(parquet_bytes(lines))
            sys.stdout.flush()
            return
        out.parent.mkdir(parents=True, exist_ok=True)
        write_parquet(lines, out)
    except MissingExtra as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    log.info("wrote %d records to %s", len(lines), out)


def write_lines(lines: list[bytes], out: Path | None) -> None:
    data = b"".join(line + b"\n" for line in lines)
    if out is None or out == STDIO:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    log.info("wrote %d lines to %s", len(lines), out)


# -- commands --------------------------------------------------------------------------


@app.command()
def parse(
    file: Annotated[Path, typer.Argument(help="A file in any supported format (see 'parsegate formats'); '-': stdin.")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write JSONL here ('-' or none: stdout).")] = None,
    password: Password = None,
    doc_id: DocId = None,
    root: Root = None,
    fmt: Format = None,
) -> None:
    """Print a document's elements as JSONL, in reading order, with exact offsets."""
    import orjson

    use_password(password)
    doc = load(file, doc_id, root, fmt)
    write_lines([orjson.dumps(e.to_dict(doc.text)) for e in doc.elements], out)


@app.command()
def chunk(
    file: Annotated[Path, typer.Argument(help="A file in any supported format (see 'parsegate formats'); '-': stdin.")],
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write JSONL here ('-' or none: stdout).")] = None,
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
    allow_over_model_max: AllowOverModelMax = False,
    password: Password = None,
    doc_id: DocId = None,
    root: Root = None,
    fmt: Format = None,
    output_format: OutputFormat = None,
) -> None:
    """Chunk one file into parsegate.chunk/1 records (JSONL, or Parquet with --output-format parquet)."""
    options = dict(locals())  # the parameters only: chunk_config takes ChunkConfig's by name
    import orjson

    from parsegate.runner.outputs import choose

    try:
        kind = choose(output_format, out)
    except (ValueError, ImportError) as exc:
        fail(str(exc))
    use_password(password)
    chunker = make_chunker(
        chunk_config(options),
        allow_over_model_max,
    )
    doc = load(file, doc_id, root, fmt)
    try:
        chunks = chunker.chunk(doc)
    except ValueError as exc:
        fail(str(exc))
    write_records([orjson.dumps(c.to_dict()) for c in chunks], out, kind)


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
    import json
    from datetime import UTC, datetime

    from rich.text import Text

    from parsegate.cli.commands.run import finish, hold, write_run_parquet
    from parsegate.engines.work import outcome_from_dict
    from parsegate.runner.outdir import RUN_SCHEMA, archive_previous, read_chunk_lines
    from parsegate.runner.route import Router

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
        err.print(Text(f"previous outputs moved to {archived}"), highlight=False)
        root = Path(previous.get("root") or previous["corpus"])
        if previous.get("output_format") == "parquet":
            write_run_parquet(outdir)
        try:
            finish(outdir, root, record, files, gate_config, float(previous.get("seconds", 0)), allow_failures)
        finally:  # run.json is written: the outputs are complete, whatever the verdict
            router.discard_journal()


@app.command()
def inspect(
    file: Annotated[Path, typer.Argument(help="A file in any supported format (see 'parsegate formats'); '-': stdin.")],
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
    allow_over_model_max: AllowOverModelMax = False,
    password: Password = None,
    doc_id: DocId = None,
    root: Root = None,
    fmt: Format = None,
) -> None:
    """Show a document's elements and where the chunk boundaries fall, with token counts."""
    options = dict(locals())  # the parameters only: chunk_config takes ChunkConfig's by name
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    use_password(password)
    chunker = make_chunker(
        chunk_config(options),
        allow_over_model_max,
    )
    doc = load(file, doc_id, root, fmt)
    console = Console()
    if elements:
        # Everything from the document (ids, section titles, text) goes in as Text: `[/]` or `a[i]`
        # in a document is shown as written, never read as rich markup.
        table = Table(title=Text(f"{doc.doc_id} · {doc.format} · {len(doc.elements)} elements"), title_justify="left")
        for col in ("id", "kind", "lines", "section", "text"):
            table.add_column(col, overflow="ellipsis", no_wrap=True, max_width=60 if col == "text" else None)
        for e in doc.elements:
            lines = f"{e.lines[0]}–{e.lines[1]}" if e.lines else ""
            preview = doc.text[e.start : e.end].replace("\n", " ⏎ ")[:80]
            table.add_row(
                Text(e.id),
                Text(("  " * (e.level or 0 if e.kind == "list_item" else 0)) + e.kind),
                lines,
                Text(" > ".join(e.section_path)),
                Text(preview),
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
            Text(f"chunk {n + 1}/{len(chunks)}", style="bold")
            + Text(
                f" · {role} tokens · {where} · {' > '.join(c.section_path) or '(no section)'} · {', '.join(c.kinds)}"
            ),
            align="left",
        )
        prefix = c.embed_text[: len(c.embed_text) - len(c.text)]
        if prefix:
            console.print(Text(prefix.rstrip(), style="italic cyan"))
        console.print(Text(c.text, style="" if n % 2 == 0 else "bright_black"))
    console.rule(Text(f"{len(chunks)} chunks · budget {budget} tokens ({chunker.counter.name})"), align="left")


@app.command()
def formats() -> None:
    """List the file suffixes parsegate can parse."""
    from parsegate.parsers.registry import supported_suffixes

    for suffix in supported_suffixes():
        print(suffix)


# run, golden, eval and the chunk store's commands (store, diff, export, retire): lazy_commands.LAZY.


def main() -> None:
    """The console script. Exit status: 0 ok, 1 gate (or golden check) failed, 2 usage or input
    error, 3 internal error (a bug: one line here, the traceback with -v), 130 interrupted."""
    try:
        app()
    except Exception as exc:  # anything that escapes a command is parsegate's bug, not the user's input
        from rich.text import Text

        log.debug("internal error", exc_info=True)
        quiet, err.quiet = err.quiet, False
        err.print(
            Text(f"parsegate: internal error: {type(exc).__name__}: {exc}", style="bold red")
            + Text(" (a bug; -v shows the traceback)" if not log.isEnabledFor(logging.DEBUG) else ""),
            soft_wrap=True,
        )
        err.quiet = quiet
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":
    main()
