"""Chunking throughput on the fastapi docs corpus at 200 tokens, same tokenizer, one run.

parsegate `structural` (Markdown parse + structural chunking + budget verification of
embed_text) vs chonkie RecursiveChunker, semchunk, and LangChain's
RecursiveCharacterTextSplitter with a token length function. Every tool gets the same
files and the same all-MiniLM-L6-v2 tokenizer, loaded offline from tokenizer.json.

    ./dev.sh bench                      # or: .venv/bin/python benchmarks/chunking_throughput.py
    .venv/bin/python benchmarks/chunking_throughput.py --repeat 5 --corpus PATH
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cold import fresh_chunker  # benchmarks/ is on sys.path: the script's own folder
from tokenizers import Tokenizer

from parsegate.chunkers import ChunkConfig
from parsegate.chunkers.budget import default_tokenizer_path
from parsegate.parsers import markdown

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"
BUDGET = 200


def load_tokenizer() -> Tokenizer:
    tok = Tokenizer.from_file(str(default_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()
    return tok


def parsegate_tool(tok: Tokenizer) -> Callable[[str, bytes], list[str]]:
    chunker = fresh_chunker(ChunkConfig(max_tokens=BUDGET))  # cold.py: measure() warms every tool up

    def run(name: str, data: bytes) -> list[str]:
        return [c.embed_text for c in chunker.chunk(markdown.parse(data, name))]

    return run


def chonkie_tool(tok: Tokenizer) -> Callable[[str, bytes], list[str]]:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=tok, chunk_size=BUDGET)
    return lambda name, data: [c.text for c in chunker.chunk(data.decode("utf-8"))]


def semchunk_tool(tok: Tokenizer) -> Callable[[str, bytes], list[str]]:
    import semchunk

    chunker = semchunk.chunkerify(tok, BUDGET)
    return lambda name, data: list(chunker(data.decode("utf-8")))


def langchain_tool(tok: Tokenizer) -> Callable[[str, bytes], list[str]]:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=BUDGET,
        chunk_overlap=0,
        length_function=lambda s: len(tok.encode(s, add_special_tokens=False).ids),
    )
    return lambda name, data: splitter.split_text(data.decode("utf-8"))


def parsegate_workers_tool(tok: Tokenizer) -> Callable[[str, bytes], list[str]]:
    """The `parsegate run` path: worker processes, each with its own tokenizer."""
    raise NotImplementedError  # measured by measure_workers(), which needs the files on disk


# `run` with this many workers (+ gate metrics); "all" is --workers (default: every core).
WORKER_RUNS = {
    "parsegate run --workers 1 (+ gate metrics)": 1,
    "parsegate run --workers 2 (+ gate metrics)": 2,
}
TOOLS = {
    "parsegate structural": parsegate_tool,
    **dict.fromkeys(WORKER_RUNS, parsegate_workers_tool),
    "chonkie RecursiveChunker": chonkie_tool,
    "semchunk": semchunk_tool,
    "langchain RecursiveCharacterTextSplitter": langchain_tool,
}


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("chonkie", "chonkie-core", "semchunk", "langchain-text-splitters", "tokenizers"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def measure(
    factory: Callable[[Tokenizer], Callable[[str, bytes], list[str]]],
    tok: Tokenizer,
    files: list[tuple[str, bytes]],
    repeat: int,
) -> dict[str, object]:
    """Median of ``repeat`` cold passes: a fresh chunker each time (semchunk memoizes token
    counts, parsegate's counter remembers words: a reused one would measure its cache), warmed
    up on a different text."""
    times = []
    chunks: list[str] = []
    for _ in range(repeat):
        run = factory(tok)
        run("warm-up.md", b"# Warm up\n\nA short text to load what each tool loads lazily.\n")
        start = time.perf_counter()
        chunks = [c for name, data in files for c in run(name, data)]
        times.append(time.perf_counter() - start)
    return {"seconds": statistics.median(times), "all_seconds": [round(t, 3) for t in times], "chunks": chunks}


def measure_workers(root: Path, paths: list[Path], repeat: int, workers: int) -> dict[str, object]:
    """parsegate with ``workers`` supervised worker processes reading the files themselves (the
    output order is the completion order here: only the set matters). New workers for each pass,
    started and warmed up on a different text before the clock starts: a worker's token counter
    remembers the words it has seen, and workers kept from a pass before would know the corpus."""
    from parsegate.engines.local.supervisor import Limits, Supervisor, Task

    config = ChunkConfig(max_tokens=BUDGET)
    tasks = [Task(n, p, p.relative_to(root).as_posix()) for n, p in enumerate(paths)]
    times = []
    chunks: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        warm_up = Path(tmp) / "warm-up.md"
        warm_up.write_bytes(b"# Warm up\n\nA short text to load what each tool loads lazily.\n")
        warm = [Task(0, warm_up, "warm-up.md")] * workers * 2  # every worker started and warm
        for _ in range(repeat):
            with Supervisor(config, Limits(), workers) as pool:
                list(pool.run(warm))
                start = time.perf_counter()
                results = list(pool.run(tasks))
                times.append(time.perf_counter() - start)
            results.sort(key=lambda done: done.task.index)
            chunks = [json.loads(line)["embed_text"] for done in results for line in done.lines]
    return {"seconds": statistics.median(times), "all_seconds": [round(t, 3) for t in times], "chunks": chunks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "chunking_throughput.json")
    args = parser.parse_args()

    paths = sorted(args.corpus.rglob("*.md"))
    files = [(p.relative_to(args.corpus).as_posix(), p.read_bytes()) for p in paths]
    megabytes = sum(len(d) for _, d in files) / 1e6
    tok = load_tokenizer()
    load_before = os.getloadavg()  # other work on the machine slows every tool: say how much there was
    results = {}
    for name, factory in TOOLS.items():
        try:
            if factory is parsegate_workers_tool:
                m = measure_workers(args.corpus, paths, args.repeat, WORKER_RUNS[name])
            else:
                m = measure(factory, tok, files, args.repeat)
        except ImportError as exc:
            results[name] = {"error": f"not installed: {exc}"}
            continue
        chunks = m.pop("chunks")
        assert isinstance(chunks, list)
        lengths = [len(e.ids) for e in tok.encode_batch(chunks, add_special_tokens=False)]
        results[name] = {
            **m,
            "mb_per_s": round(megabytes / float(m["seconds"]), 3),  # type: ignore[arg-type]
            "chunks": len(chunks),
            "mean_tokens": round(statistics.mean(lengths), 1),
            "over_budget": sum(n > BUDGET for n in lengths),
        }
    fastest_peer = max(
        (r["mb_per_s"] for n, r in results.items() if not n.startswith("parsegate") and "mb_per_s" in r), default=None
    )
    report = {
        "corpus": str(args.corpus),
        "files": len(files),
        "megabytes": round(megabytes, 3),
        "budget_tokens": BUDGET,
        "tokenizer": "all-MiniLM-L6-v2 (tokenizer.json, tokenizers library)",
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
        "versions": _versions(),  # a peer's speed moves between its releases: say which ran
        "results": results,
        "parsegate_vs_fastest_peer": {
            n: round(r["mb_per_s"] / fastest_peer, 2)
            for n, r in results.items()
            if n.startswith("parsegate") and fastest_peer and "mb_per_s" in r
        },
        "cores": os.cpu_count(),
        "load_average_1min": {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{len(files)} files, {megabytes:.2f} MB, budget {BUDGET} tokens, median of {args.repeat} runs")
    print(f"{'tool':48} {'MB/s':>7} {'s':>7} {'chunks':>7} {'mean tok':>9} {'over':>5}")
    for name, r in results.items():
        if "error" in r:
            print(f"{name:48} {r['error']}")
            continue
        print(
            f"{name:48} {r['mb_per_s']:7.3f} {r['seconds']:7.3f} {r['chunks']:7d} {r['mean_tokens']:9.1f} "
            f"{r['over_budget']:5d}"
        )
    print(f"parsegate / fastest peer: {report['parsegate_vs_fastest_peer']}x   (written to {args.out})")


if __name__ == "__main__":
    main()
