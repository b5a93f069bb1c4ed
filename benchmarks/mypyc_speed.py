"""What the mypyc build (setup.py, PARSEGATE_MYPYC=1) gives: pure vs compiled parsegate, alternating.

Two checkouts of the same commit, one built in place with mypyc; each round runs, in a fresh
interpreter per checkout (this machine moves 10-30 % between runs, so the two alternate):
  * parse + structural chunk at 200 tokens over the fastapi docs: the Markdown parse and the
    chunking timed apart, median and best of ``--passes`` (a fresh Chunker per pass, as in
    chunking_throughput.py), then chunking_throughput.py's own ``measure()`` of parsegate and of
    chonkie's RecursiveChunker (the issue 9 ratio), when chonkie is installed;
  * start-up: ``import parsegate.chunkers`` alone, and import + one document parsed and chunked,
    each its own fresh process, best and median of ``--starts``.

    mkdir /tmp/compiled && git archive HEAD | tar -x -C /tmp/compiled   # the same commit, built:
    (cd /tmp/compiled && PARSEGATE_MYPYC=1 ../path/to/.venv/bin/python setup.py build_ext --inplace)
    PY=../wt-messy-bench/benchmarks/messy_text/.venv/bin/python   # the same CPython, the deps + chonkie
    $PY benchmarks/mypyc_speed.py . /tmp/compiled --rounds 5

The .so files must be built by the same CPython (3.11, same ABI) that runs them; each child
asserts which build it imported. Both read the same corpus (--corpus).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"

# One round of throughput in a fresh interpreter, the checkout first on sys.path.
_THROUGHPUT = """
import json, statistics, sys, time
tree, corpus, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [tree, tree + "/benchmarks"]
from pathlib import Path
import chunking_throughput as ct
import parsegate.chunkers.packing
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import markdown
assert parsegate.chunkers.packing.__file__.startswith(tree), parsegate.chunkers.packing.__file__
root = Path(corpus)
files = [(p.relative_to(root).as_posix(), p.read_bytes()) for p in sorted(root.rglob("*.md"))]
parse, chunk = [], []
for _ in range(passes):
    chunker = Chunker(ChunkConfig(max_tokens=ct.BUDGET))
    chunker.chunk(markdown.parse(b"# Warm up\\n\\nA short text.\\n", "warm-up.md"))
    start = time.perf_counter()
    docs = [markdown.parse(data, name) for name, data in files]
    middle = time.perf_counter()
    for doc in docs:
        chunker.chunk(doc)
    parse.append(middle - start)
    chunk.append(time.perf_counter() - middle)
tok = ct.load_tokenizer()
out = {"compiled": parsegate.chunkers.packing.__file__.endswith(".so"), "parse": parse, "chunk": chunk,
       "megabytes": sum(len(d) for _, d in files) / 1e6,
       "parsegate_measure": ct.measure(ct.parsegate_tool, tok, files, passes)["seconds"]}
try:
    out["chonkie_measure"] = ct.measure(ct.chonkie_tool, tok, files, passes)["seconds"]
except ImportError:
    out["chonkie_measure"] = None
