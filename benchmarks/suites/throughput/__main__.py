"""throughput: chunking MB/s over the fastapi docs at 200 tokens, parsegate against chonkie's
RecursiveChunker, semchunk and LangChain's RecursiveCharacterTextSplitter (token length function),
every tool with the same all-MiniLM-L6-v2 tokenizer.json.

Each measurement is a process of its own running ``--passes`` cold passes of one tool (passes.py:
a new tool per pass, warmed up outside the corpus); the tools go in ABBA rounds (A B C C B A), and
each tool's figure is the median of all its passes, the same statistic for every tool. Beside
them, ``parsegate run --workers 1`` and ``2`` as a user runs it (a fresh process, an empty OUTDIR,
``--no-store``; start-up, the gate's measurements and the outputs included). ``--baseline REV``
adds parsegate at another revision (installed by benchmarks/revisions.py), the side-by-side
comparison of a speed change.

    python -m benchmarks.suites.throughput [--rounds 1] [--passes 3] [--baseline REV] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import revision

PASSES = Path(__file__).resolve().with_name("passes.py")
BUDGET = 200
PEERS = {
    "chonkie": "chonkie RecursiveChunker",
    "semchunk": "semchunk",
    "langchain": "LangChain RecursiveCharacterTextSplitter",
}
WORKERS = (1, 2)


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", type=Path, default=harness.FASTAPI)
    p.add_argument("--rounds", type=int, default=1, help="ABBA rounds: every tool measured twice a round")
    p.add_argument("--passes", type=int, default=3, help="cold passes per measurement")
    p.add_argument("--baseline", default=None, help="also parsegate at this git revision")
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def in_process(python: Path | str, tool: str, corpus: Path, passes: int) -> Callable[[], dict[str, Any]]:
    return lambda: harness.run_json([python, PASSES, tool, corpus, passes, BUDGET])[0]


def run_command(script: Path, corpus: Path, workers: int) -> Callable[[], dict[str, Any]]:
    def one() -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="throughput-") as tmp:
            argv = [script, "run", corpus, "--out", Path(tmp) / "out", "--no-store", "-m", BUDGET, "-w", workers]
            return {"seconds": [harness.run_command(argv, ok=(0, 1)).wall]}

    return one


def sides(args: argparse.Namespace) -> dict[str, Callable[[], dict[str, Any]]]:
    label = harness.measured_label()
    out = {f"parsegate structural @{label}": in_process(sys.executable, "parsegate", args.corpus, args.passes)}
    if args.baseline:
        base = revision(args.baseline)
        out[f"parsegate structural @{base.label}"] = in_process(base.python, "parsegate", args.corpus, args.passes)
    out.update({name: in_process(sys.executable, tool, args.corpus, args.passes) for tool, name in PEERS.items()})
    script = Path(sys.executable).with_name("parsegate")
    out.update({f"parsegate run --workers {n} @{label}": run_command(script, args.corpus, n) for n in WORKERS})
    return out


def compared_with(tool: str, tools: list[str]) -> list[str | None]:
    """The rows a tool's figure is set against: this checkout's parsegate against the baseline and
    every peer, the baseline's and the run rows against chonkie, the peers against nothing."""
    ours, chonkie = tools[0], PEERS["chonkie"]
    if tool == ours:
        baseline = [t for t in tools[1:] if t.startswith("parsegate structural @")]
        return [*baseline, *PEERS.values()]
    return [chonkie] if tool.startswith("parsegate") else [None]


def main() -> None:
    args = arguments()
    report = Report("throughput")
    megabytes = sum(p.stat().st_size for p in args.corpus.rglob("*.md")) / 1e6
    measured = harness.abba(sides(args), args.rounds)
    for tool, runs in measured.items():
        seconds = [round(s, 4) for run in runs for s in run["seconds"]]
        per_run = "fresh processes" if "run --workers" in tool else f"cold passes in {len(runs)} processes"
        statistic = f"MB / median seconds of {len(seconds)} {per_run}, ABBA rounds"
        rate = round(megabytes / harness.median(seconds), 3)
        peers = compared_with(tool, list(measured))
        for peer in peers:  # one row per peer it is compared with, the same figure
            report.add(tool, args.corpus.name, "mb_per_s", rate, "MB/s", ratio_to=peer, statistic=statistic,
                       samples=seconds)  # fmt: skip
        last = runs[-1]
        for metric, unit in (("chunks", "chunks"), ("mean_tokens", "tokens"), ("over_budget", "chunks")):
            if metric in last:
                report.add(tool, args.corpus.name, metric, last[metric], unit)
    report.details = {
        "corpus": str(args.corpus),
        "files": sum(1 for _ in args.corpus.rglob("*.md")),
        "megabytes": round(megabytes, 3),
        "budget_tokens": BUDGET,
        "tokenizer": "all-MiniLM-L6-v2 (tokenizer.json, tokenizers library)",
        "versions": harness.versions("chonkie", "chonkie-core", "semchunk", "langchain-text-splitters", "tokenizers"),
        "workers_rows": "parsegate run as a user runs it: start-up, gate metrics and outputs included",
    }
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
