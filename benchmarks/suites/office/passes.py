"""Passes of one tool over a list of Office files, in a process of its own (docling's
DocumentConverter imports torch, so it runs under a python that has it):

    PYTHON passes.py TOOL PASSES FILES_JSON

TOOL ``parsegate``: each file parsed (docling's format backends for DOCX/PPTX/XLSX, parsegate's
own lxml pass for HTML) and chunked, a fresh token counter and Chunker each pass, warmed up on a
short text outside the corpus; ``docling``: DocumentConverter().convert(), convert only. One
warm-up pass over all files first (imports, backends, models). Prints one JSON line: each
pass's seconds, the documents converted without an error in the last pass, the failures, and the
seconds the import took.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

WARM_UP = b"# Warm up\n\nA short text to load what each tool loads lazily.\n"


def parsegate() -> Callable[[], Callable[[Path], object]]:
    from parsegate.chunkers import ChunkConfig, Chunker

    try:
        from parsegate.chunkers.tokens.counter import load_counter
    except ImportError:  # revisions before 7632d25: chunkers/budget.py
        from parsegate.chunkers.budget import load_counter  # type: ignore[no-redef]
    from parsegate.parsers import markdown
    from parsegate.parsers.registry import parse_file

    def make() -> Callable[[Path], object]:
        getattr(load_counter, "cache_clear", lambda: None)()  # revisions before 8f365e2 cached one counter per process
        chunker = Chunker(ChunkConfig())
        chunker.chunk(markdown.parse(WARM_UP, "warm-up.md"))
        return lambda path: chunker.chunk(parse_file(path))

    return make


def docling() -> Callable[[], Callable[[Path], object]]:
    from docling.document_converter import DocumentConverter

    converter = DocumentConverter()
    return lambda: converter.convert


def one_pass(run: Callable[[Path], object], paths: list[Path]) -> tuple[float, int, list[str]]:
    ok, failed = 0, []
    start = time.perf_counter()
    for path in paths:
        try:
            run(path)
            ok += 1
        except Exception as exc:  # each tool's failures are counted, not fatal
            failed.append(f"{path.name}: {getattr(exc, 'code', type(exc).__name__)}")
    return time.perf_counter() - start, ok, failed


def main() -> None:
    tool, passes, paths = sys.argv[1], int(sys.argv[2]), [Path(p) for p in json.loads(sys.argv[3])]
    started = time.perf_counter()
    make = {"parsegate": parsegate, "docling": docling}[tool]()
    imported = time.perf_counter() - started
    one_pass(make(), paths)  # warm-up
    runs = [one_pass(make(), paths) for _ in range(passes)]
    print(json.dumps({
        "seconds": [r[0] for r in runs], "ok": runs[-1][1], "failed": runs[-1][2], "import_seconds": imported
    }))  # fmt: skip


if __name__ == "__main__":
    main()
