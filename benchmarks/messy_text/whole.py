"""Whole spans only, in seconds: the share of evidence spans each tool keeps whole, per variant
and budget, without retrieval or timing (run.py measures everything; this is the quick loop for
work on boundaries). Optionally prints parsegate's lost spans with the cuts marked.

    V=benchmarks/messy_text/.venv/bin
    $V/python benchmarks/messy_text/whole.py --variants pdf --budgets 128,200,256
    $V/python benchmarks/messy_text/whole.py --variants pdf --extractor pdftotext --tools parsegate,semchunk
    $V/python benchmarks/messy_text/whole.py --variants clean,lower --budgets 128 --show-lost 20
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", type=Path, default=HERE.parent.parent, help="the parsegate checkout to measure")
    p.add_argument("--corpus", type=Path, default=None, help="fastapi docs folder")
    p.add_argument("--variants", default="clean,lower,no_blank_lines,wrapped80,plain,flat_tables,lower_flat,pdf")
    p.add_argument("--budgets", default="128,200,256")
    p.add_argument("--tools", default="parsegate,semchunk,chonkie,langchain")
    p.add_argument(
        "--extractor", choices=["pdfium", "pdftotext", "pdfminer"], default="pdfium", help="PDF-to-text for pdf"
    )
    p.add_argument("--show-lost", type=int, default=0, help="print up to N of parsegate's lost spans")
    p.add_argument("--workdir", type=Path, default=HERE / ".cache" / "whole", help="where variant files go")
    args = p.parse_args()
    sys.path.insert(0, str(args.repo.resolve()))
    import mt_corpus
    import mt_metrics
    import mt_pdf
    import mt_tools
    from mt_bench import load_docs, pdf_subset
    from mt_sources import all_sources

    mt_pdf.EXTRACTOR = args.extractor
    corpus = args.corpus or args.repo.resolve().parent / "shared" / "corpus" / "markdown" / "fastapi-docs"
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
