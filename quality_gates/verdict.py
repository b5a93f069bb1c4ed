"""Facts → metrics → verdict, by the table of checks: a document's metrics (``rates``), those not
measured (``not_measured``), its verdict under thresholds (``evaluate``); a run's metrics over many
documents (``aggregate``) and its own checks (``run_checks``, ``run_passes``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from parsegate.quality_gates.checks import JUDGED, METRICS, RUN_LEVEL
from parsegate.quality_gates.checks.base import Definition, Value, share
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.thresholds import Thresholds


@dataclass
class Check:
    check: str
    metric: str
    value: float | int | None
    threshold: float | int | None
    passed: bool
    faults: list[dict[str, Any]] = field(default_factory=list)  # the chunks and spans at fault


@dataclass
class Verdict:
    doc_id: str
    format: str
    passed: bool
    metrics: dict[str, float | int | None]
    checks: list[Check]
    not_measured: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "format": self.format,
            "verdict": "pass" if self.passed else "fail",
            "metrics": self.metrics,
            "failed_checks": [asdict(c) for c in self.failed],
            "not_measured": self.not_measured,
        }


def rates(facts: DocFacts, thresholds: Thresholds) -> dict[str, Value]:
    """The document's metrics (a metric that does not apply is None)."""
    return {check.metric or "": check.of(facts, thresholds) for check in METRICS}


def not_measured(facts: DocFacts) -> list[str]:
    """Metrics with no value because their input was not measured (an older run, or no
    independent view of the source), as opposed to metrics that do not apply."""
    return [check.metric or "" for check in METRICS if _unmeasured(check, facts)]


def _unmeasured(check: Definition[Any], facts: DocFacts) -> bool:
    if check.stored is None:
        return False
    if check.stored in facts.missing:
        return True
    if not check.independent or not facts.chunks or facts.field(check.stored) is not None:
        return False
    return check.applies is None or check.applies(facts)


def evaluate(facts: DocFacts, thresholds: Thresholds) -> Verdict:
    """Each check against its threshold; a metric that does not apply (None) passes, and so does
    a check switched off (threshold None)."""
    metrics = rates(facts, thresholds)
    checks = []
    for check in JUDGED:
        assert check.limit is not None
        if check.judge is not None:
            checks.extend(check.judge(facts, thresholds))
            continue
        limit = thresholds[check.limit.name]
        value = metrics.get(check.metric or "")
        if limit is None or value is None:
            continue
        ok = check.limit.passes(value, limit)
        checks.append(
            Check(
                check.limit.name, check.metric or "", value, limit, ok, [] if ok else _faults(check, facts, thresholds)
            )
        )
    passed = all(c.passed for c in checks)
    return Verdict(facts.doc_id, facts.format, passed, metrics, checks, not_measured(facts))


def _faults(check: Definition[Any], facts: DocFacts, thresholds: Thresholds) -> list[dict[str, Any]]:
    """The chunks and spans behind a failed check."""
    if check.faults_of is not None:
        return check.faults_of(facts, thresholds)
    return facts.faults.get(check.faults or "", [])


def aggregate(all_facts: list[DocFacts], thresholds: Thresholds) -> dict[str, Value]:
    """Metrics over many documents: a share is the ratio of the sums of its parts (not an average
    of the documents' shares), over the documents where its numerator was measured; a count is
    its check's total (by default the sum of the measured counts)."""
    return {check.metric or "": _total(check, all_facts, thresholds) for check in METRICS}


def _total(check: Definition[Any], all_facts: list[DocFacts], thresholds: Thresholds) -> Value:
    if check.total is not None:
        return check.total(all_facts, thresholds)
    if check.parts is None:
        assert check.value is not None
        counts = [n for f in all_facts if (n := check.value(f, thresholds)) is not None]
        return sum(counts) if counts else None
    measured = [(part, whole) for part, whole in (check.parts(f, thresholds) for f in all_facts) if part is not None]
    return share(sum(part for part, _ in measured) if measured else None, sum(int(whole or 0) for _, whole in measured))


def run_checks(
    overall: dict[str, float | int | None], thresholds: Thresholds, all_facts: list[DocFacts] | None = None
) -> list[Check]:
    """Checks of the run as a whole (say, the same text embedded from four copies of a file); a
    failed one names the documents and chunks at fault (from ``all_facts``)."""
    out = []
    for check in RUN_LEVEL:
        assert check.limit is not None and check.metric is not None
        limit, value = thresholds[check.limit.name], overall.get(check.metric)
        if limit is None or value is None:
            continue
        ok = check.limit.passes(value, limit)
        faults = [] if ok or check.run_faults is None else check.run_faults(all_facts or [])
        out.append(Check(check.limit.name, f"run.{check.metric}", value, limit, ok, faults))
    return out


def run_passes(failed_docs: int, total_docs: int, thresholds: Thresholds, checks: list[Check] | None = None) -> bool:
    """A run passes when no more than max_failed_share of its documents failed and every
    run-level check passes."""
    share_ok = total_docs == 0 or failed_docs / total_docs <= thresholds.max_failed_share
    return share_ok and all(c.passed for c in checks or [])
