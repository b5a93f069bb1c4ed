"""PDF pages per second over ../shared/corpus/pdf, in one run, each tool in its own process
(so its peak memory is its own): parsegate's full parse (reading order, headings, furniture,
tables), pdfplumber's page.extract_text(), pdfminer.six's extract_text().

    .venv/bin/python benchmarks/pdf_throughput.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "pdf"
SKIP = {"empty.pdf", "password-example.pdf"}  # no pages to read without a password or bytes

TOOLS = {
    "parsegate (full parse)": "from parsegate.parsers import pdf\nrun = lambda p: pdf.parse(p.read_bytes(), p.name)",
    "pdfplumber extract_text": (
        "import pdfplumber\n"
        "def run(p):\n"
        "    with pdfplumber.open(p) as doc:\n"
        "        for page in doc.pages: page.extract_text()"
    ),
    "pdfminer.six extract_text": "from pdfminer.high_level import extract_text\nrun = lambda p: extract_text(str(p))",
}
HARNESS = r"""
import json, resource, sys, time
from pathlib import Path
{setup}
paths = [Path(p) for p in json.loads(sys.argv[1])]
repeat = int(sys.argv[2])
run(paths[0])
best = float("inf")
for _ in range(repeat):
    start = time.perf_counter()
    for p in paths:
        run(p)
    best = min(best, time.perf_counter() - start)
print(json.dumps({{"seconds": best, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "pdf_throughput.json")
    args = parser.parse_args()
    import pypdfium2

    paths = sorted(p for p in CORPUS.glob("*.pdf") if p.name not in SKIP)
    pages = sum(len(pypdfium2.PdfDocument(p)) for p in paths)
    results = {}
    for name, setup in TOOLS.items():
        done = subprocess.run(
            [sys.executable, "-c", HARNESS.format(setup=setup), json.dumps([str(p) for p in paths]), str(args.repeat)],
            capture_output=True,
            text=True,
            cwd=HERE.parent,
        )
        try:
            m = json.loads(done.stdout.strip().splitlines()[-1])
            results[name] = {"pages_per_s": round(pages / m["seconds"], 1), "seconds": round(m["seconds"], 2),
                             "peak_mb": round(m["peak_mb"])}  # fmt: skip
        except (IndexError, ValueError):
            results[name] = {"error": done.stderr[-400:]}
    plumber = results.get("pdfplumber extract_text", {}).get("pages_per_s")
    ours = results.get("parsegate (full parse)", {}).get("pages_per_s")
    report = {
        "corpus": str(CORPUS),
        "files": len(paths),
        "pages": pages,
        "results": results,
        "parsegate_vs_pdfplumber": round(ours / plumber, 2) if ours and plumber else None,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
