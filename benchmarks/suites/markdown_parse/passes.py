"""Passes of the Markdown parser over a corpus, in a process of its own (run by a revision's python,
so that it imports that revision's parser):

    PYTHON passes.py CORPUS PASSES

The files are read into memory first; one warm-up pass (imports, caches, the code parser for
fenced code), then PASSES timed passes of ``markdown.parse`` over every file. Prints one JSON line:
each pass's seconds.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main() -> None:
    from parsegate.parsers import markdown

    corpus, passes = Path(sys.argv[1]), int(sys.argv[2])
    inputs = [(p.relative_to(corpus).as_posix(), p.read_bytes()) for p in sorted(corpus.rglob("*.md")) if p.is_file()]
    seconds = []
    for _ in range(passes + 1):
        started = time.perf_counter()
        for name, data in inputs:
            markdown.parse(data, name)
        seconds.append(time.perf_counter() - started)
    print(json.dumps({"seconds": seconds[1:], "files": len(inputs), "megabytes": sum(len(d) for _, d in inputs) / 1e6}))


if __name__ == "__main__":
    main()
