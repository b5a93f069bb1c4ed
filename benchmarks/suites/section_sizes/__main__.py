"""section_sizes: how big documentation sections are, in tokens: the figure behind parent-child's default
parent budget (4x the model limit: 1024 tokens for all-MiniLM-L6-v2).

A level-N section runs from its heading to the next heading of level N or higher, its
subsections included. Its tokens are counted with the same tokenizer on the section's source
text (no special tokens). Prints and writes the share of sections that fit 512 and 1024 tokens.

    python -m benchmarks.suites.section_sizes [--corpus PATH] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report
from parsegate.chunkers.tokens.counter import load_counter
from parsegate.parsers import markdown

BUDGETS = (512, 1024)


def sections(text: str, headings: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
    """(start, end) of every section by level, from its heading's start to the next heading of
    the same or a higher level (or the end of the document)."""
    out: dict[int, list[tuple[int, int]]] = {}
    for n, (start, level) in enumerate(headings):
        end = next((s for s, lv in headings[n + 1 :] if lv <= level), len(text))
        out.setdefault(level, []).append((start, end))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", type=Path, default=harness.FASTAPI)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    counter = load_counter("all-MiniLM-L6-v2")
    by_level: dict[int, list[int]] = {}
    files = sorted(args.corpus.rglob("*.md"))
    for path in files:
        doc = markdown.parse(path.read_bytes(), path.name)
        heads = [(e.start, e.level or 1) for e in doc.elements if e.kind == "heading"]
        for level, spans in sections(doc.text, heads).items():
            by_level.setdefault(level, []).extend(counter.count_many([doc.text[s:e] for s, e in spans]))
    result = {
        "corpus": str(args.corpus),
        "files": len(files),
        "tokenizer": "all-MiniLM-L6-v2 (no special tokens)",
        "levels": {
            str(level): {
                "sections": len(sizes),
                "median_tokens": sorted(sizes)[len(sizes) // 2],
                **{f"fit_{b}": round(sum(n <= b for n in sizes) / len(sizes), 3) for b in BUDGETS},
            }
            for level, sizes in sorted(by_level.items())
        },
    }
    for level, row in result["levels"].items():
        print(f"level {level}: {row}")
    report = Report("section_sizes")
    for level, row in result["levels"].items():
        corpus = f"{args.corpus.name}: level-{level} sections ({row['sections']})"
        report.add("all-MiniLM-L6-v2 tokens", corpus, "median_tokens", row["median_tokens"], "tokens")
        for budget in BUDGETS:
            report.add("all-MiniLM-L6-v2 tokens", corpus, f"fit_{budget}", row[f"fit_{budget}"], "share")
    report.details = result
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
