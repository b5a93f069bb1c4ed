"""markdown_parse: ``markdown.parse`` over a corpus, this checkout against a baseline revision.

Both sides are installed the same way (benchmarks/revisions.py: git archive, or this checkout's
files, into venvs of their own); each measurement is a process of that side's python running
``--passes`` passes over the files already in memory, after a warm-up pass (passes.py). The sides
alternate in ABBA rounds (this machine's timings drift by 10-30 % over minutes). Reported per side:
the median and the best seconds of all its passes, and their ratios. snapshot.py checks that the
output is the same.

    python -m benchmarks.suites.markdown_parse [--baseline HEAD~1] [--rounds 4] [--passes 3] [--corpus PATH]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import revision

PASSES = Path(__file__).resolve().with_name("passes.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="HEAD~1", help="git revision to compare against")
    parser.add_argument("--revision", default=None, help="measure this git revision instead of the checkout's files")
    parser.add_argument("--rounds", type=int, default=4, help="ABBA rounds: each side runs twice a round")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=harness.FASTAPI)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    current, baseline = revision(args.revision), revision(args.baseline)
    report = Report("markdown_parse", commit=current.label)
    sides = {
        f"markdown.parse @{rev.label}": (
            lambda rev=rev: harness.run_json([rev.python, PASSES, args.corpus, args.passes])[0]
        )
        for rev in (current, baseline)
    }
    measured = harness.abba(sides, args.rounds)
    ours, theirs = sides
    for tool, runs in measured.items():
        seconds = [round(s, 4) for run in runs for s in run["seconds"]]
        peer = theirs if tool == ours else None
        statistic = f"{len(seconds)} passes in {len(runs)} processes, ABBA rounds"
        report.add(tool, args.corpus.name, "median_s", round(harness.median(seconds), 4), "s", ratio_to=peer,
                   statistic=statistic, samples=seconds)  # fmt: skip
        report.add(tool, args.corpus.name, "best_s", min(seconds), "s", ratio_to=peer, statistic=statistic)
    first = measured[ours][0]
    report.details.update(files=first["files"], megabytes=round(first["megabytes"], 3),
                          revisions={current.label: current.commit, baseline.label: baseline.commit})  # fmt: skip
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
