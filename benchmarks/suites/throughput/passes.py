"""Cold passes of one chunker over a Markdown corpus, in a process of their own (run by whichever
python holds the parsegate to measure: this venv's, or a revision's from benchmarks/revisions.py):

    PYTHON passes.py TOOL CORPUS PASSES BUDGET

TOOL is parsegate (Markdown parse + structural chunking + the budget check of embed_text),
chonkie, semchunk or langchain; every tool gets the same all-MiniLM-L6-v2 tokenizer.json. Each
pass builds the tool anew (parsegate's token counter remembers words, semchunk memoizes counts:
a tool kept from a pass before would be measured on its cache) and warms it up on a short text
outside the corpus before the clock starts. Prints one JSON line: every pass's seconds, and the
chunks of the last pass counted with the shared tokenizer (no special tokens).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

WARM_UP = b"# Warm up\n\nA short text to load what each tool loads lazily.\n"
Chunk = Callable[[str, bytes], list[str]]


def tokenizer() -> Any:
    from tokenizers import Tokenizer

    try:
        from parsegate.chunkers.tokens.counter import default_tokenizer_path
    except ImportError:  # revisions before 7632d25: chunkers/budget.py
        from parsegate.chunkers.budget import default_tokenizer_path  # type: ignore[no-redef]

    tok = Tokenizer.from_file(str(default_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()
    return tok


def parsegate(tok: Any, budget: int) -> Chunk:
    from parsegate.chunkers import ChunkConfig, Chunker

    try:
        from parsegate.chunkers.tokens.counter import load_counter
    except ImportError:  # revisions before 7632d25: chunkers/budget.py
        from parsegate.chunkers.budget import load_counter  # type: ignore[no-redef]
    from parsegate.parsers import markdown

    getattr(load_counter, "cache_clear", lambda: None)()  # revisions before 8f365e2 cached one counter per process
    chunker = Chunker(ChunkConfig(max_tokens=budget))
    return lambda name, data: [c.embed_text for c in chunker.chunk(markdown.parse(data, name))]


def chonkie(tok: Any, budget: int) -> Chunk:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=tok, chunk_size=budget)
    return lambda name, data: [c.text for c in chunker.chunk(data.decode("utf-8"))]


def semchunk(tok: Any, budget: int) -> Chunk:
    import semchunk

    chunker = semchunk.chunkerify(tok, budget)
    return lambda name, data: list(chunker(data.decode("utf-8")))


def langchain(tok: Any, budget: int) -> Chunk:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    def length(text: str) -> int:
        return len(tok.encode(text, add_special_tokens=False).ids)

    splitter = RecursiveCharacterTextSplitter(chunk_size=budget, chunk_overlap=0, length_function=length)
    return lambda name, data: splitter.split_text(data.decode("utf-8"))


TOOLS = {"parsegate": parsegate, "chonkie": chonkie, "semchunk": semchunk, "langchain": langchain}


def main() -> None:
    tool, corpus, passes, budget = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    files = [(p.relative_to(corpus).as_posix(), p.read_bytes()) for p in sorted(corpus.rglob("*.md"))]
    tok = tokenizer()
    seconds, chunks = [], []
    for _ in range(passes):
        run = TOOLS[tool](tok, budget)
        run("warm-up.md", WARM_UP)
        started = time.perf_counter()
        chunks = [c for name, data in files for c in run(name, data)]
        seconds.append(time.perf_counter() - started)
    lengths = [len(e.ids) for e in tok.encode_batch(chunks, add_special_tokens=False)]
    print(json.dumps({
        "seconds": seconds,
        "megabytes": sum(len(d) for _, d in files) / 1e6,
        "chunks": len(chunks),
        "mean_tokens": round(statistics.mean(lengths), 1),
        "over_budget": sum(n > budget for n in lengths),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
