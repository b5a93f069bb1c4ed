"""The gate's table as plain data, for a terminal to print (the library prints nothing): metrics
as rows (every check with a metric, in the table's order), formats as columns (failing formats
first), each value marked when it misses its threshold; then each failing document with its
reasons, the run's own failures, what was not measured, and the verdict."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from parsegate.quality_gates.checks import BY_LIMIT, BY_METRIC, CHECKS

LISTED_FAILURES = 30  # failing documents listed; the rest are counted


@dataclass(frozen=True)
class Cell:
    text: str
    misses: bool = False  # misses its threshold (for this column's format)


@dataclass(frozen=True)
class Row:
    label: str
    threshold: str  # "≥ 0.95", or "" without one
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Column:
    format: str
    failed: bool  # some document of this format failed


@dataclass(frozen=True)
class GateTable:
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    failures: tuple[str, ...]  # "doc_id: reason; reason"
    more_failures: int  # failing documents not listed
    run_failures: tuple[str, ...]  # the run's own failed checks, each followed by its faults ("  doc: why")
    not_measured: str | None  # "metric (n documents), …"
    sample: str | None  # a sampled run: how many documents got the expensive references, and by what
    ocr: str | None  # pages read by OCR that no second reading measured, and why (None: none such)
    verdict: str  # "pass" | "fail"
    summary: str  # the counts after the verdict


def fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        if value in (0.0, 1.0):
            return str(int(value))
        # Three decimals, or as many more as it takes not to round a value into 0 or 1: a failing
        # 0.9998 must never read "1" (issue 37).
        for digits in range(3, 10):
            text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
            if text not in ("0", "1"):
                break
        return text
    return str(value)


def _bound(threshold: str, bound: Any) -> str:
    check = BY_LIMIT.get(threshold)
    direction = (
        check.limit.direction if check is not None and check.limit else (">=" if threshold.startswith("min") else "<=")
    )
    return f"{'≥' if direction == '>=' else '≤'} {fmt(bound)}"


def check_text(check: dict[str, Any]) -> str:
    """A failed check as a reason: "localization 0.667 (needs ≥ 1)"."""
    if check["check"] == "fail_on_warnings":
        return f"{check['metric']}: {check['value']} (must be 0)"
    return f"{check['metric']} {fmt(check['value'])} (needs {_bound(check['check'], check['threshold'])})"


LISTED_RUN_FAULTS = 10  # documents listed under a failed run-level check; the rest are counted


def _run_failure(check: dict[str, Any]) -> list[str]:
    """A failed run-level check, then the documents at fault: "  copy.txt: 1 of its 1 chunks embed
    the same text as a.txt's (chunks ch-1… = ch-9…)"."""
    faults = check.get("faults") or []
    lines = ["the run: " + check_text(check)]
    for fault in faults[:LISTED_RUN_FAULTS]:
        pairs = fault.get("pairs") or []
        named = [f"{p['chunk']} = {p['of_chunk']}" for p in pairs[:3] if p.get("chunk") and p.get("of_chunk")]
        more = f", … {len(pairs) - len(named)} more" if named and len(pairs) > len(named) else ""
        chunks = f" (chunks {', '.join(named)}{more})" if named else ""
        lines.append(f"  {fault.get('doc_id', '?')}: {fault.get('why', '')}{chunks}")
    if len(faults) > LISTED_RUN_FAULTS:
        lines.append(f"  … {len(faults) - LISTED_RUN_FAULTS} more in report.json")
    return lines


def _sample(sample: dict[str, Any] | None) -> str | None:
    """The gate's sample, "gate sample 0.1 (seed 0): docling's export on 3 of the 30 documents it
    reads; measured against: docling export 3, source file 20, …" (a run without a sample: None)."""
    if not sample or sample.get("fraction", 1.0) >= 1.0:
        return None
    by = ", ".join(f"{kind} {n}" for kind, n in sorted(sample.get("references", {}).items(), key=lambda kv: -kv[1]))
    return (
        f"gate sample {fmt(sample['fraction'])} (seed {sample.get('seed', 0)}): docling's export on "
        f"{sample.get('sampled', 0)} of the {sample.get('documents', 0)} documents it reads; measured against: {by}"
    )


def _ocr(counts: dict[str, Any] | None) -> str | None:
    """ "2 of the 5 pages read by OCR have no second reading: no second reading (rapidocr is not
    installed: …) 2" (None: every OCR page was read again, or there was none)."""
    if not counts or not counts.get("unread"):
        return None
    why = "; ".join(f"{reason}: {n}" for reason, n in counts.get("why_unread", {}).items())
    return f"{counts['unread']} of the {counts['pages']} pages read by OCR have no second reading ({why})"


def _misses(threshold: str | None, value: Any, bound: Any) -> bool:
    if value is None or bound is None or threshold is None:
        return False
    check = BY_LIMIT[threshold]
    assert check.limit is not None
    return not check.limit.passes(value, bound)


def gate_table(report: dict[str, Any]) -> GateTable:
    formats = sorted(report["formats"].items(), key=lambda kv: (-kv[1]["failed"], kv[0]))
    default = report["thresholds"]["default"]
    rows = [
        Row("documents (pass/fail)", "", tuple(Cell(f"{d['passed']}/{d['failed']}") for _, d in formats)),
        Row(BY_METRIC["chunks"].label or "chunks", "", tuple(Cell(str(d["metrics"]["chunks"])) for _, d in formats)),
    ]
    for check in CHECKS[1:]:
        if check.metric is None:
            continue
        metric, limit = check.metric or "", check.limit.name if check.limit else None
        cells = []
        for fmt_name, data in formats:
            value = data["metrics"][metric]
            bound = report["thresholds"]["formats"].get(fmt_name, default).get(limit) if limit else None
            cells.append(Cell(fmt(value), _misses(limit, value, bound)))
        bound = default.get(limit) if limit else None
        rows.append(Row(check.label or metric, "" if bound is None else _bound(limit or "", bound), tuple(cells)))
    failing = [d for d in report["documents"] if d["verdict"] == "fail"]
    failures = tuple(
        f"{d['doc_id']}: " + "; ".join([check_text(c) for c in d["failed_checks"]] or [f"{d['reason']} [{d['code']}]"])
        for d in failing[:LISTED_FAILURES]
    )
    unmeasured = Counter(m for d in report["documents"] for m in d.get("not_measured") or [])
    c = report["counts"]
    return GateTable(
        columns=tuple(Column(name, bool(data["failed"])) for name, data in formats),
        rows=tuple(rows),
        failures=failures,
        more_failures=max(0, len(failing) - LISTED_FAILURES),
        run_failures=tuple(line for r in report.get("run_checks", []) if not r["passed"] for line in _run_failure(r)),
        not_measured=", ".join(f"{m} ({n} documents)" for m, n in sorted(unmeasured.items())) or None,
        sample=_sample(report.get("gate_sample")),
        ocr=_ocr(report.get("ocr_second_reading")),
        verdict=report["verdict"],
        summary=(
            f" · {c['gate_passed']} passed{_empty(c)}, {c['gate_failed']} failed the gate, "
            f"{c['parse_failed']} failed to parse, "
            f"{c['skipped']} unsupported · quarantined {c['quarantined']} · failed share {fmt(c['failed_share'])} "
            f"(allowed {fmt(report['thresholds']['default']['max_failed_share'])})"
        ),
    )


def _empty(counts: dict[str, Any]) -> str:
    """The passed documents that had nothing to say, said (an empty __init__.py)."""
    n = counts.get("empty") or 0
    return f" ({n} empty)" if n else ""
