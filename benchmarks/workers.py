"""Throughput of `parsegate run` with 1 and 2 worker processes (and the automatic choice), on
corpora of many files: is 2 ever slower than 1?

Each measurement is a whole run as a user sees it (workers started cold, every document parsed,
chunked, gated and written), through the same code `parsegate run` uses. The worker counts
alternate within each repeat so that a busy machine slows all of them alike, and before each
pair the benchmark waits until other work uses under 10% of the machine (up to 5 minutes; the
busy share seen is recorded): another process on one of the two cores halves what two workers
can show. A pair during which other processes used more than 5% of the machine's CPU time
(/proc/stat's busy time less this process's and its workers') is run again, up to three times
(the pairs discarded are counted). The statistic is the median wall time.

Each corpus also gets its fixed cost per worker: a one-worker run of its smallest file (an
interpreter, the imports, the tokenizer, the format's libraries on first use, one tiny document),
and the speed-up two workers could reach at most with that cost (Amdahl: every worker pays it at
the same time, so it is not halved): ``ceiling = T1 / (F + (T1 - F) / 2)``. And the CPU both runs
used (this process's and its workers'), as cores kept busy: one worker may use the second core
already (the tokenizer's thread pool), and two workers that keep both cores busy can run no
faster than half the CPU they need: ``bound = T1 / (CPU2 / 2)``.

parsegate's bytecode is compiled first, as an installed wheel has it: with
PYTHONDONTWRITEBYTECODE set (these machines set it) a module changed since its .pyc was written
is compiled again by every worker at every start, a cost no user pays.

    .venv/bin/python benchmarks/workers.py [--repeat 3] [--quiet 0.1]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import sysconfig
import tempfile
import time
from pathlib import Path

from quiet import wait_for_quiet

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.engines.local.supervisor import Limits, Supervisor
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.runner.discover import Selection, Source, discover
from parsegate.runner.process import choose_workers, run_corpus
from parsegate.runner.route import Router

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "corpus"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
FOREIGN_SHARE = 0.05  # of the machine's CPU used by other processes during a pair: run it again
PAIR_ATTEMPTS = 3


def corpora() -> dict[str, list[Source]]:
    stdlib = [s for s in discover(STDLIB, Selection(("*.py",))) if "site-packages" not in s.doc_id]
    return {
        "shared corpus (all formats)": discover(SHARED, Selection()),
        "markdown (fastapi docs)": discover(SHARED / "markdown", Selection()),
        "code: 72 stdlib files": stdlib[:72],
        "code: 400 stdlib files": stdlib[:400],
        "3 small files": discover(SHARED / "markdown", Selection())[:3],
    }


def cpu() -> float:
    """CPU seconds of this process and of the workers it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy since boot (/proc/stat), or 0 where unknown."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(x) for x in stat.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


def one_pair(sources: list[Source], config: ChunkConfig) -> tuple[dict[str, tuple[float, float]], float]:
    """A run with 1 worker and one with 2, and the CPU seconds other processes used meanwhile."""
    busy, used, started = machine_busy(), cpu(), time.perf_counter()
    runs = {workers: one_run(sources, config, int(workers)) for workers in ("1", "2")}
    foreign = (machine_busy() - busy) - (cpu() - used)
    share = foreign / max(1e-9, (time.perf_counter() - started) * (os.cpu_count() or 1))
    return runs, share


def one_run(sources: list[Source], config: ChunkConfig, workers: int) -> tuple[float, float]:
    """Wall and CPU seconds of a whole run (workers started cold, and stopped at the end)."""
    with tempfile.TemporaryDirectory() as out:
        started, used = time.perf_counter(), cpu()
        with Supervisor(config, Limits(), workers) as supervisor, Router(Path(out), GateConfig()) as router:
            run_corpus(sources, router, supervisor)
            router.finish()
        return time.perf_counter() - started, cpu() - used