print(json.dumps(out))
"""

# Start-up, one fresh process each: the import alone, or the import and one document.
_IMPORT = "import sys; sys.path.insert(0, sys.argv[1]); import parsegate.chunkers"
_ONE_DOC = """
import sys; sys.path.insert(0, sys.argv[1])
from pathlib import Path
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import markdown
path = Path(sys.argv[2])
Chunker(ChunkConfig(max_tokens=200)).chunk(markdown.parse(path.read_bytes(), path.name))
"""
_TIMED = """
import subprocess, sys, time
start = time.perf_counter()
subprocess.run([sys.executable, "-c", sys.argv[1], *sys.argv[2:]], check=True)
print(time.perf_counter() - start)
"""


def throughput(tree: Path, corpus: Path, passes: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", _THROUGHPUT, str(tree.resolve()), str(corpus), str(passes)],
        capture_output=True,
        text=True,
        env=_env(),
        check=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def start_time(script: str, *args: str) -> float:
    """Wall time of a fresh interpreter running ``script`` (timed by a parent that is already up)."""
    out = subprocess.run(
        [sys.executable, "-c", _TIMED, script, *args], capture_output=True, text=True, env=_env(), check=True
    ).stdout
    return float(out)


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONHASHSEED": "0"}


def summary(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 4), "best": round(min(values), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pure", type=Path, help="a checkout without the compiled modules")
    parser.add_argument("compiled", type=Path, help="the same commit built with PARSEGATE_MYPYC=1")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "mypyc_speed.json")
    args = parser.parse_args()
    trees = {"pure": args.pure, "compiled": args.compiled}
    one_doc = str(next(iter(sorted(args.corpus.rglob("*.md")))))
    runs: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    load_before = os.getloadavg()
    for _ in range(args.rounds):
        for name, tree in trees.items():
            got = throughput(tree, args.corpus, args.passes)
            assert got["compiled"] == (name == "compiled"), f"{tree} is not the {name} build"
            run = runs[name]
            for key in ("parse", "chunk"):
                run.setdefault(key, []).extend(got[key])
            run.setdefault("parse_and_chunk", []).extend(p + c for p, c in zip(got["parse"], got["chunk"], strict=True))
            run.setdefault("parsegate_measure", []).append(got["parsegate_measure"])
            if got["chonkie_measure"] is not None:
                run.setdefault("chonkie_measure", []).append(got["chonkie_measure"])
            megabytes = float(got["megabytes"])
            print(f"{name:9} parse+chunk {min(run['parse_and_chunk']):.3f} s (best so far)", flush=True)
    for _ in range(args.starts):
        for name, tree in trees.items():
            runs[name].setdefault("import_chunkers", []).append(start_time(_IMPORT, str(tree.resolve())))
            runs[name].setdefault("one_document", []).append(start_time(_ONE_DOC, str(tree.resolve()), one_doc))
    results: dict[str, dict[str, object]] = {}
    for name, run in runs.items():
        results[name] = {key: summary(values) for key, values in run.items()}
        results[name]["all_seconds"] = {key: [round(v, 4) for v in values] for key, values in run.items()}
        if "chonkie_measure" in run:
            # Same statistic for both tools: the median over rounds of measure()'s own median.
            results[name]["parsegate_vs_chonkie"] = round(
                statistics.median(run["chonkie_measure"]) / statistics.median(run["parsegate_measure"]), 3
            )
            results[name]["parsegate_mb_per_s"] = round(megabytes / statistics.median(run["parsegate_measure"]), 3)
            results[name]["chonkie_mb_per_s"] = round(megabytes / statistics.median(run["chonkie_measure"]), 3)
    speedup = {
        key: round(statistics.median(runs["pure"][key]) / statistics.median(vals), 3)
        for key, vals in runs["compiled"].items()
        if key != "chonkie_measure"
    }
    report = {
        "corpus": str(args.corpus),
        "one_document": one_doc,
        "budget_tokens": 200,
        "rounds": args.rounds,
        "passes": args.passes,
        "starts": args.starts,
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
        "cores": os.cpu_count(),
        "load_average_1min": {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)},
        "results": results,
        "speedup_compiled_over_pure_medians": speedup,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{'seconds (median / best)':24} {'pure':>17} {'compiled':>17} {'speed-up':>9}")
    for key in runs["pure"]:
        p, c = results["pure"][key], results["compiled"][key]
        assert isinstance(p, dict) and isinstance(c, dict)
        print(
            f"{key:24} {p['median']:8.4f}/{p['best']:8.4f} {c['median']:8.4f}/{c['best']:8.4f} "
            f"{speedup.get(key, float('nan')):8.2f}x"
        )
    for name in trees:
        if "parsegate_vs_chonkie" in results[name]:
            r = results[name]
            print(
                f"{name}: parsegate {r['parsegate_mb_per_s']} MB/s, chonkie {r['chonkie_mb_per_s']} MB/s, "
                f"ratio {r['parsegate_vs_chonkie']}x"
            )
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
