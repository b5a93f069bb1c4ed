"""Check golden cases: re-run each, compare with its expected files, place its evidence."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from parsegate.chunkers import Chunker, ConfigError
from parsegate.chunkers.tokens.counter import TokenizerUnavailable
from parsegate.golden.cases import Case, CaseError, Snapshot, snapshot
from parsegate.golden.chunk_set import chunk_set_changes
from parsegate.golden.compare import Diff, compare
from parsegate.golden.evidence_check import QuestionCheck, check_question, expected_chunks
from parsegate.golden.ids import check_ids
from parsegate.parsers.model import ParseError

# 2: chunk ids are recomputed, not compared (``chunk_ids_wrong`` replaces ``chunk_ids_changed``);
# each case says what changed in its chunk set (``chunk_set_changed``, information only).
SCHEMA = "parsegate.golden-check/2"
FAIL_ON = ("any", "evidence")  # any change, or only evidence that no longer arrives whole


@dataclass
class CaseReport:
    case: str
    diff: Diff | None  # None: the case has no expected files yet
    questions: list[QuestionCheck] = field(default_factory=list)
    error: str | None = None
    snapshot: Snapshot | None = field(default=None, repr=False)
    # What changed in the chunk set (configuration, versions): information, never a failure.
    chunk_set_changed: list[dict[str, Any]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.diff is None or self.diff.changed

    @property
    def evidence_failed(self) -> bool:
        return any(q.failed for q in self.questions)

    @property
    def status(self) -> str:
        if self.error:
            return "error"
        if self.evidence_failed:
            return "evidence_failed"
        if self.diff is None:
            return "no_expected"
        return "changed" if self.diff.changed else "ok"

    def failed(self, fail_on: str = "any") -> bool:
        if self.error or self.evidence_failed:
            return True
        return fail_on == "any" and self.changed

    def to_dict(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "status": self.status,
            "error": self.error,
            "counts": self.diff.counts() if self.diff else {},
            "chunk_set_changed": self.chunk_set_changed,
            "diff": self.diff.to_dict() if self.diff else None,
            "evidence": [entry for q in self.questions for entry in q.to_dicts(self.case)],
        }


def check_case(case: Case, chunker: Chunker | None = None) -> CaseReport:
    """Re-run one case. A case that cannot run (parse error, bad config or evidence file)
    is reported with its error, never raised."""
    try:
        questions = case.questions()
        expected = case.expected()
        stored_set = case.expected_chunk_set()
        snap = snapshot(case, chunker)
    except (CaseError, ParseError, ConfigError, TokenizerUnavailable, ValueError) as exc:
        return CaseReport(case.name, None, error=str(exc))
    diff = compare(expected, (snap.elements, snap.records)) if expected is not None else None
    if diff is not None:
        diff.chunk_ids_wrong = check_ids(snap.doc, snap.chunks, snap.config)
    before = expected_chunks(expected[1]) if expected is not None else None
    checks = [check_question(q, snap.doc.text, snap.chunks, before) for q in questions]
    today = snap.chunks[0].chunk_set if snap.chunks else None
    changed = chunk_set_changes(stored_set, expected[1] if expected else None, snap.chunk_set, today)
    return CaseReport(case.name, diff, checks, snapshot=snap, chunk_set_changed=changed)


def check_cases(cases: list[Case], chunker: Chunker | None = None) -> list[CaseReport]:
    return [check_case(c, chunker) for c in cases]


def summary(reports: list[CaseReport], fail_on: str = "any") -> dict[str, Any]:
    statuses = Counter(r.status for r in reports)
    questions = Counter(q.status for r in reports for q in r.questions)
    spans = [s for r in reports for q in r.questions for s in q.spans]
    return {
        "cases": len(reports),
        "failed": sum(r.failed(fail_on) for r in reports),
        "fail_on": fail_on,
        "by_status": dict(sorted(statuses.items())),
        "chunk_sets_changed": sum(bool(r.chunk_set_changed) for r in reports),
        "questions": dict(sorted(questions.items())),
        "spans": len(spans),
        "spans_whole": sum(s.after.whole for s in spans),
    }


def to_json(reports: list[CaseReport], root: str, fail_on: str = "any") -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "root": root,
        "summary": summary(reports, fail_on),
        "cases": [r.to_dict() for r in reports],
    }


def exit_code(reports: list[CaseReport], fail_on: str = "any") -> int:
    return 1 if any(r.failed(fail_on) for r in reports) else 0
