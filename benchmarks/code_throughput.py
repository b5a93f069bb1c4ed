"""Code chunking throughput: parse + chunk over the Python standard library, one run.

parsegate (tree-sitter units, budget 256 all-MiniLM-L6-v2 tokens) in one process and on all
cores, side by side with LlamaIndex's CodeSplitter and chonkie's CodeChunker where they run
offline here (a peer that cannot run is reported with the reason).

    .venv/bin/python benchmarks/code_throughput.py [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tokenizers import Tokenizer

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.budget import default_tokenizer_path
from parsegate.parsers import code
from parsegate.parsers.model import ParseError

HERE = Path(__file__).resolve().parent
STDLIB = Path(sysconfig.get_paths()["stdlib"])
BUDGET = 256
# Not in the corpus: each tool (and each worker) loads what it loads lazily on it before the clock starts.
WARM_UP = "def warm():\n    return 1\n"
PEER_MAX_CHARS = 800  # LlamaIndex counts characters: about 256 tokens of code


def parsegate_tool() -> Callable[[str, str], list[str]]:
    chunker = Chunker(ChunkConfig(max_tokens=BUDGET))

    def run(name: str, text: str) -> list[str]:
        try:
            doc = code.parse(text.encode("utf-8"), name)
        except ParseError:
            return []
        return [c.embed_text for c in chunker.chunk(doc)]

    return run


def llamaindex_tool() -> Callable[[str, str], list[str]]:
    from llama_index.core.node_parser import CodeSplitter

    splitter = CodeSplitter(language="python", chunk_lines=40, chunk_lines_overlap=1, max_chars=PEER_MAX_CHARS)
    return lambda name, text: splitter.split_text(text)


def llamaindex_counted_tool(tok: Tokenizer) -> Callable[[str, str], list[str]]:
    """CodeSplitter counts characters; knowing whether its chunks fit a token budget costs a
    tokenizer pass over them, which this variant pays."""
    split = llamaindex_tool()

    def run(name: str, text: str) -> list[str]:
        chunks = split(name, text)
        tok.encode_batch_fast(chunks, add_special_tokens=True)
        return chunks

    return run


def chonkie_tool(tok: Tokenizer) -> Callable[[str, str], list[str]]:
    from chonkie import CodeChunker

    chunker = CodeChunker(tokenizer=tok, chunk_size=BUDGET, language="python")
    return lambda name, text: [c.text for c in chunker.chunk(text)]


def run_in_process(run: Callable[[str, str], list[str]], files: list[tuple[str, str]]) -> dict[str, object]:
    run("warm.py", WARM_UP)
    start = time.perf_counter()
    chunks, errors = [], 0
    for name, text in files:
        try:
            chunks.extend(run(name, text))
        except Exception:  # a peer that fails on a file: counted, not fatal
            errors += 1
    return {"seconds": time.perf_counter() - start, "chunks": chunks, "file_errors": errors}


def run_on_all_cores(paths: list[Path], workers: int) -> dict[str, object]:
    from parsegate.engines.local.supervisor import Limits, Supervisor, Task

    config = ChunkConfig(max_tokens=BUDGET)
    tasks = [Task(n, p, p.relative_to(STDLIB).as_posix()) for n, p in enumerate(paths)]
    with tempfile.TemporaryDirectory() as tmp, Supervisor(config, Limits(), workers) as pool:
        # Every worker started and warm, on a file outside the corpus: warmed up on the corpus's
        # first file, a worker's token counter would know that file's words when it is timed.
        warm_up = Path(tmp) / "warm.py"
        warm_up.write_text(WARM_UP)
        list(pool.run([Task(0, warm_up, "warm.py")] * workers * 2))
        start = time.perf_counter()
        results = sorted(pool.run(tasks), key=lambda done: done.task.index)
        seconds = time.perf_counter() - start
    chunks = [json.loads(line)["embed_text"] for done in results for line in done.lines]
    errors = sum(1 for done in results if done.outcome.status != "chunked")
    return {"seconds": seconds, "chunks": chunks, "file_errors": errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (0: all)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "code_throughput.json")
    args = parser.parse_args()

    paths = sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts)
    paths = paths[: args.limit] if args.limit else paths
    files = []
    for p in paths:
        try:
            files.append((p.relative_to(STDLIB).as_posix(), p.read_text("utf-8")))
        except UnicodeDecodeError:
            continue
    megabytes = sum(len(t.encode("utf-8")) for _, t in files) / 1e6
    tok = Tokenizer.from_file(str(default_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()

    results: dict[str, dict[str, object]] = {}
    tools: dict[str, Callable[[], dict[str, object]]] = {
        "parsegate (one process)": lambda: run_in_process(parsegate_tool(), files),
        "parsegate run --workers (all cores; + gate metrics)": lambda: run_on_all_cores(paths, args.workers),
        "LlamaIndex CodeSplitter": lambda: run_in_process(llamaindex_tool(), files),
        "LlamaIndex CodeSplitter + token count": lambda: run_in_process(llamaindex_counted_tool(tok), files),
        "chonkie CodeChunker": lambda: run_in_process(chonkie_tool(tok), files),
    }
    for name, measure in tools.items():
        try:
            m = measure()
        except Exception as exc:
            results[name] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
            continue
        chunks = m.pop("chunks")
        assert isinstance(chunks, list)
        lengths = [len(e.ids) for e in tok.encode_batch_fast(chunks, add_special_tokens=True)]
        seconds = float(m["seconds"])  # type: ignore[arg-type]
        results[name] = {
            "seconds": round(seconds, 2),
            "mb_per_s": round(megabytes / seconds, 3),
            "chunks": len(chunks),
            "over_256_tokens": sum(n > BUDGET for n in lengths),
            "file_errors": m["file_errors"],
        }
    report = {
        "corpus": f"{STDLIB} (*.py)",
        "files": len(files),
        "megabytes": round(megabytes, 2),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{len(files)} files, {megabytes:.1f} MB of Python")
    for name, r in results.items():
        if "error" in r:
            print(f"{name:40} cannot run: {r['error']}")
        else:
            print(
                f"{name:40} {r['mb_per_s']:6.2f} MB/s {r['seconds']:7.1f} s {r['chunks']:7d} chunks "
                f"{r['over_256_tokens']:6d} over 256 tokens {r['file_errors']:4d} file errors"
            )


if __name__ == "__main__":
    main()
