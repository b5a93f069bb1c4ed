"""One document, start to end: read, parse, chunk and measure it (``process``), and what a run
records about it (``FileOutcome``). This is the function the worker processes run for each
document; ``parsegate.runner.process`` runs a corpus through them, and ``summarize`` adds a run up.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter as Tally
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import orjson

from parsegate.chunkers import Chunker
from parsegate.parsers.model import ParseError, content_version
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.registry import parse_data, read_regular_file
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.sample import FULL, GateSample


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
    facts: dict[str, Any] | None = None  # quality_gates.facts.DocFacts, threshold-free
    verdict: str | None = None  # pass | fail, once gated
    failed_checks: list[dict[str, Any]] = field(default_factory=list)
    version: str | None = None  # sha256 of the bytes the worker read (the store files the outcome under it)


def process(
    path: Path,
    doc_id: str,
    chunker: Chunker,
    options: ParseOptions = DEFAULTS,
    sample: GateSample = FULL,
    member: str | None = None,
) -> tuple[FileOutcome, list[bytes]]:
    """The parser and the gate's PDF reference read the file under the same ``options``; the
    gate takes its expensive references when ``sample`` holds the document. ``member``: an
    attachment of the mail at ``path``, parsed by its own name (parsegate/runner/members.py);
    the outcome's version stays the mail's (the bytes read, which the store hashed)."""
    started = time.perf_counter()
    outcome = FileOutcome(path=doc_id, status="failed")
    lines: list[bytes] = []
    try:
        # Read once: the parser and the gate see the same bytes, and the store files the outcome
        # under their hash. The listing resolved links: a link here was swapped in since.
        data = read_regular_file(path, follow_symlinks=False)
        outcome.version = content_version(data)
        if member is not None:
            from parsegate.parsers.mail import attachment

            name, data = attachment(data, path.suffix, member)
            path = Path(name)
        doc = parse_data(data, path, doc_id, options)
        chunks = chunker.chunk(doc)
        outcome.status, outcome.format = "chunked", doc.format
        outcome.chunks = len(chunks)
        outcome.max_tokens = max((c.tokens for c in chunks), default=0)
        outcome.source_chars = len(doc.text)
        outcome.indexed_chars = sum(c.end - c.start for c in chunks)
        outcome.warnings = [w.to_dict() for w in doc.warnings]
        # The gate reads the source itself: its checks compare the chunks with the file's bytes,
        # not with what the parser made of them.
        outcome.facts = measure(
            doc,
            chunks,
            chunker.counter,
            chunker.max_tokens,
            data,
            chunker.config.parent_tokens,
            options.password,
            sample.sampled(doc_id),
        ).to_dict()
        lines = [orjson.dumps(c.to_dict()) for c in chunks]
    except ParseError as exc:
        outcome.code, outcome.reason = exc.code, exc.message
    except MemoryError:
        outcome.code, outcome.reason = "memory", "over the memory limit"
    except RecursionError as exc:
        outcome.code, outcome.reason = "too_deep", f"nested too deeply to parse ({_where(exc)})"
    except OSError as exc:
        outcome.code, outcome.reason = "unreadable", exc.strerror or str(exc)
    except Exception as exc:  # one bad file must never take the corpus down
        outcome.code = "internal_error"
        outcome.reason = f"{type(exc).__name__}: {exc} ({_where(exc)}; please report)"
    if outcome.code is not None:  # whatever was done before the failure is not the outcome
        outcome.status = "skipped" if outcome.code == "unsupported" else "failed"  # unsupported: listed, not failed
        outcome.format, outcome.facts, lines = None, None, []
    outcome.seconds = round(time.perf_counter() - started, 4)
    return outcome, lines


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "at an unknown place"
    last = frames[-1]
    return f"at {Path(last.filename).name}:{last.lineno}"


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
        "failed_by_code": dict(sorted(Tally(f.code or "-" for f in files if f.status == "failed").items())),
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


def outcome_dict(outcome: FileOutcome) -> dict[str, Any]:
    # Shallow: asdict deep-copied every document's facts, twice per document, which was most of
    # an incremental re-run's time (the dict is serialized, never changed).
    return {f.name: getattr(outcome, f.name) for f in _FIELDS}


_FIELDS = fields(FileOutcome)


def outcome_from_dict(data: dict[str, Any]) -> FileOutcome:
    """A file's outcome from run.json, written by this or an older parsegate (fields this
    version does not know are ignored)."""
    known = {f.name for f in fields(FileOutcome)}
    return FileOutcome(**{k: v for k, v in data.items() if k in known})
