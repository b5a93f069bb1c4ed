"""One cold pass over a list of files inside one process, run by a revision's own python (so it
imports only that revision's parsegate and nothing of this folder):

    REVISION_PYTHON inprocess.py MODE ROOT FILES_JSON

MODE ``parse_chunk``: each file parsed (its format's parser, chosen as ``run`` chooses it) and
chunked with the default settings; ``worker``: what a ``run`` worker does for it (read, parse,
chunk, and measure every gate metric against the source). A new Chunker on a new token counter,
warmed up on a short text outside the corpus before the clock starts. Prints one JSON line: wall
and CPU seconds of the pass (user + system of the whole process, the tokenizer's threads
included), documents chunked, chunks.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

WARM_UP = b"# Warm up\n\nA short text to load what each tool loads lazily.\n"


def fresh_chunker() -> Any:
    from parsegate.chunkers import ChunkConfig, Chunker

    try:
        from parsegate.chunkers.tokens.counter import load_counter
    except ImportError:  # before the chunkers' rooms (7632d25): chunkers/budget.py
        from parsegate.chunkers.budget import load_counter  # type: ignore[no-redef]

    getattr(load_counter, "cache_clear", lambda: None)()  # revisions before 8f365e2 cached one counter per process
    return Chunker(ChunkConfig())


def worker_process() -> Any:
    try:
        from parsegate.engines.work import process
    except ImportError:  # before the redesign's application rooms (c4e752f)
        from parsegate.pipeline import process  # type: ignore[no-redef]
    return process


def parse_chunk_pass(root: Path, files: list[str]) -> tuple[int, int]:
    from parsegate.parsers.model import ParseError
    from parsegate.parsers.registry import parse_data, parse_file

    chunker = fresh_chunker()
    chunker.chunk(parse_data(WARM_UP, Path("warm-up.md"), "warm-up.md"))
    documents = chunks = 0
    started, cpu = time.perf_counter(), os.times()
    for name in files:
        try:
            doc = parse_file(root / name, name)
        except ParseError:
            continue
        chunks += len(chunker.chunk(doc))
        documents += 1
    return _report(started, cpu, documents, chunks)


def worker_pass(root: Path, files: list[str], warm_up: Path) -> tuple[int, int]:
    process = worker_process()
    chunker = fresh_chunker()
    process(warm_up, "warm-up.md", chunker)
    documents = chunks = 0
    started, cpu = time.perf_counter(), os.times()
    for name in files:
        outcome, lines = process(root / name, name, chunker)
        documents += outcome.status == "chunked"
        chunks += len(lines)
    return _report(started, cpu, documents, chunks)


def _report(started: float, cpu: os.times_result, documents: int, chunks: int) -> tuple[int, int]:
    now = os.times()
    print(json.dumps({
        "wall": time.perf_counter() - started,
        "cpu": now.user + now.system - cpu.user - cpu.system,
        "documents": documents,
        "chunks": chunks,
    }))  # fmt: skip
    return documents, chunks


def main() -> None:
    mode, root, listing = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    files = json.loads(listing.read_text())
    if mode == "parse_chunk":
        parse_chunk_pass(root, files)
    else:
        warm_up = listing.with_name("warm-up.md")
        warm_up.write_bytes(WARM_UP)
        worker_pass(root, files, warm_up)


if __name__ == "__main__":
    main()
