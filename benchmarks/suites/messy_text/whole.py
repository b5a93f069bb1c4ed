"""Whole spans only, in seconds: the share of evidence spans each tool keeps whole, per variant
and budget, without retrieval or timing (the suite's __main__ measures everything; this is the quick loop for
work on boundaries). Optionally prints parsegate's lost spans with the cuts marked. Prints only.

    V=benchmarks/suites/messy_text/.venv/bin
    $V/python -m benchmarks.suites.messy_text.whole --variants pdf --budgets 128,200,256
    $V/python -m benchmarks.suites.messy_text.whole --variants pdf --extractor pdftotext --tools parsegate,semchunk
    $V/python -m benchmarks.suites.messy_text.whole --variants clean,lower --budgets 128 --show-lost 20
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks import harness
from benchmarks.revisions import rerun_in

HERE = Path(__file__).resolve().parent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--revision", default=None, help="parsegate at this git revision (default: the installed one)")
    p.add_argument("--corpus", type=Path, default=harness.FASTAPI, help="fastapi docs folder")
    p.add_argument("--variants", default="clean,lower,no_blank_lines,wrapped80,plain,flat_tables,lower_flat,pdf")
    p.add_argument("--budgets", default="128,200,256")
    p.add_argument("--tools", default="parsegate,semchunk,chonkie,langchain")
    p.add_argument(
        "--extractor", choices=["pdfium", "pdftotext", "pdfminer"], default="pdfium", help="PDF-to-text for pdf"
    )
    p.add_argument("--show-lost", type=int, default=0, help="print up to N of parsegate's lost spans")
    p.add_argument("--workdir", type=Path, default=HERE / ".cache" / "whole", help="where variant files go")
    args = p.parse_args()
    rerun_in(args.revision, "benchmarks.suites.messy_text.whole")
    from benchmarks.suites.messy_text import mt_corpus, mt_metrics, mt_pdf, mt_tools
    from benchmarks.suites.messy_text.mt_bench import load_docs, pdf_subset
    from benchmarks.suites.messy_text.mt_sources import all_sources

    mt_pdf.EXTRACTOR = args.extractor
    corpus = args.corpus
    tok = mt_tools.load_tokenizer()
    sources = all_sources(corpus, 12, 1, False)
    evidence = mt_corpus.draw_all(sources, 1, 3)
    variants = mt_corpus.build(args.variants.split(","), sources, evidence, args.workdir, pdf_subset(False))
    tools = args.tools.split(",")
    print(f"{'variant':15} {'budget':>6}" + "".join(f"{t:>14}" for t in tools))
    for name, variant in variants.items():
        docs, _, _ = load_docs(variant)
        for budget in map(int, args.budgets.split(",")):
            row, lost = [], []
            for tool in tools:
                run = mt_tools.TOOLS[tool](budget, tok)
                chunks = {n: run(d) for n, d in docs.items()}
                whole = mt_metrics.whole_share(variant.located, chunks)
                row.append(f"{sum(whole)}/{len(whole)}")
                if tool == "parsegate":
                    lost = [(loc, chunks[loc.file]) for loc, w in zip(variant.located, whole, strict=True) if not w]
            print(f"{name:15} {budget:>6}" + "".join(f"{c:>14}" for c in row))
            for loc, pieces in lost[: args.show_lost]:
                text = docs[loc.file].text
                cuts = sorted({q.end for q in pieces if loc.start < q.end < loc.end}, reverse=True)
                marked = text[loc.start : loc.end]
                for c in cuts:
                    marked = marked[: c - loc.start] + "|CUT|" + marked[c - loc.start :]
                print(f"    {loc.file} [{loc.start}:{loc.end}] {marked[:300]!r}")


if __name__ == "__main__":
    main()
