"""gate_recount: what the gate's real token recount costs beside the work it checks (issue 38).

The gate counts every ``embed_text`` with the tokenizer its chunk names (quality_gates/checks/
counts.py), so that no budget rests on the chunker's own arithmetic. Issue 38 asks for a whole
``run`` within 1.5x the CPU of parse + chunk, the gate's share at most 25 %, every check still
independent. This suite measures whether the recount alone leaves room for that: for each corpus,
fresh processes of this checkout (``passes.py``, installed as the harness installs a revision),
the tokenizer on one thread as in a worker of two, the CPU seconds of parse, chunk, the gate's
recount alone, its whole ``measure()``, and a recount by whitespace runs (each distinct run
encoded once; exact only where no token spans whitespace, checked against the real count on
every chunk). Rows: the median of the passes, each beside parse + chunk as a ratio.

    python -m benchmarks.suites.gate_recount                  # 3 passes per corpus
    python -m benchmarks.suites.gate_recount --passes 5 --corpus md=/path/to/folder
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import Revision, revision

PASSES = Path(__file__).resolve().with_name("passes.py")
CORPORA = {"fastapi-docs": harness.FASTAPI, "shared corpus (all formats)": harness.SHARED}
STEPS = {
    "parse": "parse",
    "chunk": "chunk",
    "recount": "the gate's recount of every embed_text (as now)",
    "per_run": "a recount by whitespace runs, each encoded once",
    "measure": "the gate's whole measure()",
}


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--passes", type=int, default=3, help="fresh processes per corpus (default 3)")
    p.add_argument("--revision", default=None, help="measure this git revision instead of the checkout's files")
    p.add_argument("--corpus", action="append", default=[], metavar="NAME=PATH", help="instead of the defaults")
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def files_of(corpus: Path) -> list[str]:
    """Every file of the corpus, relative, in sorted order (passes.py leaves out those no parser reads)."""
    return sorted(str(p.relative_to(corpus)) for p in corpus.rglob("*") if p.is_file())


def report_corpus(report: Report, name: str, corpus: Path, rev: Revision, passes: int) -> None:
    with tempfile.TemporaryDirectory(prefix="gate-recount-") as tmp:
        listing = Path(tmp) / "files.json"
        listing.write_text(json.dumps(files_of(corpus)))
        argv = [rev.python, PASSES, corpus, listing]
        results: list[dict[str, Any]] = [harness.run_json(argv)[0] for _ in range(passes)]
    statistic = f"median of {passes} fresh processes, one tokenizer thread"
    medians: dict[str, float] = {}
    for step in STEPS:
        samples = [r["seconds"][step] for r in results]
        medians[step] = round(harness.median(samples), 3)
        report.add(STEPS[step], name, "cpu_s", medians[step], "s", statistic=statistic, samples=samples)
    pairs = [round(r["seconds"]["parse"] + r["seconds"]["chunk"], 3) for r in results]
    base = "parse + chunk"
    report.add(base, name, "cpu_s", round(harness.median(pairs), 3), "s", statistic=statistic, samples=pairs)
    for step in ("recount", "per_run", "measure"):
        report.add(STEPS[step], name, "cpu_s", medians[step], "s", ratio_to=base, statistic=statistic)
    last = results[-1]
    report.details.setdefault("corpora", {})[name] = {
        "path": str(corpus),
        "documents": last["documents"],
        "chunks": last["chunks"],
        "embedded_chars": last["embedded_chars"],
        "per_run_counts_differing_from_the_real_ones": last["per_run_differs"],
    }


def main() -> None:
    args = arguments()
    corpora = dict(item.split("=", 1) for item in args.corpus) if args.corpus else CORPORA
    rev = revision(args.revision)
    report = Report("gate_recount", commit=rev.label)
    for name, path in corpora.items():
        report_corpus(report, name, Path(path), rev, args.passes)
        print(f"{name}: done", flush=True)
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
