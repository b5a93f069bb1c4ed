"""``run_corpus``: parse, chunk and gate a corpus in supervised workers, writing each document as it
finishes, and the run's report at the end. The one orchestrator: the command line and
``parsegate.run()`` both call it with a ``RunSettings``. It raises typed errors
(``parsegate.errors``) and never prints or exits; what it has to say along the way it logs
(``logging.getLogger("parsegate")``), and it reports progress through the callback it is given."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from parsegate.chunkers import Chunker
from parsegate.chunkers.ids import chunk_set_id
from parsegate.engines.base import Engine
from parsegate.engines.local.supervisor import Supervisor, WorkersFailed
from parsegate.engines.work import FileOutcome
from parsegate.errors import CommandError, MissingExtra, RunInterrupted
from parsegate.log import log
from parsegate.parsers.options import ParseOptions
from parsegate.parsers.registry import parsers
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.runner.chunking import make_chunker
from parsegate.runner.discover import IgnoreTooLarge, Selection, discover
from parsegate.runner.finish import Finished, finish, finish_current
from parsegate.runner.members import with_attachments
from parsegate.runner.outdir import PARTIAL_FILES, archive_previous
from parsegate.runner.outputs import run_parquet
from parsegate.runner.process import choose_workers, process_corpus
from parsegate.runner.route import OutputError, Router
from parsegate.runner.settings import RunSettings
from parsegate.runner.stored import RunStore
from parsegate.store.current import fingerprint, settings_hash, up_to_date
from parsegate.store.lock import OutputBusy, OutputLock
from parsegate.store.schema import StoreError
from parsegate.store.writer import in_scope
from parsegate.version import __version__


class Progress(Protocol):
    """What a caller sees of a run while it works (the command line draws a progress bar)."""

    def start(self, total: int) -> None: ...

    def advance(self, outcome: FileOutcome) -> None: ...


@dataclass(frozen=True)
class RunResult:
    """What a run left in ``out``: the gate's verdict, the run's accounting (``summary``: files,
    chunked, skipped, failed, chunks…), what was left out and why, and the output files. ``record``
    is run.json, ``report`` report.json; ``files`` every file's outcome in sorted order."""

    exit_code: int  # as the command line's: 0 passed (or allowed to fail), 1 the gate failed
    verdict: str  # "pass" or "fail"
    summary: dict[str, Any]
    left_out: dict[str, int]
    out: Path
    record: dict[str, Any]
    report: dict[str, Any]
    files: list[FileOutcome]
    seconds: float
    empty: bool  # no document was read (and that was not allowed)
    wrote: bool  # False: the outputs were up to date, only run.json was written again

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    @property
    def chunks_path(self) -> Path:
        return self.out / "chunks.jsonl"

    @property
    def quarantine_path(self) -> Path:
        return self.out / "quarantine.jsonl"


def _parser_name(parser: Any, options: ParseOptions) -> str:
    """``Document.parser`` as the parser names its documents under ``options`` (the OCR set-up is
    part of the PDF and image parsers' names, and of the office parser's when it reads images by
    OCR: parsers/ocr)."""
    from parsegate.parsers import ocr

    return ocr.parser_name(parser.NAME, parser.VERSION, options)


def run_chunk_set(chunk_sets: dict[str, str]) -> str:
    """The run's one id: every format's chunk set, and the version of the content detection that
    chooses the parser of a file with no suffix (or one no parser claims), so that a store made
    before that reading changed reads such files again."""
    from parsegate.parsers.detect import DETECT_VERSION

    return chunk_set_id({**chunk_sets, "detect": DETECT_VERSION})


