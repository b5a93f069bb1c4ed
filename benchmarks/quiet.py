"""Waiting for a quiet machine before a timed run (benchmarks/workers.py, incremental.py): the
machines are shared, and another process on one of the two cores halves what two workers can
show and slows a run's several processes more than a re-run's one."""

from __future__ import annotations

import time


def busy_share(seconds: float = 1.0) -> float:
    """The share of the machine's CPU time that was busy over ``seconds`` (/proc/stat)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]  # all, idle + iowait

    total0, idle0 = sample()
    time.sleep(seconds)
    total1, idle1 = sample()
    return 1.0 - (idle1 - idle0) / max(1, total1 - total0)


def wait_for_quiet(limit: float, most: float = 300.0) -> float:
    """Wait (at most ``most`` seconds) until other work uses under ``limit`` of the machine:
    two workers need both cores, and another process on one of them halves what they can show.
    Returns the busy share last seen."""
    deadline = time.monotonic() + most
    busy = busy_share()
    while busy > limit and time.monotonic() < deadline:
        busy = busy_share()
    return busy
