"""Shares from counts, and the tables a person reads."""

from __future__ import annotations

from typing import Any


def _ratio(a: float, b: float, digits: int = 4) -> float | None:
    return round(a / b, digits) if b else None


def derive(m: dict[str, Any]) -> dict[str, Any]:
    """The shares, from the counts (so pooled figures are micro-averages)."""
    spans = m.get("spans", 0)
    out = {
        "whole_share": _ratio(m.get("whole", 0), spans),
        # Among the spans no longer than the budget on their own (the rest cannot be whole).
        "whole_share_of_fitting": _ratio(m.get("whole_fitting", 0), m.get("fits", 0)),
        "bm25_complete_at5": _ratio(m.get("bm25_complete", 0), spans),
        "bm25_keyword_at5": _ratio(m.get("bm25_keyword", 0), spans),
        "mean_tokens": _ratio(m.get("tokens_sum", 0), m.get("chunks", 0), 1),
        "mb_per_s": _ratio(m.get("megabytes", 0), m.get("seconds", 0), 3),
        "line_break_end_share": _ratio(m.get("ends_at_line_break", 0), m.get("line_break_counted", 0)),
        "blank_line_end_share": _ratio(m.get("ends_at_blank_line", 0), m.get("line_break_counted", 0)),
    }
    for key in ("dense_complete", "dense_keyword", "shuffled_complete", "shuffled_keyword"):
        if key in m:
            out[f"{key}_at5"] = _ratio(m[key], spans)
    return out


def annotate(report: dict[str, Any]) -> None:
    """Shares beside the counts; by source group only where pooled (the per-variant groups
    keep their counts, from which any share follows)."""
    for by_budget in [*report["results"].values(), report["overall"]]:
        for by_tool in by_budget.values():
            for m in by_tool.values():
                m.update(derive(m))
    for by_tool in report["overall"].values():
        for m in by_tool.values():
            for g in m.get("by_group", {}).values():
                g.update(derive(g))


def _fmt(x: float | None, pct: bool = False) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}" if pct else f"{x:.3f}"


def print_report(report: dict[str, Any]) -> None:
    annotate(report)
    for check in report.get("sanity", []):
        print(f"sanity {'PASS' if check['passed'] else 'FAIL'} at {check['budget']}: {check['check']}")
    meta = report["meta"]
    print(
        f"\nmessy-text evidence benchmark — {meta.get('revision', '')}  seed {meta['seed']}"
        f"  {'QUICK ' if meta['quick'] else ''}dense={'on' if meta['dense'] else 'off'}"
    )
    print("variant          files     MB  spans  lost")
    for name, v in report["variants"].items():
        print(f"{name:15} {v['files']:6d} {v['megabytes']:6.2f} {v['spans']:6d} {v['spans_lost']:5d}")
    tools = list(next(iter(next(iter(report["results"].values())).values())).keys())
    metrics = [("whole %", "whole_share", True), ("BM25 c@5", "bm25_complete_at5", False)]
    if meta["dense"]:
        metrics.append(("dense c@5", "dense_complete_at5", False))
    for budget in map(str, meta["budgets"]):
        for label, key, pct in metrics:
            print(f"\n== {label} at {budget} tokens ==")
            print(f"{'variant':15}" + "".join(f"{t:>16}" for t in tools))
            rows = [(v, report["results"][v][budget]) for v in report["results"]]
            rows.append(("OVERALL", report["overall"][budget]))
            for vname, by_tool in rows:
                print(f"{vname:15}" + "".join(f"{_fmt(by_tool[t].get(key), pct):>16}" for t in tools))
        print(
            f"\n== by source group at {budget} tokens, pooled over variants: whole % / BM25 c@5"
            f"{' / dense c@5' if meta['dense'] else ''} / mean tokens / line-break end % =="
        )
        groups = sorted({g for t in tools for g in report["overall"][budget][t]["by_group"]})
        print(f"{'group':15}" + "".join(f"{t:>28}" for t in tools))
        for g in groups:
            cells = []
            for t in tools:
                m = report["overall"][budget][t]["by_group"].get(g, {})
                parts = [_fmt(m.get("whole_share"), True), _fmt(m.get("bm25_complete_at5"))]
                if meta["dense"]:
                    parts.append(_fmt(m.get("dense_complete_at5")))
                parts += [f"{m.get('mean_tokens') or 0:.0f}", _fmt(m.get("line_break_end_share"), True)]
                cells.append("/".join(parts))
            print(f"{g:15}" + "".join(f"{c:>28}" for c in cells))
        print(f"\n== overall at {budget} tokens ==")
        cols = [
            "fits",
            "whole_share_of_fitting",
            "chunks",
            "mean_tokens",
            "over_budget",
            "mb_per_s",
            "bm25_keyword_at5",
            "line_break_end_share",
            "blank_line_end_share",
            "inexact",
        ]
        if meta["dense"]:
            cols.insert(5, "dense_keyword_at5")
        print(f"{'tool':16}" + "".join(f"{c[:14]:>15}" for c in cols))
        for t in tools:
            m = report["overall"][budget][t]
            cells = []
            for c in cols:
                value = m.get(c)
                cells.append(
                    f"{value:>15}" if isinstance(value, int) else f"{_fmt(value) if value is not None else '-':>15}"
                )
            print(f"{t:16}" + "".join(cells))


