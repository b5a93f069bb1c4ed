"""``parsegate run``: parse, chunk and gate a corpus in supervised workers, writing each document
as it finishes, and the run's report at the end."""

from __future__ import annotations

import gc
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer
from rich.text import Text

from parsegate import __version__
from parsegate.chunkers import ChunkConfig
from parsegate.chunkers.budget import DEFAULT_TOKENIZER
from parsegate.chunkers.chunk import chunk_set_id
from parsegate.cli.console import progress_bar
from parsegate.cli.engine_params import EngineName, EngineOpt, RayAddress
from parsegate.cli.params import (
    AllowFailures,
    ConfigFile,
    ContextShare,
    FixedOverlap,
    FixedSize,
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
from parsegate.engines.base import Engine
from parsegate.engines.local.supervisor import Limits, Supervisor, WorkersFailed
from parsegate.engines.ray import EngineError, RayEngine
from parsegate.engines.work import FileOutcome
from parsegate.parsers.registry import parsers
from parsegate.quality_gates.gate import GateConfig
from parsegate.runner.discover import Selection, discover
from parsegate.runner.finish import finish as finish  # `parsegate gate` imports it from here
from parsegate.runner.finish import finish_current
from parsegate.runner.outdir import PARTIAL_FILES, OutputBusy, OutputLock, archive_previous
from parsegate.runner.outputs import RunOutputFormat, choose, run_parquet
from parsegate.runner.process import choose_workers, run_corpus
from parsegate.runner.route import OutputError, Router
from parsegate.runner.stored import RunStore
from parsegate.store.current import fingerprint, up_to_date
from parsegate.store.schema import DEFAULT_STORE, StoreError
from parsegate.store.writer import in_scope

INTERRUPTED = 130  # the shell's code for a run stopped by Ctrl-C (SIGTERM is handled the same way)


@contextmanager
def hold(outdir: Path, command: str) -> Iterator[None]:
    """One run or gate at a time in OUTDIR; a second is refused with the holder's name."""
    try:
        with OutputLock(outdir, command):
            yield
    except OutputBusy as exc:
        fail(f"{exc}; wait for it to finish, or choose another --out")


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (what `timeout`, CI and service managers send) stops a run like Ctrl-C does."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def parse_limits(time_limit: list[str] | None, memory_limit: int) -> Limits:
    seconds, per_format = 120.0, []
    for item in time_limit or []:
        key, _, value = item.rpartition("=")
        try:
            number = float(value)
        except ValueError:
            fail(f"--time-limit {item}: expected SECONDS or FORMAT=SECONDS (e.g. 120, pdf=600)")
        if key:
            per_format.append((key.lower().lstrip("."), number))
        else:
            seconds = number
    return Limits(seconds, tuple(per_format), memory_limit)


def check_folders(corpus: Path, out: Path, root: Path | None) -> None:
    corpus_real, out_real = corpus.resolve(), out.resolve()
    if out_real == corpus_real or (corpus.is_dir() and out_real in corpus_real.parents):
        fail(f"--out {out} is the corpus folder or holds it: choose an output folder outside the corpus")
    if root is not None:
        root_real = root.resolve()
        if root_real != corpus_real and root_real not in corpus_real.parents:
            fail(f"--root {root} does not hold the corpus {corpus}")


def run(
    corpus: Annotated[Path, typer.Argument(help="A folder (searched recursively) or one file.")],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Output folder: chunks.jsonl (documents that passed the gate), quarantine.jsonl (everything "
            "else, with reasons), run.json, report.json, report.html. A previous run there is moved to "
            "OUTDIR/history/, never overwritten. While the run works, finished documents are in *.partial files.",
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
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-w",
            help="Worker processes. Default (0): as many as the corpus is worth, up to all cores "
            "(one for a handful of small files).",
        ),
    ] = 0,
    glob: Annotated[
        list[str] | None,
        typer.Option(
            "--glob",
            "-g",
            help="Only files whose name matches this pattern (repeatable), e.g. '*.md'. "
            "Default: every file; files no parser reads are quarantined as unsupported.",
        ),
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            "--exclude",
            "-x",
            help="Leave out paths matching this gitignore-style pattern, relative to the corpus folder "
            "(repeatable), e.g. '*.css', 'node_modules/', 'docs/old/'. The corpus's .gitignore files are "
            "honoured too, and __pycache__, version-control and virtualenv folders and binary files no "
            "parser claims are always left out; run.json counts each with its reason.",
        ),
    ] = None,
    no_gitignore: Annotated[
        bool, typer.Option("--no-gitignore", help="Read files that the corpus's .gitignore files ignore.")
    ] = False,
    config: ConfigFile = None,
    set_: SetOpt = None,
    allow_failures: AllowFailures = False,
    allow_empty: Annotated[
        bool, typer.Option("--allow-empty", help="A run with no document to read passes (by default it fails).")
    ] = False,
    password: Password = None,
    include_hidden: Annotated[
        bool,
        typer.Option(
            "--include-hidden",
            help="Also read hidden files and folders (.git, .venv, …), which are "
            "left out by default; run.json counts what was left out and why.",
        ),
    ] = False,
    follow_symlinks: Annotated[
        bool,
        typer.Option(
            "--follow-symlinks",
            help="Follow symlinks whose target lies outside the corpus (by default they are left out and counted).",
        ),
    ] = False,
    root: Root = None,
    time_limit: Annotated[
        list[str] | None,
        typer.Option(
            "--time-limit",
            help="Wall-clock seconds per document (default 120), or FORMAT=SECONDS for one format: a suffix "
            "(html, pdf, docx, md…) or a parser (office, pdf, markdown, text, code). Repeatable. A document "
            "over its limit is stopped (its worker killed) and fails as 'timeout'. 0: no limit.",
        ),
    ] = None,
    memory_limit: Annotated[
        int,
        typer.Option(
            "--memory-limit",
            help="Address space per worker process in MB (RLIMIT_AS; default 2048; 0: no limit). A document "
            "that needs more fails as 'memory'.",
        ),
    ] = 2048,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            help="The chunk store (SQLite) the run records into and reuses from: a file whose content "
            "hash the same configuration has read is not parsed again. Default: .parsegate/store.sqlite "
            "beside OUTDIR.",
        ),
    ] = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Record nothing, reuse nothing: parse every file.")
    ] = False,
    engine: EngineOpt = EngineName.local,
    ray_address: RayAddress = None,
    output_format: RunOutputFormat = "jsonl",
) -> None:
    """Parse, chunk and gate every file under CORPUS, with a progress bar and a summary.

    Documents that pass the quality gate go to chunks.jsonl; documents that fail it, files
    that fail to parse and files no parser reads go to quarantine.jsonl with every reason.
    Exit status 1 when the gate fails (more than max_failed_share of the documents failed, or
    no document at all), 2 for a usage or output error, 130 when interrupted (Ctrl-C, SIGTERM).
    """
    options = dict(locals())  # the parameters only: chunk_config takes ChunkConfig's by name
    engine_name = EngineName(engine).value
    if not corpus.exists():
        fail(f"{corpus}: no such file or folder")
    check_folders(corpus, out, root)
    try:
        output_format = choose(output_format, None)
    except (ValueError, ImportError) as exc:
        fail(str(exc))
    use_password(password)
    gate = load_gate(config, set_)
    chunker = make_chunker(chunk_config(options))
    limits = parse_limits(time_limit, memory_limit)
    out.mkdir(parents=True, exist_ok=True)
    doc_root = (root or (corpus.parent if corpus.is_file() else corpus)).resolve()
    chunk_sets = {p.NAME: chunker.chunk_set(f"{p.NAME} {p.VERSION}") for p in parsers()}
    config_record = {**chunker.config.__dict__, "tokenizer": chunker.counter.fingerprint}
    store_path = None if no_store else (store or out.parent / DEFAULT_STORE)
    # What the imports and the set-up made outlives the run: out of the collector's way, whose full
    # passes over it were about 4% of a re-run of 2,000 stored files (the run keeps every outcome).
    gc.freeze()
    try:
        with (
            hold(out, "run"),
            sigterm_as_interrupt(),
            _open_store(store_path, chunk_sets, config_record, doc_root) as run_store,
            _engine(engine_name, chunker.config, limits, workers, ray_address) as supervisor,
        ):
            if run_store is None:
                supervisor.start(1)  # it imports while the corpus is listed
            started = datetime.now(UTC)
            clock = time.perf_counter()
            patterns = tuple(glob or ["*"])
            outputs = (out.resolve(), *(() if store_path is None else (store_path.parent.resolve(),)))
            selection = Selection(
                patterns,
                outputs,
                include_hidden,
                follow_symlinks,
                excludes=tuple(exclude or ()),
                gitignore=not no_gitignore,
            )
            sources = discover(corpus, selection, root)
            # With a store, only the files it does not hold are worth workers.
            to_parse = sources if run_store is None else run_store.plan(sources)
            if engine_name == "local":
                supervisor.size = choose_workers(workers, to_parse)
            record: dict[str, Any] = {
                "parsegate": __version__,
                "started_at": started.isoformat(timespec="seconds"),
                "corpus": str(corpus.resolve()),
                "root": str(doc_root),
                # One id for the run's whole configuration, and the id each format's chunks carry.
                "chunk_set": chunk_set_id(chunk_sets),
                "chunk_sets": chunk_sets,
                "glob": list(patterns),
                "exclude": list(exclude or []),
                "gitignore": not no_gitignore,
                "config": config_record,
                "limits": {"seconds": limits.seconds, "per_format": dict(limits.per_format), "memory_mb": memory_limit},
                "workers": supervisor.size,
                "engine": engine_name,
                "allow_empty": allow_empty,
                "output_format": output_format,
            }
            previous = None
            if run_store is not None and not to_parse:
                previous = _current(out, record, selection, gate, run_store.documents())
            if previous is None:
                _archive(out)
                with Router(out, gate, record) as router:
                    files = _run(sources, router, supervisor, out, run_store)
            else:  # outputs up to date: nothing to route, gate or render again
                files = run_store.reuse_recorded(previous["files"]) if run_store is not None else []
            seconds = time.perf_counter() - clock
            record["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
            record["seconds"] = round(seconds, 3)
            record["left_out"] = selection.left_out
            record["followed_symlinks"] = selection.followed_symlinks
            record["workers_replaced"] = supervisor.replaced
            if previous is not None and run_store is not None:
                _store_finish(run_store, record, corpus, doc_root, patterns)
                finish_current(out, record, previous, files, gate, seconds, allow_failures)
                return
            _finish_outputs(router, out)
            if output_format == "parquet":
                write_run_parquet(out)
            outputs_of = None
            if run_store is not None:
                _store_finish(run_store, record, corpus, doc_root, patterns)
                documents = run_store.documents()
                outputs_of = None if documents is None else fingerprint(record, gate.to_dict(), documents)
            pages = None if run_store is None else run_store.pages()
            try:
                finish(out, doc_root, record, files, gate, seconds, allow_failures, pages, router.gated, outputs_of)
            except typer.Exit:  # run.json is written, the gate failed: the run is complete all the same
                router.discard_journal()
                raise
            router.discard_journal()
    except KeyboardInterrupt:
        fail("interrupted before any document was read; nothing was written", INTERRUPTED)
    finally:
        gc.unfreeze()  # a caller in the same process (tests, the Python API) collects as before


def _archive(out: Path) -> None:
    archived, kind = archive_previous(out)
    if archived is not None:
        what = "previous run" if kind == "complete" else "an interrupted run's partial output"
        err.print(Text(f"{what} moved to {archived}"), highlight=False)


def _current(
    out: Path,
    record: dict[str, Any],
    selection: Selection,
    gate: GateConfig,
    documents: list[tuple[str, str, str]] | None,
) -> dict[str, Any] | None:
    """The previous run.json when OUTDIR already holds what this run would write (chunkstore.current)."""
    if documents is None:
        return None
    settings = {**record, "left_out": selection.left_out, "followed_symlinks": selection.followed_symlinks}
    return up_to_date(out, fingerprint(settings, gate.to_dict(), documents), PARTIAL_FILES)


def _store_finish(
    run_store: RunStore, record: dict[str, Any], corpus: Path, root: Path, patterns: tuple[str, ...]
) -> None:
    try:
        run_store.finish(in_scope(corpus.resolve(), root, patterns))
    except StoreError as exc:
        fail(str(exc))
    record["store"] = {"path": str(run_store.path.resolve()), **run_store.counts}


@contextmanager
def _engine(
    name: str, config: ChunkConfig, limits: Limits, workers: int, address: str | None
) -> Iterator[Supervisor | RayEngine]:
    """The local supervisor, or Ray (started or reached before any work, with a clear error)."""
    if name == "local":
        with Supervisor(config, limits, workers or 1) as supervisor:
            yield supervisor
        return
    try:
        ray_engine = RayEngine(config, limits, workers, address).__enter__()
    except EngineError as exc:
        fail(str(exc))
    try:
        yield ray_engine
    finally:
        ray_engine.close()


@contextmanager
def _open_store(
    path: Path | None, chunk_sets: dict[str, str], config: dict[str, Any], doc_root: Path
) -> Iterator[RunStore | None]:
    """The run's store, locked and checked before any work (or None with --no-store)."""
    if path is None:
        yield None
        return
    versions = {p.NAME: p.VERSION for p in parsers()}
    settings = {"chunk_sets": chunk_sets, "parsers": versions, "config": config, "parsegate": __version__}
    try:
        run_store = RunStore(path, chunk_set_id(chunk_sets), settings, str(doc_root))
        run_store.__enter__()
    except StoreError as exc:
        fail(f"{exc}; or run with --no-store")
    try:
        yield run_store
    finally:
        run_store.__exit__()


def _run(
    sources: list[Any], router: Router, supervisor: Engine, out: Path, run_store: RunStore | None
) -> list[FileOutcome]:
    try:
        with progress_bar(len(sources), err) as advance:
            if run_store is not None:
                return run_store.run(router, supervisor, advance)
            return run_corpus(sources, router, supervisor, advance)
    except KeyboardInterrupt:
        supervisor.close()
        router.close()
        fail(
            f"interrupted: {router.documents} of {len(sources)} documents finished; they are in "
            f"{out}/*.partial (complete documents only, listed in {out}/run.jsonl.partial). "
            "This is not a finished run: run again to complete it.",
            INTERRUPTED,
        )
    except OutputError as exc:
        supervisor.close()
        router.close()
        fail(f"{exc.strerror}. The {router.documents} documents finished are kept in {out}/*.partial.")
    except WorkersFailed as exc:
        fail(str(exc))
    except StoreError as exc:
        supervisor.close()
        router.close()
        fail(f"{exc}. The documents finished are kept in {out}/*.partial.")


def write_run_parquet(out: Path) -> None:
    """OUTDIR/chunks.parquet beside chunks.jsonl (run and gate with --output-format parquet)."""
    from parsegate.errors import MissingExtra

    try:
        run_parquet(out)
    except MissingExtra as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}/chunks.parquet: {exc.strerror or exc}")


def _finish_outputs(router: Router, out: Path) -> None:
    try:
        router.finish()
    except OutputError as exc:
        fail(f"{exc.strerror}. The documents finished are kept in {out}/*.partial.")
