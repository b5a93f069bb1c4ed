"""Office documents per second over ../shared/corpus/office: parsegate (docling's format
backends for DOCX/PPTX/XLSX, its own lxml pass for HTML; parsed and chunked) vs docling's own
DocumentConverter for the same files. Same statistic for both: the median of --repeat passes
over all files after one warm-up pass, documents per second counting only files converted
without an error (each tool's failures are reported). Each parsegate pass starts cold: a fresh
token counter and chunker, warmed up on a short text that is not in the corpus.

DocumentConverter imports torch, which parsegate's path never does, so it runs in its own
environment: pass that environment's python with --docling-python (a venv made with
`pip install torch==2.13.0` first, then `pip install docling -c constraints` pinning that torch,
so pip never pulls a CUDA build); without it, only parsegate is measured.

    .venv/bin/python benchmarks/office_throughput.py [--docling-python /path/to/venv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from cold import cold_chunker  # benchmarks/ is on sys.path: the script's own folder

from parsegate.chunkers import ChunkConfig
from parsegate.parsers.model import ParseError
from parsegate.parsers.registry import parse_file

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "office"
SUFFIXES = {".docx", ".pptx", ".xlsx", ".html"}

DOCLING_SCRIPT = r"""
import json, statistics, sys, time
from pathlib import Path
t0 = time.perf_counter()
from docling.document_converter import DocumentConverter
converter = DocumentConverter()
imported = time.perf_counter() - t0
paths = [Path(p) for p in json.loads(sys.argv[1])]
repeat = int(sys.argv[2])
def one_pass():
    ok, failed = 0, []
    start = time.perf_counter()
    for p in paths:
        try:
            converter.convert(p)
            ok += 1
        except Exception as exc:
            failed.append(f"{p.name}: {type(exc).__name__}")
    return time.perf_counter() - start, ok, failed
one_pass()  # warm-up
runs = [one_pass() for _ in range(repeat)]
print(json.dumps({"seconds": statistics.median(r[0] for r in runs), "ok": runs[-1][1], "failed": runs[-1][2],
                  "import_seconds": imported}))
"""


def parsegate_pass(paths: list[Path]) -> tuple[float, int, list[str]]:
    chunker = cold_chunker(ChunkConfig())  # every pass cold (cold.py)
    ok, failed = 0, []
    start = time.perf_counter()
    for p in paths:
        try:
            chunker.chunk(parse_file(p))
            ok += 1
        except ParseError as exc:
            failed.append(f"{p.name}: {exc.code}")
    return time.perf_counter() - start, ok, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docling-python", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "office_throughput.json")
    args = parser.parse_args()
    paths = sorted(p for p in CORPUS.iterdir() if p.suffix in SUFFIXES)
    load_before = os.getloadavg()  # other work on the machine slows every tool: say how much there was

    parsegate_pass(paths)  # warm-up: imports, docling's backends (its counter is dropped with it)
    runs = [parsegate_pass(paths) for _ in range(args.repeat)]
    seconds, ok, failed = statistics.median(r[0] for r in runs), runs[-1][1], runs[-1][2]
    results: dict[str, object] = {
        "parsegate (parse + chunk)": {
            "seconds": round(seconds, 3),
            "docs_per_s": round(ok / seconds, 1),
            "ok": ok,
            "failed": failed,
        }
    }
    if args.docling_python:
        done = subprocess.run(
            [str(args.docling_python), "-c", DOCLING_SCRIPT, json.dumps([str(p) for p in paths]), str(args.repeat)],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        try:
            measured = json.loads(done.stdout.strip().splitlines()[-1])
            results["docling DocumentConverter (convert only)"] = {
                "seconds": round(measured["seconds"], 3),
                "docs_per_s": round(measured["ok"] / measured["seconds"], 1),
                "ok": measured["ok"],
                "failed": measured["failed"],
                "import_seconds": round(measured["import_seconds"], 1),
            }
        except (IndexError, ValueError, KeyError):
            results["docling DocumentConverter (convert only)"] = {"error": done.stderr[-500:]}
    else:
        results["docling DocumentConverter (convert only)"] = {"error": "not measured: pass --docling-python"}
    report = {
        "corpus": str(CORPUS),
        "documents": len(paths),
        "statistic": f"median of {args.repeat} passes after one warm-up pass",
        "parsegate_passes": "cold: a fresh token counter and chunker each pass, warmed up on a short other text",
        "results": results,
        "cores": os.cpu_count(),
        "load_average_1min": {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
