"""One document through the worker's whole path, each stage timed (run in a fresh process by the
suite, so every measurement is cold):

    python benchmarks/suites/linearity/stages.py FILE [--warm-up SMALL] [--layout DIR]

``--warm-up``: a small file of the same shape run through the whole path first, untimed, so that
what a format loads once (docling, a grammar) is not counted as the cost of the size.
``--layout``: another checkout's ``build/layout`` (its ``.ci/layout_tree.py`` makes it), put
first on ``sys.path`` so that its parsegate is measured instead of the installed one.

What ``parsegate.engines.work.process`` does, stage by stage: read, parse, chunk with the default
settings, and the gate's ``measure`` with the full sample (every expensive reference). Prints one
JSON line: CPU seconds (user + system of this process and its children) of parse, chunk and gate, the outcome's
code when a stage refused the file, chunks, and the process's peak resident set in MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any


def cpu() -> float:
    """User + system seconds of this process and the children it waited for (LibreOffice)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run(path: Path, warm_up: Path | None = None) -> dict[str, Any]:
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.parsers.model import ParseError
    from parsegate.parsers.options import DEFAULTS
    from parsegate.parsers.registry import parse_data, read_regular_file
    from parsegate.quality_gates.measure import measure
    from parsegate.quality_gates.sample import FULL

    chunker = Chunker(ChunkConfig())
    chunker.chunk(parse_data(b"# Warm up\n\nA short text.\n", Path("warm-up.md"), "warm-up.md"))
    if warm_up is not None:
        small = warm_up.read_bytes()
        doc = parse_data(small, warm_up, warm_up.name, DEFAULTS)
        chunks = chunker.chunk(doc)
        measure(doc, chunks, chunker.counter, chunker.max_tokens, small, None, None, True)
    out: dict[str, Any] = {"parse": None, "chunk": None, "gate": None, "code": None, "chunks": None}
    started = time.perf_counter()
    try:
        data = read_regular_file(path, follow_symlinks=False)
        t = cpu()
        doc = parse_data(data, path, path.name, DEFAULTS)
        out["parse"] = round(cpu() - t, 3)
        t = cpu()
        chunks = chunker.chunk(doc)
        out["chunk"] = round(cpu() - t, 3)
        out["chunks"] = len(chunks)
        t = cpu()
        measure(doc, chunks, chunker.counter, chunker.max_tokens, data, chunker.config.parent_tokens,
                None, FULL.sampled(path.name))  # fmt: skip
        out["gate"] = round(cpu() - t, 3)
    except ParseError as exc:
        out["code"] = exc.code
    except RecursionError:
        out["code"] = "too_deep"
    out["wall"] = round(time.perf_counter() - started, 3)
    out["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("file", type=Path)
    p.add_argument("--warm-up", type=Path)
    p.add_argument("--layout")
    args = p.parse_args()
    if args.layout:
        sys.path.insert(0, args.layout)
    print(json.dumps(run(args.file, args.warm_up)))
