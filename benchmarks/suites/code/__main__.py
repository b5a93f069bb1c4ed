"""code: parse + chunk over the Python standard library (1,786 files, 31.5 MB) at 256 tokens.

parsegate (tree-sitter units, the all-MiniLM-L6-v2 budget) in one process and as ``parsegate run
--workers N`` (a fresh process, every gate metric measured, outputs written), against LlamaIndex's
CodeSplitter (counts characters: ``max_chars=800``, about 256 tokens of code), CodeSplitter plus
the tokenizer pass that tells whether its chunks fit, and chonkie's CodeChunker where it runs
offline (a peer that cannot run is reported with its reason). In-process tools: a new tool per
pass, warmed up on a file outside the corpus; every side measured in ABBA rounds, the figure the
median of its passes. Chunks are counted with the shared tokenizer, special tokens included.

    python -m benchmarks.suites.code [--limit N] [--rounds 1] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

from benchmarks import harness
from benchmarks.harness import Report
from parsegate.chunkers import ChunkConfig
from parsegate.chunkers.tokens.counter import default_tokenizer_path
from parsegate.parsers import code
from parsegate.parsers.model import ParseError

STDLIB = Path(sysconfig.get_paths()["stdlib"])
BUDGET = 256
# Not in the corpus: each tool (and each worker) loads what it loads lazily on it before the clock starts.
WARM_UP = "def warm():\n    return 1\n"
PEER_MAX_CHARS = 800  # LlamaIndex counts characters: about 256 tokens of code
Tool = Callable[[str, str], list[str]]


def parsegate_tool() -> Tool:
    chunker = harness.fresh_chunker(ChunkConfig(max_tokens=BUDGET))

    def run(name: str, text: str) -> list[str]:
        try:
            doc = code.parse(text.encode("utf-8"), name)
        except ParseError:
            return []
        return [c.embed_text for c in chunker.chunk(doc)]

    return run


def llamaindex_tool() -> Tool:
    from llama_index.core.node_parser import CodeSplitter

    splitter = CodeSplitter(language="python", chunk_lines=40, chunk_lines_overlap=1, max_chars=PEER_MAX_CHARS)
    return lambda name, text: splitter.split_text(text)


def llamaindex_counted_tool(tok: Tokenizer) -> Tool:
    """CodeSplitter counts characters; knowing whether its chunks fit a token budget costs a
    tokenizer pass over them, which this variant pays."""
    split = llamaindex_tool()

    def run(name: str, text: str) -> list[str]:
        chunks = split(name, text)
        tok.encode_batch_fast(chunks, add_special_tokens=True)
        return chunks

    return run


def chonkie_tool(tok: Tokenizer) -> Tool:
    from chonkie import CodeChunker

    chunker = CodeChunker(tokenizer=tok, chunk_size=BUDGET, language="python")
    return lambda name, text: [c.text for c in chunker.chunk(text)]


def in_process(make: Callable[[], Tool], files: list[tuple[str, str]]) -> Callable[[], dict[str, Any]]:
    """One cold pass: a new tool, warmed up outside the corpus; a file a peer fails on is counted."""

    def one() -> dict[str, Any]:
        def work() -> Callable[[], tuple[list[str], int]]:
            run = make()
            run("warm.py", WARM_UP)

            def chunk_all() -> tuple[list[str], int]:
                chunks, errors = [], 0
                for name, text in files:
                    try:
                        chunks.extend(run(name, text))
                    except Exception:  # a peer that fails on a file: counted, not fatal
                        errors += 1
                return chunks, errors

            return chunk_all

        (timing,), (chunks, errors) = harness.cold_passes(work, 1)
        return {"seconds": timing.wall, "chunks": chunks, "file_errors": errors}

    return one


def run_command(corpus: Path, workers: int) -> Callable[[], dict[str, Any]]:
    """``parsegate run`` over the copied corpus, a fresh process and an empty OUTDIR each time."""
    script = Path(sys.executable).with_name("parsegate")

    def one() -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="code-") as tmp:
            out = Path(tmp) / "out"
            argv = [script, "run", corpus, "--out", out, "--no-store", "-m", BUDGET, "-w", workers]
            timing = harness.run_command(argv, ok=(0, 1))
            lines = (out / "chunks.jsonl").read_text().splitlines()
            record = json.loads((out / "run.json").read_text())
        errors = sum(f["status"] != "chunked" for f in record["files"])  # files it could not parse
        quarantined = sum(f.get("verdict") == "fail" for f in record["files"])  # parsed, failed the gate
        chunks = [json.loads(x)["embed_text"] for x in lines]  # the chunks of the documents that passed
        return {"seconds": timing.wall, "chunks": chunks, "file_errors": errors, "gate_failed": quarantined}

    return one


def stdlib_files(limit: int) -> list[tuple[str, str]]:
    paths = sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts)
    files = []
    for p in paths[:limit] if limit else paths:
        try:
            files.append((p.relative_to(STDLIB).as_posix(), p.read_text("utf-8")))
        except UnicodeDecodeError:
            continue
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (0: all)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=1, help="ABBA rounds: every tool measured twice a round")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    report = Report("code")
    files = stdlib_files(args.limit)
    megabytes = sum(len(t.encode("utf-8")) for _, t in files) / 1e6
    tok = Tokenizer.from_file(str(default_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()
    with tempfile.TemporaryDirectory(prefix="code-corpus-") as tmp:
        corpus = Path(tmp)  # the same files for `run`, copied: a run reads a folder
        for name, _ in files:
            (corpus / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(STDLIB / name, corpus / name)
        sides = {
            "parsegate (one process)": in_process(parsegate_tool, files),
            f"parsegate run --workers {args.workers} (+ gate metrics)": run_command(corpus, args.workers),
            "LlamaIndex CodeSplitter": in_process(llamaindex_tool, files),
            "LlamaIndex CodeSplitter + token count": in_process(lambda: llamaindex_counted_tool(tok), files),
            "chonkie CodeChunker": in_process(lambda: chonkie_tool(tok), files),
        }
        measured: dict[str, Any] = {}
        for name, make in (
            ("LlamaIndex CodeSplitter", llamaindex_tool),
            ("chonkie CodeChunker", lambda: chonkie_tool(tok)),
        ):
            try:  # whether the peer runs here at all (chonkie's CodeChunker needs grammars downloaded)
                make()("warm.py", WARM_UP)
            except Exception as exc:
                measured[name] = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
                sides = {k: v for k, v in sides.items() if not k.startswith(name)}
        measured.update(harness.abba(sides, args.rounds))
    for name, runs in measured.items():
        add_rows(report, name, runs, megabytes, tok)
    versions = harness.versions("llama-index-core", "chonkie", "tree-sitter-language-pack")
    report.details.update(corpus=f"{STDLIB} (*.py)", files=len(files), megabytes=round(megabytes, 2), versions=versions)
    report.print()
    print(f"written to {report.write(args.out)}")


def add_rows(report: Report, name: str, runs: Any, megabytes: float, tok: Tokenizer) -> None:
    if isinstance(runs, dict):
        report.details.setdefault("cannot_run", {})[name] = runs["error"]
        return
    seconds = [round(r["seconds"], 3) for r in runs]
    peers = ["LlamaIndex CodeSplitter + token count", "LlamaIndex CodeSplitter"] if "parsegate" in name else [None]
    statistic = f"MB / median seconds of {len(seconds)} cold passes, ABBA rounds"
    for peer in peers:
        report.add(name, "python stdlib", "mb_per_s", round(megabytes / harness.median(seconds), 3), "MB/s",
                   ratio_to=peer, statistic=statistic, samples=seconds)  # fmt: skip
    lengths = [len(e.ids) for e in tok.encode_batch_fast(runs[-1]["chunks"], add_special_tokens=True)]
    report.add(name, "python stdlib", "chunks", len(lengths), "chunks")
    report.add(name, "python stdlib", "over_budget", sum(n > BUDGET for n in lengths), "chunks")
    report.add(name, "python stdlib", "file_errors", runs[-1]["file_errors"], "files")
    if "gate_failed" in runs[-1]:
        report.add(name, "python stdlib", "gate_failed", runs[-1]["gate_failed"], "files")


if __name__ == "__main__":
    main()
