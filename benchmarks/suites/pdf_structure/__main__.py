"""pdf_structure: parsegate vs raw PDFium, pdfplumber and pdfminer.six, side by side.

    python -m benchmarks.suites.pdf_structure [--revision REV] [--engine chromium|libreoffice|latex]
        [--limit N] [--tools parsegate,pdfium,pdfplumber,pdfminer] [--no-real] [--sabotage KIND] [--out FILE]

Reads the generated documents (``python -m benchmarks.suites.pdf_structure.generate``) from
``benchmarks/suites/pdf_structure/out``, runs each tool in its own process over the same PDFs
(parsegate: this venv's, or with --revision that git revision installed in a venv of its own,
benchmarks/revisions.py), scores every document against its truth (score.py) and prints and
writes the figures per engine and overall to benchmarks/results/pdf_structure.json (other runs:
another --revision, --sabotage, a subset, write benchmarks/results/pdf_structure.*.tmp).
--limit keeps the first N documents of each engine. The real PDFs in ../shared/corpus/pdf are
scored too, against raw PDFium's own text as a *reference* (not a truth): words F1 and order only.
--sabotage breaks parsegate's output on purpose (shuffle, drop-words, drop-column, drop-headings,
fake-heading, wrong-level, leak-furniture) to show which metric catches it.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import revision
from benchmarks.suites.pdf_structure import score

HERE = Path(__file__).resolve().parent
REAL = harness.SHARED / "pdf"
TOOLS = ("parsegate", "pdfium", "pdfplumber", "pdfminer")
STRUCTURE = {"parsegate"}  # tools that report headings and tables; the others get n/a
STYLES = ("ruled", "booktabs", "inner", "unruled")
SABOTAGE = ("shuffle", "drop-words", "drop-column", "drop-headings", "fake-heading", "wrong-level", "leak-furniture")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--revision", default=None, help="parsegate at this git revision (default: this venv's)")
    parser.add_argument("--engine", choices=("chromium", "libreoffice", "latex"))
    parser.add_argument("--limit", type=int, help="first N documents of each engine")
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--data", type=Path, default=HERE / "out", help="generate.py's output folder")
    parser.add_argument("--no-real", action="store_true", help="skip the real PDFs in ../shared/corpus/pdf")
    parser.add_argument("--sabotage", choices=SABOTAGE)
    parser.add_argument("--out", type=Path, help="results JSON (default benchmarks/results/pdf_structure.json)")
    args = parser.parse_args()
    tools = [t for t in args.tools.split(",") if t]
    truths = load_truths(args.data, args.engine, args.limit)
    real = [] if args.no_real or not REAL.is_dir() else sorted(REAL.glob("*.pdf"))
    pdfs = [Path(t["_pdf"]) for t in truths] + real
    python = revision(args.revision).python if args.revision else Path(sys.executable)
    records = {tool: run_tool(tool, python if tool == "parsegate" else Path(sys.executable), pdfs) for tool in tools}
    if args.sabotage and "parsegate" in records:
        records["parsegate"] = sabotage(records["parsegate"], truths, args.sabotage)
    report = build_report(truths, real, records, args)
    print_report(report)
    # Only a full run of this checkout's own, unbroken parser writes the committed figures; others go to .tmp.
    name = "pdf_structure"
    if args.revision:
        name += f".{args.revision}"
    if args.sabotage:
        name += f".{args.sabotage}"
    if args.engine or args.limit is not None or args.no_real or set(tools) != set(TOOLS):
        name += ".partial"
    result = Report("pdf_structure", commit=revision(args.revision).label if args.revision else harness.commit_of())
    add_rows(result, report)
    result.details = report
    out = args.out or (None if name == "pdf_structure" else harness.RESULTS / f"{name}.tmp")
    print(f"\nwritten to {result.write(out)}")


METRICS = {"order": "word order", "words_f1": "words F1", "furniture_leaked": "share", "pages_per_s": "pages/s"}


def add_rows(result: Report, report: dict[str, Any]) -> None:
    """Every tool on all generated documents: parsegate's figures against raw PDFium's (its own
    text layer, the strongest reader without structure), its speed against pdfplumber's too."""
    found = report["synthetic"]["all"]
    corpus = f"generated PDFs ({found['documents']} documents, {found['pages']} pages)"
    for tool, m in found["tools"].items():
        for metric, unit in METRICS.items():
            peers = ["pdfium", "pdfplumber"] if metric == "pages_per_s" else ["pdfium"]
            for peer in peers if tool == "parsegate" else [None]:
                result.add(tool, corpus, metric, round(m[metric], 4), unit, ratio_to=peer)
        if m.get("headings"):
            for metric in ("recall", "precision", "level_accuracy"):
                result.add(tool, corpus, f"headings_{metric}", round(m["headings"][metric], 4), "share")
        if m.get("tables"):
            result.add(tool, corpus, "table_cells_f1", round(m["tables"]["all"]["f1"], 4), "share")


