"""workers: ``parsegate run`` with 1 and 2 worker processes on corpora of many files: is 2 ever
slower than 1, and how close does it come to what two cores allow?

Each measurement is a whole run as a user sees it: ``parsegate run --workers N --no-store`` in a
fresh process into an empty OUTDIR (start-up, workers started cold, every document parsed,
chunked, gated and written). The worker counts alternate in ABBA rounds, and before each round
the suite waits until other work uses under ``--quiet`` of the machine (up to 5 minutes; the busy
share seen is recorded): another process on one of the two cores halves what two workers can
show. A round during which other processes used more than 5 % of the machine's CPU time
(/proc/stat's busy time less the runs' own CPU) is run again, up to three times (the rounds run
again are counted). The statistic is the median wall time.

Each corpus also gets its fixed cost: a one-worker run of its smallest file (the command's start-
up, a worker's interpreter, imports, tokenizer and format libraries on first use, one tiny
document), and the speed-up two workers could reach with that cost paid once by each
(``ceiling = T1 / (F + (T1 - F) / 2)``); and the CPU each run used (``run`` and its workers),
as cores kept busy: two workers that keep both cores busy can run no faster than half the CPU
they need (``bound = T1 / (CPU2 / 2)``). The automatic choice (``--workers 0``) is read from one
run's run.json.

    python -m benchmarks.suites.workers [--rounds 2] [--quiet 0.1]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report, Timing

SCRIPT = Path(sys.executable).with_name("parsegate")
STDLIB = Path(sysconfig.get_paths()["stdlib"])
FOREIGN_SHARE = 0.05  # of the machine's CPU used by other processes during a round: run it again
ROUND_ATTEMPTS = 3


@contextmanager
def corpora() -> Iterator[dict[str, Path]]:
    """The corpora, as folders (the stdlib slices and the three small files copied into one)."""
    stdlib = sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts)
    markdown = sorted((harness.SHARED / "markdown").rglob("*.md"))
    with tempfile.TemporaryDirectory(prefix="workers-") as tmp:
        folders = {
            "shared corpus (all formats)": harness.SHARED,
            "markdown (fastapi docs)": harness.SHARED / "markdown",
        }
        for name, files, root in (
            ("code: 72 stdlib files", stdlib[:72], STDLIB),
            ("code: 400 stdlib files", stdlib[:400], STDLIB),
            ("3 small files", markdown[:3], harness.SHARED / "markdown"),
        ):
            folder = Path(tmp) / name.replace(" ", "-").replace(":", "")
            for path in files:
                (folder / path.relative_to(root)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, folder / path.relative_to(root))
            folders[name] = folder
        yield folders


def one_run(corpus: Path, workers: int) -> tuple[Timing, dict]:
    with tempfile.TemporaryDirectory(prefix="workers-run-") as tmp:
        out = Path(tmp) / "out"
        timing = harness.run_command([SCRIPT, "run", corpus, "--out", out, "--no-store", "-w", workers], ok=(0, 1))
        return timing, json.loads((out / "run.json").read_text())


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy since boot (/proc/stat), or 0 where unknown."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


def one_round(corpus: Path) -> tuple[dict[int, list[Timing]], float]:
    """Runs with 1, 2, 2, 1 workers, and the share of the machine other processes used meanwhile."""
    busy, started = machine_busy(), time.perf_counter()
    runs = harness.abba({n: (lambda n=n: one_run(corpus, n)[0]) for n in (1, 2)}, 1)
    own = sum(t.cpu for timings in runs.values() for t in timings)
    wall = time.perf_counter() - started
    return runs, ((machine_busy() - busy) - own) / max(1e-9, wall * (os.cpu_count() or 1))


def measure(report: Report, name: str, corpus: Path, rounds: int, quiet: float) -> None:
    times: dict[int, list[Timing]] = {1: [], 2: []}
    seen: dict[str, list[float] | int] = {"busy_before_each_round": [], "foreign_during_each_round": [], "again": 0}
    for _ in range(rounds):
        for attempt in range(ROUND_ATTEMPTS):
            seen["busy_before_each_round"].append(round(harness.wait_for_quiet(quiet), 3))  # type: ignore[union-attr]
            runs, foreign = one_round(corpus)
            if foreign <= FOREIGN_SHARE or attempt == ROUND_ATTEMPTS - 1:
                break
            seen["again"] += 1  # type: ignore[operator]
        seen["foreign_during_each_round"].append(round(foreign, 3))  # type: ignore[union-attr]
        for n, timings in runs.items():
            times[n] += timings
    auto = one_run(corpus, 0)[1]["workers"]
    sources = [p for p in corpus.rglob("*") if p.is_file()]
    with tempfile.TemporaryDirectory(prefix="workers-small-") as tmp:
        smallest = min(sources, key=lambda p: p.stat().st_size)
        shutil.copyfile(smallest, Path(tmp) / smallest.name)
        fixed = harness.median([one_run(Path(tmp), 1)[0].wall for _ in range(3)])
    one, two = (harness.median([t.wall for t in times[n]]) for n in (1, 2))
    cpu_one, cpu_two = (harness.median([t.cpu for t in times[n]]) for n in (1, 2))
    statistic = f"median of {len(times[1])} fresh runs, ABBA rounds"
    for n in (1, 2):
        tool = f"parsegate run --workers {n}"
        report.add(tool, name, "wall_s", round(harness.median([t.wall for t in times[n]]), 2), "s",
                   ratio_to=None if n == 1 else "parsegate run --workers 1", statistic=statistic,
                   samples=[round(t.wall, 2) for t in times[n]])  # fmt: skip
        report.add(tool, name, "cpu_s", round(harness.median([t.cpu for t in times[n]]), 2), "s",
                   ratio_to=None if n == 1 else "parsegate run --workers 1", statistic=statistic)  # fmt: skip
    report.add("parsegate run --workers 1", name, "fixed_s", round(fixed, 3), "s", statistic="median of 3 runs")
    report.details.setdefault("corpora", {})[name] = {
        "files": len(sources),
        "megabytes": round(sum(p.stat().st_size for p in sources) / 1e6, 2),
        "speedup_2_over_1": round(one / two, 2),
        "ceiling_2_over_1": round(one / (fixed + max(0.0, one - fixed) / 2), 2),
        "cores_busy": {"1": round(cpu_one / one, 2), "2": round(cpu_two / two, 2)},
        "cpu_bound_2_over_1": round(one / (cpu_two / 2), 2),
        "auto_workers": auto,
        **seen,
    }
    print(f"{name}: 1 worker {one:.2f} s, 2 workers {two:.2f} s, speed-up {one / two:.2f} (auto: {auto})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2, help="ABBA rounds: each worker count runs twice a round")
    parser.add_argument(
        "--quiet", type=float, default=0.1, help="before each round, wait until the machine is this idle"
    )
    parser.add_argument("--only", action="append", default=[], help="only the corpora named (default: all)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    report = Report("workers")
    with corpora() as folders:
        for name, corpus in folders.items():
            if not args.only or name in args.only:
                measure(report, name, corpus, args.rounds, args.quiet)
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
