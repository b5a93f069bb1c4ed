"""pdf_speed: PDF pages per second over ../shared/corpus/pdf (16 readable files, 54 pages):
parsegate's full parse (reading order, headings, furniture, tables) against PDFium's raw text
layer (pypdfium2 ``get_text_range``, the text parsegate starts from), pdfplumber's
``page.extract_text()`` and pdfminer.six's ``extract_text()``.

Each measurement is a fresh process (so its peak memory is its own) that loads its library on one
file, then times one pass over every file; the tools go in ABBA rounds, and a tool's figure is
pages over the median of its passes. Peak memory: the largest resident set of its processes.

    python -m benchmarks.suites.pdf_speed [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report

CORPUS = harness.SHARED / "pdf"
SKIP = {"empty.pdf", "password-example.pdf"}  # no pages to read without a password or bytes
TOOLS = {
    "parsegate (full parse)": "from parsegate.parsers import pdf\nrun = lambda p: pdf.parse(p.read_bytes(), p.name)",
    "PDFium text layer": (
        "import pypdfium2\n"
        "def run(p):\n"
        "    doc = pypdfium2.PdfDocument(p)\n"
        "    for page in doc: page.get_textpage().get_text_range()\n"
        "    doc.close()"
    ),
    "pdfplumber extract_text": (
        "import pdfplumber\n"
        "def run(p):\n"
        "    with pdfplumber.open(p) as doc:\n"
        "        for page in doc.pages: page.extract_text()"
    ),
    "pdfminer.six extract_text": "from pdfminer.high_level import extract_text\nrun = lambda p: extract_text(str(p))",
}
ONE_PASS = r"""
import json, sys, time
from pathlib import Path
{setup}
paths = [Path(p) for p in json.loads(sys.argv[1])]
run(paths[0])  # the library loaded, outside the clock
start = time.perf_counter()
for p in paths:
    run(p)
print(json.dumps({{"seconds": time.perf_counter() - start}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2, help="ABBA rounds: every tool measured twice a round")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    import pypdfium2

    report = Report("pdf_speed")
    paths = sorted(p for p in CORPUS.glob("*.pdf") if p.name not in SKIP)
    pages = sum(len(pypdfium2.PdfDocument(p)) for p in paths)
    listing = json.dumps([str(p) for p in paths])

    def one(setup: str) -> tuple[float, float]:
        out, timing = harness.run_json([sys.executable, "-c", ONE_PASS.format(setup=setup), listing])
        return out["seconds"], timing.peak_mb

    measured = harness.abba({name: (lambda setup=setup: one(setup)) for name, setup in TOOLS.items()}, args.rounds)
    ours = next(iter(TOOLS))
    for name, runs in measured.items():
        seconds = [round(s, 3) for s, _ in runs]
        statistic = f"pages / median seconds of {len(seconds)} passes, each in a fresh process, ABBA rounds"
        for peer in [t for t in TOOLS if t != ours] if name == ours else [None]:
            report.add(name, "shared corpus pdf", "pages_per_s", round(pages / harness.median(seconds), 1), "pages/s",
                       ratio_to=peer, statistic=statistic, samples=seconds)  # fmt: skip
        report.add(name, "shared corpus pdf", "peak_mb", round(max(peak for _, peak in runs)), "MB")
    report.details.update(corpus=str(CORPUS), files=len(paths), pages=pages,
                          versions=harness.versions("pypdfium2", "pdfplumber", "pdfminer.six"))  # fmt: skip
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