def load_truths(data: Path, engine: str | None, limit: int | None) -> list[dict[str, Any]]:
    paths = sorted(data.glob("*/*.truth.json"))
    if not paths:
        sys.exit(f"no documents in {data}: run python -m benchmarks.suites.pdf_structure.generate first")
    truths, per_engine = [], {}
    for path in paths:
        truth = json.loads(path.read_text(encoding="utf-8"))
        if engine and truth["engine"] != engine:
            continue
        per_engine[truth["engine"]] = per_engine.get(truth["engine"], 0) + 1
        if limit is not None and per_engine[truth["engine"]] > limit:
            continue
        truth["_pdf"] = str(path.with_name(path.name.replace(".truth.json", ".pdf")))
        truths.append(truth)
    return truths


def run_tool(tool: str, python: Path, pdfs: list[Path]) -> dict[str, dict[str, Any]]:
    """Run extract.py for one tool in its own process; records by PDF path."""
    with tempfile.TemporaryDirectory(prefix="pdfbench-") as tmp:
        listing, out = Path(tmp) / "pdfs.json", Path(tmp) / "out.jsonl"
        listing.write_text(json.dumps([str(p) for p in pdfs]))
        done = subprocess.run(
            [str(python), str(HERE / "extract.py"), tool, str(listing), str(out)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not out.exists():
            sys.exit(f"{tool} failed:\n{done.stderr[-2000:]}")
        lines = [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n") if line]
    header, records = lines[0], {r["pdf"]: r for r in lines[1:]}
    records["_meta"] = {"source": header.get("source"), "python": str(python)}
    print(f"{tool}: {len(pdfs)} PDFs in {sum(r['seconds'] for r in lines[1:]):.1f} s", file=sys.stderr)
    return records


def sabotage(records: dict[str, dict[str, Any]], truths: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    """parsegate's output broken on purpose, one way per metric."""
    rng = random.Random(0)
    out = {}
    for pdf, rec in records.items():
        rec = dict(rec)
        if pdf != "_meta" and "error" not in rec:
            if kind == "shuffle":
                rec["body"] = rng.sample(rec["body"], len(rec["body"]))
            elif kind == "drop-words":
                rec["body"] = [b for n, b in enumerate(rec["body"]) if n % 5 != 2]
            elif kind == "drop-column":
                rec["tables"] = [[row[:-1] for row in table] for table in rec["tables"]]
            elif kind == "drop-headings":
                rec["headings"] = rec["headings"][::2]
            elif kind == "fake-heading":
                heads = {h["text"] for h in rec["headings"]}
                rec["headings"] = rec["headings"] + [{"text": b, "level": 2} for b in rec["body"] if b not in heads][:3]
            elif kind == "wrong-level":
                rec["headings"] = [{**h, "level": (h["level"] or 0) + n % 2} for n, h in enumerate(rec["headings"])]
            elif kind == "leak-furniture":
                rec["body"] = rec["all"]
        out[pdf] = rec
    return out


def build_report(
    truths: list[dict[str, Any]], real: list[Path], records: dict[str, Any], args: argparse.Namespace
) -> dict[str, Any]:
    scored = {
        tool: [score.score_document(t, recs[t["_pdf"]], tool in STRUCTURE) for t in truths]
        for tool, recs in records.items()
    }
    subsets = {"all": list(range(len(truths)))}
    for engine in ("chromium", "libreoffice", "latex"):
        idx = [i for i, t in enumerate(truths) if t["engine"] == engine]
        if idx:
            subsets[engine] = idx
    results: dict[str, Any] = {}
    for name, idx in subsets.items():
        results[name] = {"documents": len(idx), "pages": sum(truths[i]["pages"] for i in idx), "tools": {}}
        for tool, docs in scored.items():
            secs = sum(records[tool][truths[i]["_pdf"]]["seconds"] for i in idx)
            results[name]["tools"][tool] = aggregate(
                [docs[i] for i in idx], results[name]["pages"], secs, tool in STRUCTURE
            )
        speeds = {tool: r["pages_per_s"] for tool, r in results[name]["tools"].items()}
        if speeds.get("parsegate") and speeds.get("pdfplumber"):
            results[name]["parsegate_vs_pdfplumber_speed"] = round(speeds["parsegate"] / speeds["pdfplumber"], 2)
    report: dict[str, Any] = {
        "revision": args.revision,
        "sources": {tool: recs["_meta"] for tool, recs in records.items()},
        "sabotage": args.sabotage,
        "generated": json.loads((args.data / "manifest.json").read_text())
        if (args.data / "manifest.json").exists()
        else None,
        "synthetic": results,
    }
    if real and "pdfium" in records:
        report["real_vs_pdfium_reference"] = real_report(real, records)
    return report


def aggregate(docs: list[dict[str, Any]], pages: int, seconds: float, structure: bool) -> dict[str, Any]:
    per_doc_f1 = [score.prf(*d["words"])["f1"] or 0.0 for d in docs]
    leaked = sum(d["furniture"][0] for d in docs)
    furniture = sum(d["furniture"][1] for d in docs)
    out: dict[str, Any] = {
        "order": _mean([d["order"] for d in docs]),
        "words_f1": _mean(per_doc_f1),
        "words": score.prf(*(sum(d["words"][k] for d in docs) for k in range(3))),
        "furniture_leaked": leaked / furniture if furniture else None,
        "pages_per_s": round(pages / seconds, 1) if seconds else None,
        "seconds": round(seconds, 3),
        "errors": sum(1 for d in docs if d["error"]),
    }
    if not structure:
        out.update({"headings": None, "tables": None})
        return out
    matched = sum(d["headings"]["matched"] for d in docs)
    pred = sum(d["headings"]["predicted"] for d in docs)
    truth = sum(d["headings"]["truth"] for d in docs)
    level_ok = sum((score.level_accuracy(d["headings"]["level_pairs"]) or 0) * d["headings"]["matched"] for d in docs)
    out["headings"] = {**score.prf(matched, pred, truth), "level_accuracy": level_ok / matched if matched else None}
    tables = [t for d in docs for t in d["tables"]["tables"]]
    by_style = {}
    groups = {s: (s,) for s in STYLES} | {"partly_ruled": ("booktabs", "inner")}
    for style in (*groups, "page_break"):
        group = [t for t in tables if (t["page_break"] if style == "page_break" else t["style"] in groups[style])]
        if group:
            by_style[style] = {
                **score.prf(*(sum(t[k] for t in group) for k in ("matched", "predicted", "truth"))),
                "tables": len(group),
            }
    unpaired = sum(d["tables"]["unpaired_cells"] for d in docs)
    all_cells = score.prf(
        sum(t["matched"] for t in tables),
        sum(t["predicted"] for t in tables) + unpaired,
        sum(t["truth"] for t in tables),
    )
    out["tables"] = {"all": {**all_cells, "unpaired_cells": unpaired}, **by_style}
    return out


def real_report(real: list[Path], records: dict[str, Any]) -> dict[str, Any]:
    """Every tool's full text (furniture included) against raw PDFium's: a reference, not a truth."""
    out: dict[str, Any] = {"note": "reference = raw PDFium get_text_range() text; NOT a ground truth", "files": {}}
    totals: dict[str, list[float]] = {}
    for pdf in real:
        ref = records["pdfium"][str(pdf)]
        if "error" in ref or not score.body_words(ref["all"]):
            continue
        ref_words = score.body_words(ref["all"])
        row = {}
        for tool, recs in records.items():
            rec = recs[str(pdf)]
            got = score.body_words(rec.get("all", []))
            row[tool] = {
                "order": score.order_similarity(ref_words, got),
                "words_f1": score.prf(*score.words_counts(ref_words, got))["f1"] or 0.0,
                "error": rec.get("error"),
            }
            totals.setdefault(f"{tool}.order", []).append(row[tool]["order"])
            totals.setdefault(f"{tool}.words_f1", []).append(row[tool]["words_f1"])
        out["files"][pdf.name] = row
    out["mean"] = {k: _mean(v) for k, v in totals.items()}
    return out


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def print_report(report: dict[str, Any]) -> None:
    cols = (
        "order",
        "words F1",
        "head R",
        "head P",
        "level",
        "tbl ruled",
        "tbl partly",
        "tbl unrul",
        "tbl all",
        "furn leak",
        "pages/s",
    )
    for name, sub in report["synthetic"].items():
        ratio = sub.get("parsegate_vs_pdfplumber_speed")
        speed = f", parsegate {ratio}x pdfplumber's pages/s" if ratio else ""
        print(f"\n== {name}: {sub['documents']} documents, {sub['pages']} pages{speed} ==")
        print(f"{'tool':<11}" + "".join(f"{c:>11}" for c in cols))
        for tool, r in sub["tools"].items():
            h, t = r["headings"] or {}, r["tables"] or {}
            cells = [
                r["order"],
                r["words_f1"],
                h.get("recall"),
                h.get("precision"),
                h.get("level_accuracy"),
                *((t.get(s) or {}).get("f1") for s in ("ruled", "partly_ruled", "unruled")),
                (t.get("all") or {}).get("f1"),
                r["furniture_leaked"],
            ]
            line = "".join(f"{_fmt(v, r['headings'] is None and 2 <= k <= 8):>11}" for k, v in enumerate(cells))
            print(f"{tool:<11}{line}{r['pages_per_s']!s:>11}" + (f"  errors={r['errors']}" if r["errors"] else ""))
    real = report.get("real_vs_pdfium_reference")
    if real:
        n = len(real["files"])
        print(f"\n== real PDFs ({n} files in ../shared/corpus/pdf) vs raw PDFium text as REFERENCE, not truth ==")
        print(f"{'tool':<11}{'order':>10}{'words F1':>10}")
        for tool in report["sources"]:
            m = real["mean"]
            print(f"{tool:<11}{_fmt(m.get(f'{tool}.order')):>10}{_fmt(m.get(f'{tool}.words_f1')):>10}")


def _fmt(value: float | None, na: bool = False) -> str:
    if na:
        return "n/a"
    return "-" if value is None else f"{value:.3f}"


if __name__ == "__main__":
    main()
