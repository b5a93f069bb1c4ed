"""strategies: what each chunking strategy costs in time, MB/s over the same Markdown files.

Every strategy gets the same parsed documents (parsing is left out: it is the same for all), the
same all-MiniLM-L6-v2 tokenizer and budget. One warm-up pass per strategy (imports, the embedding
model loaded), then ABBA rounds of the strategies, one timed pass each time; each strategy's
figure is the median of its passes, and its time against structural's. Every timed pass starts
cold: a fresh token counter and chunker, warmed up on a short text that is not in the corpus.
Output also counts chunks and parents, and the index overhead (indexed source chars / source
chars; stored: with parents). semantic-embedding needs the embed extra (torch); without it, it
is left out, saying why.

    python -m benchmarks.suites.strategies                          # a 150 KB slice of the fastapi docs
    python -m benchmarks.suites.strategies --max-kb 0 --rounds 1    # the whole corpus
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from parsegate.chunkers import STRATEGIES, ChunkConfig, ConfigError
from parsegate.parsers import markdown
from parsegate.parsers.model import Document

OURS = ("structural", "parent-child", "semantic-lexical", "semantic-embedding", "recursive")
WARM_UP = (
    b"# Warm up\n\nA short text to load what each strategy loads lazily. It is not part of the corpus.\n\n"
    b"## A second section\n\nIt has a few sentences. The detectors compare them. Then the clock starts.\n"
)


def documents(corpus: Path, max_kb: int) -> list[Document]:
    """Files in name order until ``max_kb`` (0: all)."""
    docs, size = [], 0
    for path in sorted(corpus.rglob("*.md")):
        data = path.read_bytes()
        if max_kb and size + len(data) > max_kb * 1024:
            continue
        docs.append(markdown.parse(data, str(path.relative_to(corpus))))
        size += len(data)
    return docs


def warm_pass(strategy: str, docs: list[Document], budget: int) -> dict[str, Any]:
    """The warm-up pass (imports, the model): what the strategy makes of the corpus."""
    chunker = harness.cold_chunker(ChunkConfig(strategy=strategy, max_tokens=budget), WARM_UP)
    chunks = [c for d in docs for c in chunker.chunk(d)]
    source = sum(len(d.text) for d in docs)
    named = {c.parent_id for c in chunks if c.parent_id}
    indexed = [c for c in chunks if c.id not in named]
    return {
        "chunks": len(indexed),
        "parents": len(named),
        "overhead": round(sum(c.end - c.start for c in indexed) / source, 3),
        "stored_overhead": round(sum(c.end - c.start for c in chunks) / source, 3),
    }


def cold_pass(strategy: str, docs: list[Document], budget: int) -> float:
    chunker = harness.cold_chunker(ChunkConfig(strategy=strategy, max_tokens=budget), WARM_UP)
    return harness.timed(lambda: [chunker.chunk(doc) for doc in docs])[1].wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=harness.FASTAPI)
    parser.add_argument("--max-kb", type=int, default=150)
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=2, help="ABBA rounds: every strategy timed twice a round")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    report = Report("strategies")
    docs = documents(args.corpus, args.max_kb)
    source = sum(len(d.text) for d in docs)
    print(f"{len(docs)} files, {source / 1e6:.3f} MB of text, budget {args.budget}")
    shapes = {}
    for strategy in (s for s in OURS if s in STRATEGIES):
        try:
            shapes[strategy] = warm_pass(strategy, docs, args.budget)
        except ConfigError as exc:  # semantic-embedding without the embed extra
            report.details.setdefault("left_out", {})[strategy] = str(exc)
            print(f"{strategy}: left out: {exc}")
    sides = {strategy: (lambda strategy=strategy: cold_pass(strategy, docs, args.budget)) for strategy in shapes}
    corpus = f"{args.corpus.name} ({len(docs)} files)"
    for strategy, seconds in harness.abba(sides, args.rounds).items():
        samples = [round(t, 4) for t in seconds]
        statistic = f"median of {len(samples)} cold passes, ABBA rounds"
        peer = None if strategy == "structural" else "structural"
        report.add(strategy, corpus, "seconds", round(harness.median(samples), 4), "s", ratio_to=peer,
                   statistic=statistic, samples=samples)  # fmt: skip
        report.add(strategy, corpus, "mb_per_s", round(source / 1e6 / harness.median(samples), 4), "MB/s",
                   statistic=statistic)  # fmt: skip
        for metric, value in shapes[strategy].items():
            report.add(strategy, corpus, metric, value, "chunks" if metric in ("chunks", "parents") else "ratio")
    report.details.update(corpus=str(args.corpus), files=len(docs), source_mb=round(source / 1e6, 4),
                          budget=args.budget)  # fmt: skip
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
