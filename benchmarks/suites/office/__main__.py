"""office: Office documents per second over ../shared/corpus/office (18 DOCX/PPTX/XLSX/HTML
files): parsegate (parse + chunk, no torch) against docling's own DocumentConverter (convert
only) for the same files.

Each measurement is a process of its own (passes.py) running one warm-up pass and ``--passes``
timed passes; the tools go in ABBA rounds, and each tool's figure is the documents it converted
without an error over the median of its passes (the same statistic for both; failures are
listed). Every parsegate pass is cold: a fresh token counter and Chunker. DocumentConverter
imports torch, which parsegate's path never does: it runs under ``--docling-python`` (default:
this venv's python when it imports torch and docling; otherwise docling is left out, saying why,
and the result goes to benchmarks/results/office.partial.tmp, never over the comparison).

    python -m benchmarks.suites.office [--docling-python PATH] [--rounds 1] [--passes 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report

CORPUS = harness.SHARED / "office"
SUFFIXES = {".docx", ".pptx", ".xlsx", ".html"}
PASSES = Path(__file__).resolve().with_name("passes.py")
TOOLS = {"parsegate": "parsegate (parse + chunk)", "docling": "docling DocumentConverter (convert only)"}


def has_docling(python: Path) -> bool:
    probe = [str(python), "-c", "import torch, docling.document_converter"]
    return subprocess.run(probe, capture_output=True, env=harness.child_env(), check=False).returncode == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docling-python", type=Path, default=Path(sys.executable))
    parser.add_argument("--rounds", type=int, default=1, help="ABBA rounds: every tool measured twice a round")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    report = Report("office")
    paths = json.dumps([str(p) for p in sorted(CORPUS.iterdir()) if p.suffix in SUFFIXES])
    pythons = {"parsegate": Path(sys.executable), "docling": args.docling_python}
    if not has_docling(args.docling_python):
        del pythons["docling"]
        report.details["left_out"] = f"docling: {args.docling_python} does not import torch and docling"
        print(report.details["left_out"], file=sys.stderr)
    sides = {
        TOOLS[tool]: (lambda tool=tool, python=python: harness.run_json([python, PASSES, tool, args.passes, paths])[0])
        for tool, python in pythons.items()
    }
    measured = harness.abba(sides, args.rounds)
    for name, runs in measured.items():
        seconds = [round(s, 3) for run in runs for s in run["seconds"]]
        ok = runs[-1]["ok"]
        peer = TOOLS["docling"] if name == TOOLS["parsegate"] and len(measured) > 1 else None
        statistic = f"documents / median seconds of {len(seconds)} passes in {len(runs)} processes, ABBA rounds"
        report.add(name, "shared corpus office", "docs_per_s", round(ok / harness.median(seconds), 1), "docs/s",
                   ratio_to=peer, statistic=statistic, samples=seconds)  # fmt: skip
        report.add(name, "shared corpus office", "failed", len(runs[-1]["failed"]), "documents")
        report.details.setdefault("failed", {})[name] = runs[-1]["failed"]
        report.details.setdefault("import_seconds", {})[name] = round(runs[-1]["import_seconds"], 2)
    report.details.update(corpus=str(CORPUS), documents=len(json.loads(paths)),
                          versions=harness.versions("docling", "docling-slim", "docling-core", "torch"))  # fmt: skip
    report.print()
    # Without docling the comparison is not made: parsegate alone never stands in for it.
    alone = None if "docling" in pythons else harness.RESULTS / "office.partial.tmp"
    print(f"written to {report.write(args.out or alone)}")


if __name__ == "__main__":
    main()