def run_corpus(settings: RunSettings, progress: Progress | None = None) -> RunResult:
    """Every file under ``settings.corpus`` parsed, chunked and gated into ``settings.out``."""
    check_folders(settings)
    chunker = make_chunker(settings.chunking, settings.allow_over_model_max)
    if settings.output_format == "parquet":
        _require_parquet()
    out = settings.out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create --out {out}: {exc.strerror or exc}") from None
    chunk_sets = {p.NAME: chunker.chunk_set(_parser_name(p, settings.parsing)) for p in parsers()}
    config_record = {**chunker.config.__dict__, "tokenizer": chunker.counter.fingerprint}
    # What the imports and the set-up made outlives the run: out of the collector's way, whose full
    # passes over it were about 4% of a re-run of 2,000 stored files (the run keeps every outcome).
    gc.freeze()
    phase = ["start"]  # where an interruption found the run: what it says was kept
    try:
        with (
            hold(out, "run"),
            _open_store(settings, chunk_sets, config_record) as run_store,
            _engine(settings, chunker) as engine,
        ):
            return _run(settings, chunk_sets, config_record, run_store, engine, progress, phase)
    except KeyboardInterrupt:
        raise RunInterrupted(_interrupted(phase[0], out)) from None
    finally:
        gc.unfreeze()  # a caller in the same process (tests, the Python API) collects as before


