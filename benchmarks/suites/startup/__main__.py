"""startup: start-up time of the ``parsegate`` command as a user runs it (the console script of a
non-editable install, benchmarks/revisions.py): ``--help``, ``--version``, ``formats``, and
``parse`` of a one-page PDF, each the median wall time of N fresh processes, next to a bare
``python -c pass`` in the same venv (the floor no command goes under). With ``--baseline REV``
the same commands of another revision run interleaved with these. Each case also gets
``python -X importtime``'s heaviest imports (cumulative microseconds, one run), so a regression
names its module.

The cases alternate (mirrored order) so that a busy machine slows all of them alike; the load
average is recorded with the figures.

    python -m benchmarks.suites.startup [--repeat 21] [--baseline REV]
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import Revision, revision

PDF = harness.ROOT / "golden_docs" / "pdf" / "footnote" / "input.pdf"  # one page, no ruling lines
COMMANDS = {
    "--help": ["--help"],
    "--version": ["--version"],
    "formats": ["formats"],
    "parse one-page.pdf": ["parse", PDF],
}
TOP = 15


def heaviest_imports(rev: Revision, args: list[str | Path]) -> list[dict[str, object]]:
    """The modules with the largest cumulative import time (one run), heaviest first."""
    command = [str(rev.python), "-X", "importtime", str(rev.script()), *map(str, args)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=harness.child_env())
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        own, cumulative, name = line.split("|", 2)
        rows.append({"module": name.strip(), "cumulative_us": int(cumulative), "self_us": int(own.split(":")[1])})
    return sorted(rows, key=lambda r: -int(str(r["cumulative_us"])))[:TOP]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--revision", default=None, help="measure this git revision instead of the checkout's files")
    parser.add_argument("--baseline", default=None, help="also the commands of this git revision")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    current = revision(args.revision)
    revisions = [current] + ([revision(args.baseline)] if args.baseline else [])
    report = Report("startup", commit=current.label)
    cases: dict[str, list[str | Path]] = {"python -c pass": [current.python, "-c", "pass"]}
    for rev in revisions:
        cases.update({f"parsegate {name} @{rev.label}": [rev.script(), *argv] for name, argv in COMMANDS.items()})
    times = harness.startup(cases, args.repeat)
    statistic = f"median wall seconds of {args.repeat} fresh processes per case, cases interleaved"
    for case, samples in times.items():
        peers: list[str | None] = [None] if case == "python -c pass" else ["python -c pass"]
        if args.baseline and case.endswith(f"@{current.label}"):
            peers.insert(0, case.replace(f"@{current.label}", f"@{revisions[1].label}"))
        for peer in peers:
            report.add(case, "start-up", "wall_s", round(harness.median(samples), 4), "s", ratio_to=peer,
                       statistic=statistic, samples=[round(s, 4) for s in samples])  # fmt: skip
    report.details["revisions"] = {rev.label: rev.commit for rev in revisions}
    report.details["heaviest_imports"] = {
        f"parsegate {name} @{rev.label}": heaviest_imports(rev, argv)
        for rev in revisions
        for name, argv in COMMANDS.items()
    }
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
