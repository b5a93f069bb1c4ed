"""parsegate vs chonkie throughput for two checkouts of parsegate, side by side.

This machine's timings move by 10-30 % between runs, so a speed change is measured by alternating
the two checkouts in one session: each round runs, in a fresh interpreter per checkout,
chunking_throughput.py's own ``measure()`` (median of ``--passes`` cold passes) for parsegate,
chonkie's RecursiveChunker, and parsegate again, and reports parsegate's best against chonkie.

    git archive COMMIT | tar -x -C /tmp/old      # the checkout to compare against
    PY=benchmarks/messy_text/.venv/bin/python    # an environment with chonkie installed
    $PY benchmarks/throughput_side_by_side.py /tmp/old . --rounds 2
"""

from __future__ import annotations

import argparse
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
again = ct.measure(ct.parsegate_tool, tok, files, passes)["seconds"]
print(first, again, chonkie)
"""


def one(tree: Path, corpus: Path, passes: int) -> tuple[float, float, float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, "-c", _ONE, str(tree.resolve()), str(corpus), str(passes)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    first, again, chonkie = map(float, out)
    return first, again, chonkie


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", type=Path, nargs=2, help="two parsegate checkouts (old, new)")
    parser.add_argument(
        "--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--passes", type=int, default=7)
    args = parser.parse_args()
    for _ in range(args.rounds):
        for tree in args.trees:
            first, again, chonkie = one(tree, args.corpus, args.passes)
            print(
                f"{tree!s:30} parsegate {first:.3f} / {again:.3f} s  chonkie {chonkie:.3f} s  "
                f"ratio {chonkie / min(first, again):.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
