"""Reports people can read: the terminal summary, report.json (parsegate.report/1) and a
single self-contained report.html."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict
from importlib import resources
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from parsegate.quality_gates.gate import GateConfig, Verdict, run_checks, run_passes
from parsegate.quality_gates.metrics import DocFacts, aggregate, not_measured, rates

REPORT_SCHEMA = "parsegate.report/1"
# Metrics shown to people: (metric, name, threshold field).
THRESHOLDED = (
    ("empty_chunk_rate", "empty chunks", "max_empty_chunk_rate"),
    ("short_chunk_rate", "short chunks", "max_short_chunk_rate"),
    ("heading_inheritance", "heading inheritance", "min_heading_inheritance"),
    ("table_header_coverage", "table header coverage", "min_table_header_coverage"),
    ("localization", "localization", "min_localization"),
    ("extraction_recall", "extraction recall", "min_extraction_recall"),
    ("budget_compliance", "budget compliance", "min_budget_compliance"),
    ("token_count_accuracy", "token counts exact", "min_token_count_accuracy"),
    ("largest_chunk_tokens", "largest chunk (tokens)", "-"),
    ("duplicate_rate", "duplicates", "max_duplicate_rate"),
    ("text_coverage", "text coverage (parser's text)", "min_text_coverage"),
    ("overhead", "index overhead", "max_overhead"),
    ("context_share", "context share of embedded tokens", "max_context_share"),
    ("code_overlaps", "code: overlapping chunks", "max_code_overlaps"),
    ("code_parse", "code: definitions parse alone", "min_code_parse"),
    ("code_whole_definitions", "code: whole definitions", "-"),
    ("code_with_context", "code: with context", "-"),
)


def _misses(limit: str, value: Any, bound: Any) -> bool:
    if value is None or bound is None or limit == "-":
        return False
    return bool(value < bound) if limit.startswith("min") else bool(value > bound)


def build_report(
    files: list[dict[str, Any]],
    gate: GateConfig,
    run: dict[str, Any],
    gated: dict[str, tuple[DocFacts, Verdict]] | None = None,
) -> dict[str, Any]:
    """``gated``: the facts and verdicts the run's router already read and computed, by doc id
    (the same gate): taken as they are, not read and measured again."""
    gated = gated or {}
    chunked = [f for f in files if f["status"] == "chunked" and f.get("facts")]
    parse_failed = [f for f in files if f["status"] == "failed"]
    gate_failed = [f for f in chunked if f.get("verdict") == "fail"]
    facts = {f["path"]: gated[f["path"]][0] if f["path"] in gated else DocFacts.from_dict(f["facts"]) for f in chunked}
    formats: dict[str, dict[str, Any]] = {}
    for fmt in sorted({f["format"] for f in chunked}):
        group = [f for f in chunked if f["format"] == fmt]
        thresholds = gate.for_format(fmt)
        formats[fmt] = {
            "documents": len(group),
            "passed": sum(1 for f in group if f.get("verdict") == "pass"),
            "failed": sum(1 for f in group if f.get("verdict") == "fail"),
            "metrics": aggregate([facts[f["path"]] for f in group], thresholds.short_chunk_tokens),
        }
    failed_total = len(gate_failed) + len(parse_failed)
    overall = aggregate(list(facts.values()), gate.default.short_chunk_tokens)
    checks = run_checks(overall, gate.default)
    passed = run_passes(failed_total, len(chunked) + len(parse_failed), gate.default, checks)
    return {
        "schema": REPORT_SCHEMA,
        "verdict": "pass" if passed else "fail",
        "run": run,
        "run_checks": [asdict(c) for c in checks],
        "thresholds": gate.to_dict(),
        "counts": {
            "files": len(files),
            "chunked": len(chunked),
            "skipped": sum(1 for f in files if f["status"] == "skipped"),
            "parse_failed": len(parse_failed),
            "gate_passed": len(chunked) - len(gate_failed),
            "gate_failed": len(gate_failed),
            "quarantined": len(files) - (len(chunked) - len(gate_failed)),
            "failed_share": round(failed_total / max(1, len(chunked) + len(parse_failed)), 6),
        },
        "overall": overall,
        "formats": formats,
        "warnings": dict(sorted(Counter(w["code"] for f in files for w in f.get("warnings", [])).items())),
        "documents": [
            _document(f, gate, facts.get(f["path"]), gated.get(f["path"], (None, None))[1])
            for f in sorted(files, key=_failures_first)
        ],
    }


def _failures_first(f: dict[str, Any]) -> tuple[int, str]:
    if f["status"] == "failed" or f.get("verdict") == "fail":
        rank = 0
    elif f["status"] == "skipped":
        rank = 2
    else:
        rank = 1
    return rank, f["path"]


def _document(f: dict[str, Any], gate: GateConfig, parsed: DocFacts | None, verdict: Verdict | None) -> dict[str, Any]:
    metrics, missing, furniture, recall_source = None, [], [], None
    if f.get("facts"):
        # Read once per document by build_report (a chunked file's); any other has its own.
        facts = parsed if parsed is not None else DocFacts.from_dict(f["facts"])
        if verdict is not None:  # the gate's own rates of these facts, for this format
            metrics, missing = verdict.metrics, verdict.not_measured
        else:
            metrics = rates(facts, gate.for_format(f["format"]).short_chunk_tokens)
            missing = not_measured(facts)
        furniture, recall_source = facts.furniture, facts.recall_source
    return {
        "doc_id": f["path"],
        "format": f.get("format"),
        "status": f["status"],
        "verdict": f.get("verdict") or ("fail" if f["status"] == "failed" else None),
        "reason": f.get("reason"),
        "code": f.get("code"),
        "chunks": f.get("chunks", 0),
        "metrics": metrics,
        "failed_checks": f.get("failed_checks", []),
        "not_measured": missing,
        "recall_source": recall_source,
        "furniture": furniture,
        "warnings": f.get("warnings", []),
    }


def check_text(check: dict[str, Any]) -> str:
    bound = "≥" if check["check"].startswith("min") else "≤"
    if check["check"] == "fail_on_warnings":
        return f"{check['metric']}: {check['value']} (must be 0)"
    return f"{check['metric']} {_fmt(check['value'])} (needs {bound} {_fmt(check['threshold'])})"


def _fmt(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value not in (0.0, 1.0) else str(int(value))
    return str(value)


# -- terminal --------------------------------------------------------------------------


def print_report(report: dict[str, Any], console: Console) -> None:
    """Metrics as rows, formats as columns (failing formats first), a value that misses its
    threshold in red; then each failing document with its reasons."""
    formats = sorted(report["formats"].items(), key=lambda kv: (-kv[1]["failed"], kv[0]))
    default = report["thresholds"]["default"]
    table = Table(title="quality gate", title_justify="left")
    table.add_column("metric")
    table.add_column("threshold", justify="right")
    for fmt, data in formats:
        table.add_column(fmt, justify="right", style="red" if data["failed"] else None)
    table.add_row("documents (pass/fail)", "", *(f"{d['passed']}/{d['failed']}" for _, d in formats))
    table.add_row("chunks", "", *(str(d["metrics"]["chunks"]) for _, d in formats))
    for key, name, limit in THRESHOLDED:
        cells = []
        for fmt, data in formats:
            value = data["metrics"][key]
            bound = report["thresholds"]["formats"].get(fmt, default).get(limit)
            cells.append(Text(_fmt(value), style="bold red" if _misses(limit, value, bound) else ""))
        bound = default.get(limit)
        table.add_row(name, "" if bound is None else f"{'≥' if limit.startswith('min') else '≤'} {_fmt(bound)}", *cells)
    console.print(table)
    failures = [d for d in report["documents"] if d["verdict"] == "fail"]
    for d in failures[:30]:
        reasons = [check_text(c) for c in d["failed_checks"]] or [f"{d['reason']} [{d['code']}]"]
        console.print(Text("FAIL ", style="bold red") + Text(f"{d['doc_id']}: " + "; ".join(reasons)), soft_wrap=True)
    if len(failures) > 30:
        console.print(f"… {len(failures) - 30} more failures in report.json")
    for c in report.get("run_checks", []):
        if not c["passed"]:
            console.print(Text("FAIL ", style="bold red") + Text("the run: " + check_text(c)), soft_wrap=True)
    unmeasured = Counter(m for d in report["documents"] for m in d.get("not_measured") or [])
    if unmeasured:
        listed = ", ".join(f"{m} ({n} documents)" for m, n in sorted(unmeasured.items()))
        console.print(Text("not measured: ", style="yellow") + Text(listed), soft_wrap=True)
    c = report["counts"]
    style = "bold green" if report["verdict"] == "pass" else "bold red"
    console.print(
        Text(f"gate {report['verdict'].upper()}", style=style)
        + Text(
            f" · {c['gate_passed']} passed, {c['gate_failed']} failed the gate, {c['parse_failed']} failed to parse, "
            f"{c['skipped']} unsupported · quarantined {c['quarantined']} · failed share {_fmt(c['failed_share'])} "
            f"(allowed {_fmt(report['thresholds']['default']['max_failed_share'])})"
        ),
        soft_wrap=True,
    )


# -- HTML ------------------------------------------------------------------------------


def render_html(report: dict[str, Any], details: dict[str, dict[str, Any]]) -> str:
    """One self-contained page: the report, and for the documents in ``details`` their source
    text (when available) and chunk spans. Data travels as JSON; the page builds its DOM with
    textContent, so document text can never become markup."""
    payload = json.dumps({"report": report, "details": details}, ensure_ascii=False)
    # No "<" may reach the HTML parser from document text: "</script>" would end the block.
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    template = resources.files("parsegate.quality_gates").joinpath("report_template.html").read_text(encoding="utf-8")
    return template.replace("/*__DATA__*/null", payload)