def _run(
    settings: RunSettings,
    chunk_sets: dict[str, str],
    config_record: dict[str, Any],
    run_store: RunStore | None,
    engine: Engine,
    progress: Progress | None,
    phase: list[str],
) -> RunResult:
    out, gate = settings.out, settings.gate
    if run_store is None:
        engine.start(1)  # it imports while the corpus is listed
    started = datetime.now(UTC)
    clock = time.perf_counter()
    store_path = settings.store_path
    outputs = (out.resolve(), *(() if store_path is None else (store_path.parent.resolve(),)))
    selection = Selection(
        settings.glob,
        outputs,
        settings.include_hidden,
        settings.follow_symlinks,
        excludes=settings.exclude,
        gitignore=settings.gitignore,
    )
    try:
        sources = with_attachments(discover(settings.corpus, selection, settings.root), selection)
    except IgnoreTooLarge as exc:
        raise CommandError(str(exc)) from None
    # With a store, only the files it does not hold are worth workers.
    to_parse = sources if run_store is None else run_store.plan(sources)
    if settings.engine == "local":
        engine.size = choose_workers(settings.workers, to_parse)
    record = _record(settings, started, chunk_sets, config_record, engine.size)
    previous, why = None, None
    if run_store is not None and not to_parse:
        previous, why = _current(out, record, selection, gate, run_store.documents())
    elif run_store is not None:
        why = run_store.why_parsed()
    router: Router | None = None
    if previous is None:
        _archive(out)
        with Router(out, gate, record) as router:
            files = _route_all(sources, router, engine, out, run_store, progress)
    else:  # outputs up to date: nothing to route, gate or render again
        files = run_store.reuse_recorded(previous["files"]) if run_store is not None else []
    phase[0] = "finish"
    seconds = time.perf_counter() - clock
    record["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    record["seconds"] = round(seconds, 3)
    record["left_out"] = selection.left_out
    record["followed_symlinks"] = selection.followed_symlinks
    record["workers_replaced"] = engine.replaced
    if previous is not None and run_store is not None:
        _store_finish(run_store, record, settings, None)
        done = finish_current(out, record, previous, gate)
        return _result(settings, done, files, seconds)
    assert router is not None
    _finish_outputs(router, out)
    if settings.output_format == "parquet":
        write_run_parquet(out)
    outputs_of = None
    if run_store is not None:
        _store_finish(run_store, record, settings, why)
        documents = run_store.documents()
        outputs_of = None if documents is None else fingerprint(record, gate.to_dict(), documents)
    pages = None if run_store is None else run_store.pages()
    done = finish(
        out, settings.doc_root, record, files, gate, pages, router.gated, outputs_of, settings.parsing.password
    )
    router.discard_journal()  # run.json is written: the run is complete, whatever the verdict
    return _result(settings, done, files, seconds)


def _interrupted(phase: str, out: Path) -> str:
    if phase == "start":
        return "interrupted before any document was read; nothing was written"
    return (
        f"interrupted while the run's end was written: every document is in {out} (chunks.jsonl or "
        "quarantine.jsonl, or their .partial files), but run.json is not, so this is not a finished run: "
        "run again to complete it"
    )


def _result(settings: RunSettings, done: Finished, files: list[FileOutcome], seconds: float) -> RunResult:
    failed = done.report["verdict"] == "fail"
    return RunResult(
        exit_code=1 if failed and not settings.allow_failures else 0,
        verdict=done.report["verdict"],
        summary=done.record["summary"],
        left_out=done.record.get("left_out", {}),
        out=settings.out,
        record=done.record,
        report=done.report,
        files=files,
        seconds=seconds,
        empty=done.empty,
        wrote=done.wrote,
    )


def _record(
    settings: RunSettings,
    started: datetime,
    chunk_sets: dict[str, str],
    config_record: dict[str, Any],
    workers: int,
) -> dict[str, Any]:
    limits = settings.limits
    return {
        "parsegate": __version__,
        "started_at": started.isoformat(timespec="seconds"),
        "corpus": str(settings.corpus.resolve()),
        "root": str(settings.doc_root),
        # One id for the run's whole configuration, and the id each format's chunks carry.
        "chunk_set": run_chunk_set(chunk_sets),
        "chunk_sets": chunk_sets,
        "glob": list(settings.glob),
        "exclude": list(settings.exclude),
        "gitignore": settings.gitignore,
        "config": config_record,
        "limits": {"seconds": limits.seconds, "per_format": dict(limits.per_format), "memory_mb": limits.memory_mb},
        "workers": workers,
        "engine": settings.engine,
        "allow_empty": settings.allow_empty,
        "output_format": settings.output_format,
        # Only a sampled run says so: a full run's record (and so its outputs' fingerprint) is unchanged.
        **({} if settings.gate_sample.full else {"gate_sample": settings.gate_sample.to_dict()}),
    }


def check_folders(settings: RunSettings) -> None:
    """The corpus exists, OUTDIR is not inside it, --root holds it."""
    corpus, out, root = settings.corpus, settings.out, settings.root
    if not corpus.exists():
        raise CommandError(f"{corpus}: no such file or folder")
    corpus_real, out_real = corpus.resolve(), out.resolve()
    if out_real == corpus_real or (corpus.is_dir() and out_real in corpus_real.parents):
        raise CommandError(f"--out {out} is the corpus folder or holds it: choose an output folder outside the corpus")
    if root is not None:
        root_real = root.resolve()
        if root_real != corpus_real and root_real not in corpus_real.parents:
            raise CommandError(f"--root {root} does not hold the corpus {corpus}")


@contextmanager
def hold(outdir: Path, command: str) -> Iterator[None]:
    """One run or gate at a time in OUTDIR; a second is refused with the holder's name."""
    try:
        with OutputLock(outdir, command):
            yield
    except OutputBusy as exc:
        raise CommandError(f"{exc}; wait for it to finish, or choose another --out") from None
    except OSError as exc:  # /proc, a read-only folder: the lock file cannot be made
        if exc.filename is None or Path(exc.filename).parent != outdir:
            raise
        raise CommandError(f"cannot write in --out {outdir}: {exc.strerror or exc}") from None


def _archive(out: Path) -> None:
    archived, kind = archive_previous(out)
    if archived is not None:
        what = "previous run" if kind == "complete" else "an interrupted run's partial output"
        log.info("%s moved to %s", what, archived)


def _current(
    out: Path,
    record: dict[str, Any],
    selection: Selection,
    gate: GateConfig,
    documents: list[tuple[str, str, str]] | None,
) -> tuple[dict[str, Any] | None, str | None]:
    """The previous run.json when OUTDIR already holds what this run would write (store.current);
    else None and why the outputs are written again."""
    if documents is None:
        return None, "a document's outcome is not in the store"
    settings = {**record, "left_out": selection.left_out, "followed_symlinks": selection.followed_symlinks}
    thresholds = gate.to_dict()
    run_fingerprint = fingerprint(settings, thresholds, documents)
    return up_to_date(out, run_fingerprint, PARTIAL_FILES, settings_hash(settings, thresholds))


def _store_finish(run_store: RunStore, record: dict[str, Any], settings: RunSettings, why: str | None) -> None:
    """Record what the store did, and ``why`` a run with a store wrote its outputs again (None:
    they were up to date, and only run.json was written)."""
    try:
        run_store.finish(in_scope(settings.corpus.resolve(), settings.doc_root, settings.glob))
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    outputs = {"outputs": "up to date"} if why is None else {"outputs": "written", "written_because": why}
    record["store"] = {"path": str(run_store.path.resolve()), **run_store.counts, **outputs}


@contextmanager
def _engine(settings: RunSettings, chunker: Chunker) -> Iterator[Engine]:
    """The local supervisor, or Ray (started or reached before any work, with a clear error)."""
    if settings.engine == "local":
        with Supervisor(
            chunker.config, settings.limits, settings.workers or 1, settings.parsing, settings.gate_sample
        ) as supervisor:
            yield supervisor
        return
    from parsegate.engines.ray import EngineError, RayEngine

    try:
        ray_engine = RayEngine(
            chunker.config,
            settings.limits,
            settings.workers,
            settings.ray_address,
            settings.parsing,
            settings.gate_sample,
        ).__enter__()
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    try:
        yield ray_engine
    finally:
        ray_engine.close()


@contextmanager
def _open_store(settings: RunSettings, chunk_sets: dict[str, str], config: dict[str, Any]) -> Iterator[RunStore | None]:
    """The run's store, locked and checked before any work (or None without a store)."""
    path = settings.store_path
    if path is None:
        yield None
        return
    versions = {p.NAME: p.VERSION for p in parsers()}
    recorded = {"chunk_sets": chunk_sets, "parsers": versions, "config": config, "parsegate": __version__}
    try:
        run_store = RunStore(
            path, run_chunk_set(chunk_sets), recorded, str(settings.doc_root), settings.parsing, settings.gate_sample
        )
        run_store.__enter__()
    except StoreError as exc:
        raise CommandError(f"{exc}; or run with --no-store") from None
    try:
        yield run_store
    finally:
        run_store.__exit__()


def _route_all(
    sources: list[Any],
    router: Router,
    engine: Engine,
    out: Path,
    run_store: RunStore | None,
    progress: Progress | None,
) -> list[FileOutcome]:
    advance = None
    if progress is not None:
        progress.start(len(sources))
        advance = progress.advance
    try:
        if run_store is not None:
            return run_store.run(router, engine, advance)
        return process_corpus(sources, router, engine, advance)
    except KeyboardInterrupt:
        engine.close()
        router.close()
        raise RunInterrupted(
            f"interrupted: {router.documents} of {len(sources)} documents finished; they are in "
            f"{out}/*.partial (complete documents only, listed in {out}/run.jsonl.partial). "
            "This is not a finished run: run again to complete it."
        ) from None
    except OutputError as exc:
        engine.close()
        router.close()
        message = f"{exc.strerror}. The {router.documents} documents finished are kept in {out}/*.partial."
        raise CommandError(message) from None
    except WorkersFailed as exc:
        raise CommandError(str(exc)) from None
    except StoreError as exc:
        engine.close()
        router.close()
        raise CommandError(f"{exc}. The documents finished are kept in {out}/*.partial.") from None


def _require_parquet() -> None:
    from parsegate.errors import require

    try:
        require("pyarrow.parquet", "parquet")
    except MissingExtra as exc:
        raise CommandError(str(exc)) from None


def write_run_parquet(out: Path) -> None:
    """OUTDIR/chunks.parquet beside chunks.jsonl (run and gate with output_format parquet)."""
    try:
        run_parquet(out)
    except MissingExtra as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot write {out}/chunks.parquet: {exc.strerror or exc}") from None


def _finish_outputs(router: Router, out: Path) -> None:
    try:
        router.finish()
    except OutputError as exc:
        raise CommandError(f"{exc.strerror}. The documents finished are kept in {out}/*.partial.") from None
