"""report.json (``parsegate.report/1``): a run's verdict, counts, metrics overall and by format,
and each document with its metrics and failed checks, failures first."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from typing import Any

from parsegate.quality_gates.checks.chunks import empty
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.quality_gates.verdict import Check, Verdict, aggregate, not_measured, rates, run_checks, run_passes

REPORT_SCHEMA = "parsegate.report/1"


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
        formats[fmt] = {
            "documents": len(group),
            "passed": sum(1 for f in group if f.get("verdict") == "pass"),
            "failed": sum(1 for f in group if f.get("verdict") == "fail"),
            "metrics": aggregate([facts[f["path"]] for f in group], gate.for_format(fmt)),
        }
    failed_total = len(gate_failed) + len(parse_failed)
    overall = aggregate(list(facts.values()), gate.default)
    checks = run_checks(overall, gate.default, list(facts.values()))
    passed = run_passes(failed_total, len(chunked) + len(parse_failed), gate.default, checks)
    named = _named_by_run_checks(checks)
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
            # passed with nothing to say: no text, no chunk (an empty __init__.py; checks/chunks.py)
            "empty": sum(1 for f in chunked if empty(facts[f["path"]])),
            "quarantined": len(files) - (len(chunked) - len(gate_failed)),
            "failed_share": round(failed_total / max(1, len(chunked) + len(parse_failed)), 6),
        },
        "overall": overall,
        "formats": formats,
        "warnings": dict(sorted(Counter(w["code"] for f in files for w in f.get("warnings", [])).items())),
        "gate_sample": _sample(run, list(facts.values())),
        "ocr_second_reading": ocr_pages(list(facts.values())),
        "documents": [
            {
                **_document(f, gate, facts.get(f["path"]), gated.get(f["path"], (None, None))[1]),
                "run_faults": named.get(f["path"], []),
            }
            for f in sorted(files, key=_failures_first)
        ],
    }


def _sample(run: dict[str, Any], all_facts: list[DocFacts]) -> dict[str, Any]:
    """The run's gate sample (quality_gates/sample.py): its fraction and seed, how many of the
    documents with an expensive reference (Office, HTML) it held, and how many documents each
    reference measured ("none": no independent reference)."""
    given = run.get("gate_sample") or {"fraction": 1.0, "seed": 0}
    references = Counter(
        f.reference or ("none (not in the gate's sample)" if f.sampled is False else "none") for f in all_facts
    )
    return {
        **given,
        "documents": sum(1 for f in all_facts if f.sampled is not None),
        "sampled": sum(1 for f in all_facts if f.sampled),
        "references": dict(sorted(references.items())),
    }


def ocr_pages(all_facts: list[DocFacts]) -> dict[str, Any]:
    """Pages read by OCR, how many of them the other engine read again (checks/ocr_recall.py), and
    for the rest why not, in pages: no pass is silent."""
    from parsegate.quality_gates.checks.ocr_recall import OcrRecallFacts

    pages = read = 0
    why: Counter[str] = Counter()
    for f in all_facts:
        own = f.get(OcrRecallFacts)
        if own.ocr_pages:
            pages += own.ocr_pages
            read += own.ocr_pages - (own.ocr_pages_unread or 0)
            if own.ocr_pages_unread:
                why[own.ocr_second_reading or "not measured"] += own.ocr_pages_unread
    return {"pages": pages, "read_again": read, "unread": pages - read, "why_unread": dict(sorted(why.items()))}


def _named_by_run_checks(checks: list[Check]) -> dict[str, list[dict[str, Any]]]:
    """Per document, the faults of failed run-level checks that name it, on either side (a
    document that repeats another's chunks, and the document it repeats), with the check's metric."""
    named: dict[str, list[dict[str, Any]]] = {}
    for check in checks:
        for fault in check.faults:
            entry = {"metric": check.metric, **fault}
            for doc_id in dict.fromkeys(d for d in (fault.get("doc_id"), fault.get("duplicate_of")) if d):
                named.setdefault(doc_id, []).append(entry)
    return named


def _failures_first(f: dict[str, Any]) -> tuple[int, str]:
    if f["status"] == "failed" or f.get("verdict") == "fail":
        rank = 0
    elif f["status"] == "skipped":
        rank = 2
    else:
        rank = 1
    return rank, f["path"]


def _document(f: dict[str, Any], gate: GateConfig, parsed: DocFacts | None, verdict: Verdict | None) -> dict[str, Any]:
    from parsegate.quality_gates.checks.ocr_recall import OcrRecallFacts
    from parsegate.quality_gates.checks.recall import RecallFacts

    metrics, missing, furniture, recall_source, reference, sampled = None, [], [], None, None, None
    second_reading = None
    if f.get("facts"):
        # Read once per document by build_report (a chunked file's); any other has its own.
        facts = parsed if parsed is not None else DocFacts.from_dict(f["facts"])
        if verdict is not None:  # the gate's own rates of these facts, for this format
            metrics, missing = verdict.metrics, verdict.not_measured
        else:
            metrics = rates(facts, gate.for_format(f["format"]))
            missing = not_measured(facts)
        recall = facts.get(RecallFacts)
        furniture, recall_source = recall.furniture, recall.recall_source
        reference, sampled = facts.reference, facts.sampled
        second_reading = facts.get(OcrRecallFacts).ocr_second_reading
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
        # Which independent reference measured it, and whether it was in the gate's sample.
        "reference": reference,
        "sampled": sampled,
        "furniture": furniture,
        # Pages read by OCR: the engine that read them again, or why none did (checks/ocr_recall.py).
        "ocr_second_reading": second_reading,
        "warnings": f.get("warnings", []),
    }
