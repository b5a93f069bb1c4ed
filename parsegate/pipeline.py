"""Run a corpus: every file ends as chunks, skipped with a reason, or failed with a reason.

Files are processed in sorted order by a pool of worker processes (each loads the
tokenizer once); results stream back in order, so ``chunks.jsonl`` is the same
for the same corpus and configuration on any machine.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import orjson

from chunkers import ChunkConfig, Chunker
from parsegate.routing import Router
from parsers.model import ParseError
from parsers.registry import parse_file
from quality_gates.metrics import measure


@dataclass
class FileOutcome:
    path: str
    status: str  # chunked | skipped | failed
    format: str | None = None
    reason: str | None = None
    code: str | None = None
    chunks: int = 0
    max_tokens: int = 0
    source_chars: int = 0
    indexed_chars: int = 0
    warnings: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    facts: dict[str, Any] | None = None  # quality_gates.metrics.DocFacts, threshold-free
    verdict: str | None = None  # pass | fail, once gated
    failed_checks: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Selection:
    """Which files under a corpus a run reads, and what it leaves out on purpose (said in
    run.json, never silently): its own output folder, and hidden files and folders."""

    patterns: tuple[str, ...] = ("*",)
    exclude: tuple[Path, ...] = ()
    include_hidden: bool = False
    left_out: dict[str, int] = field(default_factory=dict)

    def wants(self, path: Path, root: Path) -> bool:
        if any(path == e or e in path.parents for e in self.exclude):
            self._count("output folder")
            return False
        if not self.include_hidden and any(part.startswith(".") for part in path.relative_to(root).parts):
            self._count("hidden (use --include-hidden)")
            return False
        return any(path.match(g) for g in self.patterns)

    def _count(self, reason: str) -> None:
        self.left_out[reason] = self.left_out.get(reason, 0) + 1


def discover(root: Path, selection: Selection | None = None) -> list[Path]:
    """Files under ``root`` the selection wants, in sorted order."""
    if root.is_file():
        return [root]
    selection = selection or Selection()
    root = root.resolve()
    # A broken symlink is listed too: it ends as a failure with its reason, not as nothing.
    found = (p for p in root.rglob("*") if p.is_file() or (p.is_symlink() and not p.exists()))
    return sorted(p for p in found if selection.wants(p, root))


def doc_id_for(path: Path, root: Path) -> str:
    if root.is_file():
        return path.name
    return path.relative_to(root.resolve()).as_posix()


def process(path: Path, root: Path, chunker: Chunker) -> tuple[FileOutcome, list[bytes]]:
    started = time.perf_counter()
    rel = doc_id_for(path, root)
    outcome = FileOutcome(path=rel, status="failed")
    lines: list[bytes] = []
    try:
        doc = parse_file(path, rel)  # reads the file once, and chooses its parser
        chunks = chunker.chunk(doc)
        outcome.status, outcome.format = "chunked", doc.format
        outcome.chunks = len(chunks)
        outcome.max_tokens = max((c.tokens for c in chunks), default=0)
        outcome.source_chars = len(doc.text)
        outcome.indexed_chars = sum(c.end - c.start for c in chunks)
        outcome.warnings = [w.to_dict() for w in doc.warnings]
        records = [c.to_dict() for c in chunks]
        # The gate reads the file again itself: its checks compare the chunks with the source,
        # not with what the parser made of it.
        facts = measure(
            doc, records, chunker.counter, chunker.max_tokens, path.read_bytes(), chunker.config.parent_tokens
        )
        outcome.facts = facts.to_dict()
        lines = [orjson.dumps(r) for r in records]
    except ParseError as exc:
        if exc.code == "unsupported":
            outcome.status = "skipped"  # no parser reads it: listed, not failed
        outcome.code, outcome.reason = exc.code, exc.message
    except OSError as exc:
        outcome.code, outcome.reason = "unreadable", exc.strerror or str(exc)
    except Exception as exc:  # one bad file must never take the corpus down
        outcome.code = "internal_error"
        last = traceback.extract_tb(exc.__traceback__)[-1]
        outcome.reason = f"{type(exc).__name__}: {exc} (at {Path(last.filename).name}:{last.lineno}; please report)"
    outcome.seconds = round(time.perf_counter() - started, 4)
    return outcome, lines


# -- worker processes -------------------------------------------------------------

_worker: Chunker | None = None


def init_worker(config: ChunkConfig) -> None:
    global _worker
    _worker = Chunker(config)


def work(args: tuple[Path, Path]) -> tuple[FileOutcome, list[bytes]]:
    assert _worker is not None
    return process(args[0], args[1], _worker)


def open_pool(config: ChunkConfig, workers: int) -> ProcessPoolExecutor:
    """Worker processes that each load the tokenizer once (spawned: no forked tokenizer state)."""
    ctx = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(workers, mp_context=ctx, initializer=init_worker, initargs=(config,))


def run_files(
    paths: list[Path],
    root: Path,
    config: ChunkConfig,
    workers: int,
    pool: ProcessPoolExecutor | None = None,
) -> Iterator[tuple[FileOutcome, list[bytes]]]:
    if pool is None and (workers <= 1 or len(paths) < 4):
        chunker = Chunker(config)
        for path in paths:
            yield process(path, root, chunker)
        return
    own = pool is None
    active = pool or open_pool(config, workers)
    try:
        # Largest files first, so one big file does not finish last on an otherwise idle pool;
        # results are still yielded in sorted order.
        futures = {p: active.submit(work, (p, root)) for p in sorted(paths, key=_size, reverse=True)}
        for path in paths:
            yield futures.pop(path).result()
    finally:
        if own:
            active.shutdown(cancel_futures=True)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# -- the run ----------------------------------------------------------------------


def summarize(files: list[FileOutcome]) -> dict[str, Any]:
    status = Tally(f.status for f in files)
    verdicts = Tally(f.verdict for f in files if f.verdict)
    source = sum(f.source_chars for f in files)
    indexed = sum(f.indexed_chars for f in files)
    warnings = Tally(w["code"] for f in files for w in f.warnings)
    return {
        "files": len(files),
        "chunked": status["chunked"],
        "skipped": status["skipped"],
        "failed": status["failed"],
        "gate_passed": verdicts["pass"],
        "gate_failed": verdicts["fail"],
        "chunks": sum(f.chunks for f in files),
        "largest_chunk_tokens": max((f.max_tokens for f in files), default=0),
        "source_chars": source,
        "indexed_chars": indexed,
        # Index overhead: characters embedded per source character (overlap raises it).
        "overhead": round(indexed / source, 4) if source else 0.0,
        "warnings": dict(sorted(warnings.items())),
        "by_format": dict(sorted(Tally(f.format or "-" for f in files if f.status == "chunked").items())),
    }


def run_corpus(
    root: Path,
    router: Router,
    config: ChunkConfig,
    workers: int,
    on_file: Callable[[FileOutcome], None] | None = None,
    paths: list[Path] | None = None,
) -> list[FileOutcome]:
    files: list[FileOutcome] = []
    for outcome, lines in run_files(discover(root) if paths is None else paths, root, config, workers):
        router.route(outcome, lines)
        files.append(outcome)
        if on_file is not None:
            on_file(outcome)
    return files


def outcome_dict(outcome: FileOutcome) -> dict[str, Any]:
    return asdict(outcome)


def outcome_from_dict(data: dict[str, Any]) -> FileOutcome:
    """A file's outcome from run.json, written by this or an older parsegate (fields this
    version does not know are ignored)."""
    known = {f.name for f in fields(FileOutcome)}
    return FileOutcome(**{k: v for k, v in data.items() if k in known})
