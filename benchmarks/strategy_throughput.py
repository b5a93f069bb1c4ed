"""What each chunking strategy costs in time: MB/s over the same Markdown files, one run.

Every strategy gets the same parsed documents (parsing is left out: it is the same for all), the
same all-MiniLM-L6-v2 tokenizer and budget; the statistic is the median of ``--repeat`` passes
after one warm-up pass (imports, the embedding model loaded). Every timed pass starts cold: a
fresh token counter and chunker, warmed up on a short text that is not in the corpus. Output also
counts chunks and parents, and the index overhead (indexed source chars / source chars; stored:
with parents).

    .venv/bin/python benchmarks/strategy_throughput.py                       # a 150 KB slice of the fastapi docs
    .venv/bin/python benchmarks/strategy_throughput.py --max-kb 0 --repeat 1 # the whole corpus
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from cold import cold_chunker  # benchmarks/ is on sys.path: the script's own folder

from parsegate.chunkers import STRATEGIES, ChunkConfig, ConfigError
from parsegate.parsers import markdown
from parsegate.parsers.model import Document

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"
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


def measure(strategy: str, docs: list[Document], budget: int, repeat: int) -> dict[str, Any]:
    config = ChunkConfig(strategy=strategy, max_tokens=budget)
    warm = cold_chunker(config, WARM_UP)
    chunks = [c for d in docs for c in warm.chunk(d)]  # warm-up pass (imports, model); its output is counted
    times = []
    for _ in range(repeat):
        chunker = cold_chunker(config, WARM_UP)  # every pass cold (cold.py)
        clock = time.perf_counter()
        for doc in docs:
            chunker.chunk(doc)
        times.append(time.perf_counter() - clock)
    source = sum(len(d.text) for d in docs)
    named = {c.parent_id for c in chunks if c.parent_id}
    indexed = [c for c in chunks if c.id not in named]
    seconds = statistics.median(times)
    return {
        "strategy": strategy,
        "seconds": round(seconds, 3),
        "mb_per_s": round(source / 1e6 / seconds, 4),
        "chunks": len(indexed),
        "parents": len(named),
        "overhead": round(sum(c.end - c.start for c in indexed) / source, 3),
        "stored_overhead": round(sum(c.end - c.start for c in chunks) / source, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--max-kb", type=int, default=150)
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "strategy_throughput.json")
    args = parser.parse_args()
    docs = documents(args.corpus, args.max_kb)
    source = sum(len(d.text) for d in docs)
    print(f"{len(docs)} files, {source / 1e6:.3f} MB of text, budget {args.budget}, median of {args.repeat}")
    rows = []
    for strategy in (s for s in OURS if s in STRATEGIES):
        try:
            row = measure(strategy, docs, args.budget, args.repeat)
        except ConfigError as exc:  # semantic-embedding without the embed extra
            print(f"{strategy}: skipped: {exc}")
            continue
        rows.append(row)
        print(
            f"{strategy:>20}: {row['mb_per_s']:>8.4f} MB/s  {row['chunks']:>5} chunks  {row['parents']:>4} parents"
            f"  overhead {row['overhead']:.3f} (stored {row['stored_overhead']:.3f})"
        )
    base = next((r for r in rows if r["strategy"] == "structural"), None)
    for row in rows:
        row["time_vs_structural"] = round(row["seconds"] / base["seconds"], 2) if base else None
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "corpus": str(args.corpus),
                "files": len(docs),
                "source_mb": round(source / 1e6, 4),
                "budget": args.budget,
                "repeat": args.repeat,
                "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()},
                "passes": "cold: a fresh token counter and chunker each pass, warmed up on a short other text",
                "results": rows,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
