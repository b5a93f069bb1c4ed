"""Office documents per second over ../shared/corpus/office: parsegate (docling's format
backends, mapped and chunked) vs docling's own DocumentConverter for the same formats.

DocumentConverter imports torch, which parsegate's path never does, so it runs in its own
environment: pass that environment's python with --docling-python (a venv with `pip install
torch==2.13.0 docling`); without it, only parsegate is measured.

    .venv/bin/python benchmarks/office_throughput.py [--docling-python /path/to/venv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path

from chunkers import ChunkConfig, Chunker
from parsers.registry import parse_file

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "office"
SUFFIXES = {".docx", ".pptx", ".xlsx", ".html"}

DOCLING_SCRIPT = r"""
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from docling.document_converter import DocumentConverter
converter = DocumentConverter()
imported = time.perf_counter() - t0
paths = [Path(p) for p in json.loads(sys.argv[1])]
converter.convert(paths[0])  # warm-up
start = time.perf_counter()
ok = 0
for p in paths:
    try:
        converter.convert(p)
        ok += 1
    except Exception:
        pass
print(json.dumps({"seconds": time.perf_counter() - start, "ok": ok, "import_seconds": imported}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docling-python", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "office_throughput.json")
    args = parser.parse_args()
    paths = sorted(p for p in CORPUS.iterdir() if p.suffix in SUFFIXES)

    chunker = Chunker(ChunkConfig())
    parse_file(paths[0])
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for p in paths:
            chunker.chunk(parse_file(p))
        best = min(best, time.perf_counter() - start)
    results: dict[str, object] = {
        "parsegate (parse + chunk)": {"seconds": round(best, 3), "docs_per_s": round(len(paths) / best, 1)}
    }
    if args.docling_python:
        done = subprocess.run(
            [str(args.docling_python), "-c", DOCLING_SCRIPT, json.dumps([str(p) for p in paths])],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        try:
            measured = json.loads(done.stdout.strip().splitlines()[-1])
            results["docling DocumentConverter (convert only)"] = {
                "seconds": round(measured["seconds"], 3),
                "docs_per_s": round(measured["ok"] / measured["seconds"], 1),
                "import_seconds": round(measured["import_seconds"], 1),
            }
        except (IndexError, ValueError, KeyError):
            results["docling DocumentConverter (convert only)"] = {"error": done.stderr[-500:]}
    else:
        results["docling DocumentConverter (convert only)"] = {"error": "not measured: pass --docling-python"}
    report = {"corpus": str(CORPUS), "documents": len(paths), "results": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