def sanity_verdicts(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each metric, broken on purpose, must move the way the breakage says (run with --sanity)."""
    out = []
    for budget, by_tool in report["overall"].items():
        pg, halves, mid = by_tool["parsegate"], by_tool["broken:halves"], by_tool["broken:mid_line"]
        shifted, slow = by_tool["broken:shifted"], by_tool["broken:slow"]
        checks = [
            ("whole share is 0 when every span is cut in half", halves["whole_share"] == 0),
            ("BM25 complete@5 is 0 when every span is cut in half", halves["bm25_complete_at5"] == 0),
            (
                "shuffled ranking drops BM25 complete@5 below half of parsegate's",
                pg["shuffled_complete_at5"] < 0.5 * pg["bm25_complete_at5"],
            ),
            (
                "shuffled ranking drops keyword@5 below half of parsegate's",
                pg["shuffled_keyword_at5"] < 0.5 * pg["bm25_keyword_at5"],
            ),
            ("chunks ending mid-line: line-break end share is 0", mid["line_break_end_share"] == 0),
            (
                "chunks of ~1500 chars: mean tokens over the budget, every chunk counted over budget",
                mid["mean_tokens"] > int(budget) and mid["over_budget"] > 0,
            ),
            ("offsets moved by one: inexact pieces counted", shifted["inexact"] == shifted["chunks"]),
            ("20 ms per document added: MB/s falls", slow["mb_per_s"] < pg["mb_per_s"]),
            (
                "chunk count: cutting at every span's middle gives spans + files chunks",
                halves["chunks"] == halves["spans"] + sum(v["files"] for v in report["variants"].values()),
            ),
        ]
        if "dense_complete_at5" in halves:
            checks.append(("dense complete@5 is 0 when every span is cut in half", halves["dense_complete_at5"] == 0))
            checks.append(
                (
                    "shuffled ranking drops below dense complete@5",
                    pg["shuffled_complete_at5"] < 0.5 * pg["dense_complete_at5"],
                )
            )
        out += [{"budget": int(budget), "check": name, "passed": bool(ok)} for name, ok in checks]
    return out


def markdown_tables(report: dict[str, Any]) -> str:
    """The figures as Markdown: per budget, variant rows, one cell per tool holding
    whole % / BM25 complete@5 / dense complete@5; then the pooled chunk statistics."""
    meta = report["meta"]
    tools = [t for t in next(iter(report["overall"].values())) if not t.startswith("broken:")]
    dense = meta["dense"]
    what = "whole % / BM25 c@5" + (" / dense c@5" if dense else "")
    lines = [
        f"`{meta.get('command', '')}` on {meta.get('revision', '?')}, {meta.get('machine', '')}, "
        f"{meta.get('wall_seconds', '?')} s",
        "",
    ]
    for budget in map(str, meta["budgets"]):
        lines += [
            f"**{budget} tokens** — {what}",
            "",
            "| variant | spans | " + " | ".join(tools) + " |",
            "|---|---:|" + "---:|" * len(tools),
        ]
        rows = [(v, report["results"][v][budget]) for v in report["results"]]
        for name, by_tool in [*rows, ("**all variants**", report["overall"][budget])]:
            cells = []
            for t in tools:
                m = by_tool[t]
                parts = [_fmt(m.get("whole_share"), True), _fmt(m.get("bm25_complete_at5"))]
                if dense:
                    parts.append(_fmt(m.get("dense_complete_at5")))
                cells.append(" / ".join(parts))
            lines.append(f"| {name} | {by_tool[tools[0]]['spans']} | " + " | ".join(cells) + " |")
        lines.append("")
    budget = "200" if "200" in report["overall"] else str(meta["budgets"][0])
    lines += [
        f"**By source group at {budget} tokens, all variants pooled** — {what}",
        "",
        "| group | " + " | ".join(tools) + " |",
        "|---|" + "---:|" * len(tools),
    ]
    groups = sorted({g for t in tools for g in report["overall"][budget][t]["by_group"]} - {"mixed"})
    for g in groups:
        cells = []
        for t in tools:
            m = report["overall"][budget][t]["by_group"].get(g, {})
            parts = [_fmt(m.get("whole_share"), True), _fmt(m.get("bm25_complete_at5"))]
            if dense:
                parts.append(_fmt(m.get("dense_complete_at5")))
            cells.append(" / ".join(parts))
        lines.append(f"| {g} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "**Chunks, all variants pooled** — chunks / mean tokens / keyword@5 (BM25"
        + (", dense" if dense else "")
        + ") / line-break end % / blank-line end % / MB/s",
        "",
        "| budget | " + " | ".join(tools) + " |",
        "|---|" + "---|" * len(tools),
    ]
    for budget in map(str, meta["budgets"]):
        cells = []
        for t in tools:
            m = report["overall"][budget][t]
            kw = _fmt(m.get("bm25_keyword_at5")) + (", " + _fmt(m.get("dense_keyword_at5")) if dense else "")
            cells.append(
                f"{m['chunks']} / {m['mean_tokens']:.0f} / {kw} / {_fmt(m['line_break_end_share'], True)}"
                f" / {_fmt(m['blank_line_end_share'], True)} / {_fmt(m['mb_per_s'])}"
            )
        lines.append(f"| {budget} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
