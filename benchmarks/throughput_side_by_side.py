"""parsegate vs chonkie throughput for two checkouts of parsegate, side by side.

This machine's timings move by 10-30 % between runs, so a speed change is measured by alternating
the two checkouts in one session: each round runs, in a fresh interpreter per checkout,
chunking_throughput.py's own ``measure()`` (median of ``--passes`` cold passes) for parsegate,
chonkie's RecursiveChunker twice, and parsegate again (the order ABBA: a drift in time falls on
both alike), and reports the best of each tool's two, the same statistic for both. (Until the
commit after ac203b2 chonkie ran once, and parsegate's best of two was set against it.)

    git archive COMMIT | tar -x -C /tmp/old      # the checkout to compare against
    PY=benchmarks/messy_text/.venv/bin/python    # an environment with chonkie installed
    $PY benchmarks/throughput_side_by_side.py /tmp/old . --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Run in a fresh interpreter with the checkout first on sys.path.
_ONE = """
import sys
tree = sys.argv[1]
sys.path[:0] = [tree, tree + "/benchmarks"]
import chunking_throughput as ct
import parsegate
assert parsegate.__file__.startswith(tree), parsegate.__file__
from pathlib import Path
root = Path(sys.argv[2])
files = [(p.relative_to(root).as_posix(), p.read_bytes()) for p in sorted(root.rglob("*.md"))]
tok = ct.load_tokenizer()
passes = int(sys.argv[3])
first = ct.measure(ct.parsegate_tool, tok, files, passes)["seconds"]
chonkie = ct.measure(ct.chonkie_tool, tok, files, passes)["seconds"]
chonkie_again = ct.measure(ct.chonkie_tool, tok, files, passes)["seconds"]
again = ct.measure(ct.parsegate_tool, tok, files, passes)["seconds"]
print(first, again, chonkie, chonkie_again)
"""


def one(tree: Path, corpus: Path, passes: int) -> tuple[float, float, float, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, "-c", _ONE, str(tree.resolve()), str(corpus), str(passes)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    first, again, chonkie, chonkie_again = map(float, out)
    return first, again, chonkie, chonkie_again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", type=Path, nargs=2, help="two parsegate checkouts (old, new)")
    parser.add_argument(
        "--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--passes", type=int, default=7)
    parser.add_argument("--out", type=Path, default=None, help="also write every round as JSON")
    args = parser.parse_args()
    rounds: list[dict[str, object]] = []
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for tree in args.trees:
            first, again, chonkie, chonkie_again = one(tree, args.corpus, args.passes)
            ratio = min(chonkie, chonkie_again) / min(first, again)
            print(
                f"{tree!s:30} parsegate {first:.3f} / {again:.3f} s  chonkie {chonkie:.3f} / {chonkie_again:.3f} s"
                f"  ratio {ratio:.2f}x",
                flush=True,
            )
            rounds.append({"tree": _named(tree), "parsegate_s": [first, again],
                           "chonkie_s": [chonkie, chonkie_again], "ratio": round(ratio, 3)})  # fmt: skip
    if args.out:
        report = {"command": " ".join(sys.argv), "passes": args.passes, "rounds": rounds,
                  "statistic": "per round: each tool's best of two medians (order ABBA), chonkie's / parsegate's",
                  "load_average_1min": {"before": round(load, 2), "after": round(os.getloadavg()[0], 2)}}  # fmt: skip
        args.out.write_text(json.dumps(report, indent=1) + "\n")


def _named(tree: Path) -> str:
    """The checkout's commit, and whether it holds the mypyc build (compiled modules beside the .py)."""
    commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    compiled = any(tree.glob("chunkers/*.so"))
    name = commit.stdout.strip() if commit.returncode == 0 else str(tree)
    return f"{name} ({'mypyc build' if compiled else 'pure Python'})"


if __name__ == "__main__":
    main()
