"""The readable tables (Markdown) from the JSON report."""

from __future__ import annotations

from typing import Any


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


def _f(x: float) -> str:
    return f"{x:.3f}"


def render(report: dict[str, Any]) -> str:
    results: dict[str, Any] = report["results"]
    names = list(results)
    lines = [
        f"# Sentence segmenters: {report['samples']} paragraphs, {report['true_boundaries']} true boundaries, "
        f"{report['megabytes']} MB ({report['machine']})",
        "",
        f"## Summary (boundary P/R/F1 micro-averaged; MB/s = median of {report['repeat']} passes)",
        "",
    ]
    rows = []
    for name in names:
        r = results[name]
        o, sp = r["offsets"], r["speed"]
        rows.append(
            [
                name,
                _f(r["overall"]["precision"]),
                _f(r["overall"]["recall"]),
                _f(r["overall"]["f1"]),
                _f(r["clean"]["f1"]),
                _f(r["messy"]["f1"]),
                _f(r["english_messy"]["f1"]),
                _f(r["cjk"]["f1"]),
                f"{sp['strings']['mb_per_s']:.2f}",
                f"{sp['exact_offsets']['mb_per_s']:.2f}",
                f"{sp['one_long_call']['mb_per_s']:.2f}",
                f"{o['exact_failures']}/{o['outputs']}",
                f"{o['native_mismatches']}",
            ]
        )
    lines += _table(
        [
            "segmenter",
            "P",
            "R",
            "F1",
            "F1 clean",
            "F1 messy",
            "F1 en messy",
            "F1 ja+zh",
            "MB/s strings",
            "MB/s exact offsets",
            f"MB/s one {report['one_long_call_megabytes']} MB call",
            "offset failures",
            "raw native offsets wrong",
        ],
        rows,
    )
    lines += ["", "## F1 by corpus (all variants pooled), with P / R", ""]
    corpora = list(report["corpora"])
    rows = []
    for corpus in corpora:
        row = [corpus]
        for name in names:
            s = results[name]["by_corpus"][corpus]
            row.append(f"{_f(s['f1'])} ({s['precision']:.2f}/{s['recall']:.2f})")
        rows.append(row)
    lines += _table(["corpus", *names], rows)
    lines += ["", "## F1 by corpus and variant", ""]
    rows = []
    for corpus in corpora:
        for variant in report["corpora"][corpus]["variants"]:
            key = f"{corpus}/{variant}"
            cells = [results[n]["by_cell"][key] for n in names]
            best = max(c["f1"] for c in cells)
            rows.append([key, *(f"**{_f(c['f1'])}**" if c["f1"] == best else _f(c["f1"]) for c in cells)])
    lines += _table(["corpus/variant", *names], rows)
    checks = report["self_checks"]
    lines += [
        "",
        "## Controls (must fail)",
        "",
        *_table(
            ["control", "P", "R", "F1"],
            [[k, _f(v["precision"]), _f(v["recall"]), _f(v["f1"])] for k, v in checks.items() if isinstance(v, dict)],
        ),
        "",
        f"oracle F1 {checks['oracle_f1']}, oracle shifted by one character F1 {checks['oracle_shifted_by_one_f1']}; "
        f"offset checks reject broken pieces: {checks['offset_checks_reject_broken_pieces']}",
        "",
    ]
    return "\n".join(lines)
