"""One cold process, run by a revision's own python: parse and chunk a list of files, then the
gate's counts of every chunk three ways, each timed on its own (CPU seconds of this process,
the tokenizer on one thread as in a worker of two):

- ``measure``: the gate's whole ``measure()`` of every document (its references included);
- ``recount``: its token counts alone (quality_gates/checks/counts.py): every ``embed_text``
  encoded by the tokenizer, and every text;
- ``per_run``: what counting each ``embed_text`` by its runs would cost: the text split at
  whitespace, each distinct run encoded once by the tokenizer and remembered, a chunk's count
  the sum of its runs' plus the special tokens. Exact only for a tokenizer whose tokens never
  span whitespace; whether it equals the real count is checked on every chunk.

    REVISION_PYTHON passes.py ROOT FILES_JSON      # prints one JSON line
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ["RAYON_NUM_THREADS"] = "1"  # before tokenizers loads: one thread, as in a worker of two
os.environ["TOKENIZERS_PARALLELISM"] = "false"


def cpu() -> float:
    t = os.times()
    return t.user + t.system


def main() -> None:
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.parsers.model import ParseError
    from parsegate.parsers.registry import parse_file
    from parsegate.quality_gates.checks.counts import count_tokens, resolver
    from parsegate.quality_gates.measure import measure

    root, files = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text())
    chunker = Chunker(ChunkConfig())
    counter = chunker.counter
    tokenizers = resolver(counter)
    warm = parse_file(Path(__file__), "passes.py")  # what each step loads lazily, outside the clock
    count_tokens(chunker.chunk(warm), tokenizers)
    seconds: dict[str, float] = {}
    started = cpu()
    docs = []
    for name in files:
        try:
            docs.append(parse_file(root / name, name))
        except ParseError:
            continue
    seconds["parse"] = cpu() - started
    started = cpu()
    chunked = [(doc, chunker.chunk(doc)) for doc in docs]
    seconds["chunk"] = cpu() - started
    started = cpu()
    real = [count_tokens(chunks, tokenizers).embedded for _, chunks in chunked]
    seconds["recount"] = cpu() - started
    started = cpu()
    runs = per_run([chunks for _, chunks in chunked], counter.tokenizer, counter.specials)
    seconds["per_run"] = cpu() - started
    started = cpu()
    for doc, chunks in chunked:
        source = (root / doc.doc_id).read_bytes()
        measure(doc, chunks, counter, chunker.config.max_tokens, source=source)
    seconds["measure"] = cpu() - started
    flat_real = [n for counts in real for n in counts]
    flat_runs = [n for counts in runs for n in counts]
    print(json.dumps({
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "documents": len(docs),
        "chunks": len(flat_real),
        "embedded_chars": sum(len(c.embed_text) for _, chunks in chunked for c in chunks),
        "per_run_differs": sum(a != b for a, b in zip(flat_real, flat_runs, strict=True)),
    }))  # fmt: skip


def per_run(documents: list[Any], tokenizer: Any, specials: int) -> list[list[int]]:
    remembered: dict[str, int] = {}
    out = []
    for chunks in documents:
        split = [c.embed_text.split() for c in chunks]
        new = list({run for runs in split for run in runs if run not in remembered})
        if new:
            counts = tokenizer.encode_batch_fast(new, add_special_tokens=False)
            remembered.update(zip(new, map(len, counts), strict=True))
        out.append([specials + sum(map(remembered.__getitem__, runs)) for runs in split])
    return out


if __name__ == "__main__":
    main()
