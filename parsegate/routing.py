"""Gate each document and route it: its chunks to ``chunks.jsonl`` when it passes, or the
whole document to ``quarantine.jsonl`` with every failed check, its measured value and its
threshold. Files that failed to parse, or that no parser reads, are quarantined with their
reason too: nothing leaves a run silently.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson

from quality_gates.gate import GateConfig, evaluate
from quality_gates.metrics import DocFacts

if TYPE_CHECKING:
    from parsegate.pipeline import FileOutcome

QUARANTINE_SCHEMA = "parsegate.quarantine/1"


class Router:
    def __init__(self, outdir: Path, gate: GateConfig) -> None:
        self.gate = gate
        self.chunks: BinaryIO = (outdir / "chunks.jsonl").open("wb")
        self.quarantine: BinaryIO = (outdir / "quarantine.jsonl").open("wb")

    def __enter__(self) -> Router:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.chunks.close()
        self.quarantine.close()

    def route(self, outcome: FileOutcome, lines: list[bytes]) -> None:
        if outcome.status != "chunked" or outcome.facts is None:
            reason = "unsupported" if outcome.status == "skipped" else "parse_failed"
            self._quarantine(outcome, reason, [])
            return
        verdict = evaluate(DocFacts.from_dict(outcome.facts), self.gate.for_format(outcome.format or ""))
        outcome.verdict = "pass" if verdict.passed else "fail"
        outcome.failed_checks = verdict.to_dict()["failed_checks"]
        if verdict.passed:
            self.chunks.write(b"".join(line + b"\n" for line in lines))
        else:
            self._quarantine(outcome, "gate_failed", [orjson.loads(line) for line in lines])

    def _quarantine(self, outcome: FileOutcome, reason: str, chunks: list[dict[str, Any]]) -> None:
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
        self.quarantine.write(orjson.dumps(record) + b"\n")
