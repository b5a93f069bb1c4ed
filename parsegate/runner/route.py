"""Gate each document and route it, as it finishes: its chunks to ``chunks.jsonl`` when it
passes, or the whole document to ``quarantine.jsonl`` with every failed check, its measured
value and its threshold. Files that failed to parse, or that no parser reads, are quarantined
with their reason too: nothing leaves a run silently.

Output survives a kill. While a run works, each document's lines are appended to
``chunks.jsonl.partial`` or ``quarantine.jsonl.partial`` in one write, and only then is a line
added to the journal ``run.jsonl.partial`` saying that the document is complete and where its
lines are: after a SIGKILL, every document the journal names has all its lines on disk (a
half-written tail is not named by it). A write that fails (disk full) is cut back to the last
complete document. ``finish`` writes ``chunks.jsonl`` and ``quarantine.jsonl`` in sorted
document order (a rename when the documents finished in that order, else a copy of each
document's byte range) and only then do the final names exist.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.quality_gates.verdict import Verdict, evaluate
from parsegate.runner.outdir import JOURNAL, OUTPUTS

if TYPE_CHECKING:
    from parsegate.engines.work import FileOutcome

QUARANTINE_SCHEMA = "parsegate.quarantine/1"
JOURNAL_SCHEMA = "parsegate.journal/1"
_FULL = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file size limit is reached",
}


class OutputError(OSError):
    """The output folder cannot take more (disk full, quota, file size limit) or cannot be written."""


class _Spool:
    """An append-only file written without a buffer, whose every write is whole lines: a write
    that fails (or is interrupted) is cut back to where it began."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file: BinaryIO = path.open("wb", buffering=0)
        self.size = 0

    def append(self, data: bytes) -> tuple[int, int]:
        start = self.size
        view = memoryview(data)
        done = 0
        try:
            while done < len(view):
                done += self.file.write(view[done:]) or 0
        except BaseException as exc:
            self.file.truncate(start)
            self.file.seek(start)
            if isinstance(exc, OSError):
                raise _output_error(exc, self.path) from None
            raise
        self.size += len(data)
        return start, len(data)

    def close(self) -> None:
        self.file.close()


def _output_error(exc: OSError, path: Path) -> OutputError:
    what = _FULL.get(exc.errno or 0, exc.strerror or str(exc))
    return OutputError(exc.errno or 0, f"cannot write {path}: {what} ({exc.strerror})")


class Router:
    def __init__(self, outdir: Path, gate: GateConfig, header: dict[str, Any] | None = None) -> None:
        self.outdir = outdir
        self.gate = gate
        self.spools = {name: _Spool(outdir / f"{name}.partial") for name in OUTPUTS}
        self.journal = _Spool(outdir / JOURNAL)
        self.places: dict[int, dict[str, tuple[int, int]]] = {}
        self.order: list[int] = []  # document indexes in the order they were written
        # Each gated document's facts and verdict, by doc id: the run's report reads them again.
        self.gated: dict[str, tuple[DocFacts, Verdict]] = {}
        self.journal.append(orjson.dumps({"schema": JOURNAL_SCHEMA, **(header or {})}) + b"\n")

    def __enter__(self) -> Router:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for spool in (*self.spools.values(), self.journal):
            spool.close()

    @property
    def documents(self) -> int:
        return len(self.order)

    def route(self, outcome: FileOutcome, lines: list[bytes], index: int | None = None) -> None:
        """Gate one document and write it out; ``index`` is its place in sorted order."""
        index = len(self.order) if index is None else index
        if outcome.status != "chunked" or outcome.facts is None:
            reason = "unsupported" if outcome.status == "skipped" else "parse_failed"
            written = {"quarantine.jsonl": self._quarantine(outcome, reason, [])}
        else:
            facts = DocFacts.from_dict(outcome.facts)
            verdict = evaluate(facts, self.gate.for_format(outcome.format or ""))
            self.gated[outcome.path] = (facts, verdict)
            outcome.verdict = "pass" if verdict.passed else "fail"
            outcome.failed_checks = verdict.to_dict()["failed_checks"]
            if verdict.passed:
                written = {"chunks.jsonl": self.spools["chunks.jsonl"].append(b"".join(line + b"\n" for line in lines))}
            else:
                chunks = [orjson.loads(line) for line in lines]
                written = {"quarantine.jsonl": self._quarantine(outcome, "gate_failed", chunks)}
        from parsegate.engines.work import outcome_dict

        entry = {"index": index, "at": written, "outcome": outcome_dict(outcome)}
        self.journal.append(orjson.dumps(entry) + b"\n")  # now the document is complete on disk
        self.places[index] = written
        self.order.append(index)

    def _quarantine(self, outcome: FileOutcome, reason: str, chunks: list[dict[str, Any]]) -> tuple[int, int]:
        record = {
            "schema": QUARANTINE_SCHEMA,
            "doc_id": outcome.path,
            "format": outcome.format,
            "reason": reason,
            "code": outcome.code,
            "message": outcome.reason,
            "failed_checks": outcome.failed_checks,
            "warnings": outcome.warnings,
            "chunks": chunks,
        }
        return self.spools["quarantine.jsonl"].append(orjson.dumps(record) + b"\n")

    def finish(self) -> None:
        """Write the final outputs in sorted document order; then the partial files go."""
        self.close()
        in_order = self.order == sorted(self.order)
        for name, spool in self.spools.items():
            final = self.outdir / name
            try:
                if in_order:
                    os.replace(spool.path, final)
                else:
                    self._sorted_copy(name, spool.path, final)
                    spool.path.unlink()
            except OSError as exc:
                raise _output_error(exc, final) from None

    def _sorted_copy(self, name: str, source: Path, final: Path) -> None:
        temporary = final.with_name(f".{final.name}.tmp")
        try:
            with source.open("rb") as src, temporary.open("wb") as dst:
                for index in sorted(self.places):
                    place = self.places[index].get(name)
                    if place is not None:
                        src.seek(place[0])
                        dst.write(src.read(place[1]))
            os.replace(temporary, final)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    def discard_journal(self) -> None:
        (self.outdir / JOURNAL).unlink(missing_ok=True)
