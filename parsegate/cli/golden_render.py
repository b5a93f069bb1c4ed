"""The golden check as a person reads it in a terminal: one line per case, then what changed."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape

from parsegate.cli.console import inert
from parsegate.golden.check import CaseReport, summary
from parsegate.golden.evidence_check import FAILED, XFAIL, QuestionCheck

_MAX_LINES = 8  # per kind of change and case; the JSON output has every one


def _short(text: Any, width: int = 70) -> str:
    flat = " ".join(str(text).split())
    return escape(inert(flat if len(flat) <= width else flat[: width - 1] + "…"))


def _span(span: Any) -> str:
    return f"[{span[0]}-{span[1]}]" if span else "[?]"


def _cut_snippet(text: str | None, at: int) -> str:
    if text is None:
        return ""
    left, right = text[max(0, at - 30) : at], text[at : at + 30]
    return f' "…{_short(left, 30)}[bold red]⏐[/]{_short(right, 30)}…"'


def _boundary_lines(report: CaseReport) -> list[str]:
    assert report.diff is not None
    text = report.snapshot.doc.text if report.snapshot else None
    lines = []
    for move in report.diff.boundaries_moved:
        before = " ".join(_span(s) for s in move["before"]) or "(none)"
        after = " ".join(_span(s) for s in move["after"]) or "(none)"
        old_cuts = {e for _, e in move["before"][:-1]}
        new_cuts = [e for _, e in move["after"][:-1] if e not in old_cuts]
        snippet = "".join(_cut_snippet(text, c) for c in new_cuts[:2])
        lines.append(f"boundaries moved: {before} → {after}{snippet}")
    return lines


def _diff_lines(report: CaseReport) -> list[str]:
    diff = report.diff
    if diff is None:
        return ["no expected outputs yet: review them with 'parsegate golden update'"]
    groups: list[list[str]] = [
        [f"element lost: {e['kind']} {_span(e['span'])} “{_short(e['text'])}”" for e in diff.elements_lost],
        [f"element added: {e['kind']} {_span(e['span'])} “{_short(e['text'])}”" for e in diff.elements_added],
        [f"heading level: “{_short(e['text'])}” {e['before']} → {e['after']}" for e in diff.levels_changed],
        [
            f"element moved: {e['kind']} “{_short(e['text'], 40)}” {_span(e['before'])} → {_span(e['after'])}"
            for e in diff.elements_moved
        ],
        [f"element id: “{_short(e['text'], 40)}” {e['before']} → {e['after']}" for e in diff.element_ids_changed],
        [
            f"element {e['field']}: “{_short(e['text'], 40)}” {_short(e['before'], 40)} → {_short(e['after'], 40)}"
            for e in diff.element_fields_changed
        ],
        _boundary_lines(report),
        [_id_line(c) for c in diff.chunk_ids_wrong],
        [
            f"chunk {_span(c['span'])} {c['field']}: {_short(c['before'], 50)} → {_short(c['after'], 50)}"
            for c in diff.chunk_fields_changed
        ],
    ]
    out = []
    for group in groups:
        out.extend(group[:_MAX_LINES])
        if len(group) > _MAX_LINES:
            out.append(f"… and {len(group) - _MAX_LINES} more of these (see --json)")
    return out


def _id_line(wrong: dict[str, Any]) -> str:
    head = f"chunk {_span(wrong['span'])} {wrong['field']}"
    if "points_at" in wrong:
        points = _span(wrong["points_at"]) if wrong["points_at"] else wrong["found"]
        should = _span(wrong["should_point_at"]) if wrong["should_point_at"] else wrong["expected"] or "nothing"
        return f"{head} points at {points} (should: {should})"
    if wrong.get("same_as"):
        return f"{head} {wrong['found']} is also chunk {_span(wrong['same_as'])}'s"
    return f"{head} {escape(str(wrong['found']))}, recomputed {escape(str(wrong['expected']))}"


def _chunk_set_line(report: CaseReport) -> list[str]:
    """Information, never a failure: why every id differs from an earlier run's."""
    if not report.chunk_set_changed:
        return []
    parts = "; ".join(
        f"{c['field']} {_short(c['before'], 50)} → {_short(c['after'], 50)}" for c in report.chunk_set_changed
    )
    return [f"[dim]chunk set changed: {parts} (information: ids are recomputed, not compared)[/]"]


def _question_lines(check: QuestionCheck) -> list[str]:
    q = check.question
    style = "bold red" if check.failed else ("yellow" if check.status == XFAIL else "green")
    lines = []
    for s in check.spans:
        if s.after.whole and check.status not in FAILED:
            continue
        quote = f" “{_short(s.ref.quote, 50)}”" if s.ref.quote else ""
        lines.append(
            f"[{style}]{check.status.upper()}[/] {escape(q.id)} “{_short(q.text, 60)}” span {s.index}{quote}: "
            f"{escape(s.after.reason())}"
        )
    if check.status == XFAIL and q.expected_failure:
        lines.append(f"   expected failure: {_short(q.expected_failure, 110)}")
    if check.status == "xpass":
        lines.append(f"   {escape(q.id)} passes now: remove its 'expected_failure' from evidence.json to keep the pass")
    return lines


def print_reports(reports: list[CaseReport], console: Console, fail_on: str = "any", verbose: bool = False) -> None:
    for r in reports:
        failed = r.failed(fail_on)
        mark = "[bold red]✗[/]" if failed else ("[yellow]~[/]" if r.changed or r.error else "[green]✓[/]")
        spans = sum(len(q.spans) for q in r.questions)
        whole = sum(s.after.whole for q in r.questions for s in q.spans)
        head = f"{mark} {escape(inert(r.case))}"
        if r.error:
            console.print(f"{head}: [bold red]error[/] {escape(inert(r.error))}", highlight=False, soft_wrap=True)
            continue
        counts = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in (r.diff.counts() if r.diff else {}).items())
        console.print(f"{head}  evidence {whole}/{spans} whole" + (f"; {counts}" if counts else ""), highlight=False)
        detail = _chunk_set_line(r) + (_diff_lines(r) if (r.changed or verbose) else [])
        detail += [line for q in r.questions for line in _question_lines(q)]
        for line in detail:
            console.print(f"    {line}", highlight=False, soft_wrap=True)
    s = summary(reports, fail_on)
    verdict = "[bold red]FAILED[/]" if s["failed"] else "[green]passed[/]"
    questions = ", ".join(f"{n} {k}" for k, n in s["questions"].items())
    console.print(
        f"golden check {verdict}: {s['cases']} cases, {s['failed']} failing (on {fail_on}); "
        f"evidence spans whole {s['spans_whole']}/{s['spans']}; questions: {questions or 'none'}",
        highlight=False,
    )
