"""strategy_eval: the evidence each chunking configuration keeps whole, and what retrieval finds
with it, over the golden corpus (``parsegate eval --compare --spans``): parsegate's strategies
(structural, parent-child, semantic-lexical, semantic-embedding where the embed extra is
installed, recursive, fixed) beside the installed peers (LangChain's RecursiveCharacterTextSplitter,
chonkie's RecursiveChunker, semchunk; same tokenizer), at 128 and 256 tokens.

Per configuration: the share of questions whose every evidence span lies whole in one chunk (and
whole with its context in one retrievable chunk, ``--spans``'s sizing), and the complete-evidence
hit rate of the top 3 (BM25; dense with the embed extra), each against
structural's at the same budget; the index overhead. The JSON of ``parsegate eval`` is kept in the
result's details without its per-question rows.

    python -m benchmarks.suites.strategy_eval [--corpus golden_docs] [--budgets 128,256]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report


def compact(payload: dict[str, Any]) -> dict[str, Any]:
    """``parsegate eval``'s JSON without its per-question rows."""
    payload["configurations"] = [
        {k: v for k, v in c.items() if not isinstance(v, list)} for c in payload["configurations"]
    ]
    for found in payload.get("sizing", {}).get("configurations", {}).values():
        found.pop("questions", None)
    return payload


def add_rows(report: Report, payload: dict[str, Any], corpus: str) -> None:
    for c in payload["configurations"]:
        name, budget = c["configuration"].rsplit("@", 1)
        peer = None if name == "structural" else "structural"
        where = f"{corpus} @{budget} tokens"
        report.add(name, where, "questions_whole", round(c["questions_whole"], 4), f"of {c['questions']} questions",
                   ratio_to=peer)  # fmt: skip
        for retriever, found in c.get("retrieval", {}).items():
            report.add(name, where, f"{retriever}_complete", round(found["complete"], 4), "share", ratio_to=peer)
        report.add(name, where, "overhead", round(c["overhead"], 3), "indexed / source chars")
        sized = payload.get("sizing", {}).get("configurations", {}).get(c["configuration"])
        if sized:  # with its context, in one retrievable chunk (--spans)
            report.add(name, where, "evidence_in_one_chunk", round(sized["shares"]["one chunk"], 4),
                       f"of {c['questions']} questions", ratio_to=peer)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=harness.ROOT / "golden_docs")
    parser.add_argument("--budgets", default="128,256")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    report = Report("strategy_eval")
    with tempfile.TemporaryDirectory(prefix="strategy-eval-") as tmp:
        out = Path(tmp) / "eval.json"
        command: list[str | Path] = [Path(sys.executable).with_name("parsegate"), "eval", args.corpus, "--compare"]
        for budget in args.budgets.split(","):
            command += ["-m", budget]
        timing = harness.run_command([*command, "--spans", "--quiet", "--json-out", out])
        payload = compact(json.loads(out.read_text()))
    add_rows(report, payload, args.corpus.name)
    report.details = {"seconds": round(timing.wall, 1), "eval": payload}
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