def fixed_cost(sources: list[Source], config: ChunkConfig, repeat: int) -> float:
    """Median wall seconds of a one-worker run over the corpus's smallest file."""
    smallest = min(sources, key=lambda s: s.path.stat().st_size)
    return statistics.median(one_run([smallest], config, 1)[0] for _ in range(max(3, repeat)))


def ceiling(one: float, fixed: float) -> float:
    """The most two workers can gain over one when each pays ``fixed`` before any work."""
    return one / (fixed + max(0.0, one - fixed) / 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "workers.json")
    parser.add_argument(
        "--quiet", type=float, default=0.1, help="before each pair of runs, wait until the machine is this idle"
    )
    args = parser.parse_args()
    compileall.compile_dir(HERE.parent / "parsegate", quiet=1)
    config = Chunker(ChunkConfig()).config
    results = {}
    for name, sources in corpora().items():
        megabytes = sum(s.path.stat().st_size for s in sources) / 1e6
        auto = choose_workers(0, sources)
        load_before = round(os.getloadavg()[0], 2)
        times: dict[str, list[float]] = {"1": [], "2": []}
        cpus: dict[str, list[float]] = {"1": [], "2": []}
        busy_seen, foreign_seen, discarded = [], [], 0
        for _ in range(args.repeat):
            for attempt in range(PAIR_ATTEMPTS):
                busy_seen.append(round(wait_for_quiet(args.quiet), 3))
                runs, foreign = one_pair(sources, config)
                if foreign <= FOREIGN_SHARE or attempt == PAIR_ATTEMPTS - 1:
                    break
                discarded += 1
            foreign_seen.append(round(foreign, 3))
            for workers, (wall, used) in runs.items():
                times[workers].append(wall)
                cpus[workers].append(used)
        one, two = statistics.median(times["1"]), statistics.median(times["2"])
        fixed = fixed_cost(sources, config, args.repeat)
        cpu_one, cpu_two = statistics.median(cpus["1"]), statistics.median(cpus["2"])
        results[name] = {
            "files": len(sources),
            "megabytes": round(megabytes, 2),
            "seconds_1_worker": round(one, 2),
            "seconds_2_workers": round(two, 2),
            "speedup_2_over_1": round(one / two, 2),
            "cpu_seconds_1_worker": round(cpu_one, 2),
            "cpu_seconds_2_workers": round(cpu_two, 2),
            "auto_workers": auto,
            "fixed_seconds_per_worker": round(fixed, 3),
            "ceiling_2_over_1": round(ceiling(one, fixed), 2),
            # Cores kept busy (CPU seconds of the run and its workers per wall second): one worker
            # above 1.0 uses the second core already (the tokenizer's threads); two workers near
            # 2.0 leave nothing idle, and their bound is then the CPU they need:
            "cores_busy_1_worker": round(cpu_one / one, 2),
            "cores_busy_2_workers": round(cpu_two / two, 2),
            "cpu_bound_2_over_1": round(one / (cpu_two / 2), 2),
            "all_seconds": {k: [round(t, 2) for t in v] for k, v in times.items()},
            # Other work on the machine slows two workers more than one: the 1-minute load average.
            "load_average_1min_before": load_before,
            "load_average_1min_after": round(os.getloadavg()[0], 2),
            "busy_share_before_each_pair": busy_seen,
            # Other processes' share of the machine's CPU during each pair kept, and pairs run again.
            "foreign_share_during_each_pair": foreign_seen,
            "pairs_discarded": discarded,
        }
        print(
            f"{name:32} {len(sources):4} files {megabytes:6.2f} MB  1 worker {one:6.2f} s  2 workers {two:6.2f} s  "
            f"speed-up {one / two:4.2f} (ceiling {ceiling(one, fixed):4.2f}, {fixed:.2f} s per worker)  "
            f"CPU {cpu_one:5.1f} s vs {cpu_two:5.1f} s (cores busy {cpu_one / one:4.2f} vs {cpu_two / two:4.2f}; "
            f"bound by CPU {one / (cpu_two / 2):4.2f})  (auto: {auto})",
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
