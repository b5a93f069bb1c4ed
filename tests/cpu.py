"""How a test tells a linear path from a quadratic one without a clock limit: the CPU seconds of
the same work at two sizes, as a ratio. A limit in seconds measures the machine (a busy CI
runner, a slower core); a ratio of two runs on the same machine, moments apart, measures the
algorithm."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def seconds(fn: Callable[[], object]) -> float:
    """CPU seconds, the best of two runs, with the garbage collector held: a ratio of wall times
    on a busy machine, or of collections over a heap the earlier tests grew, measures the
    machine, not the algorithm."""
    best = float("inf")
    for _ in range(2):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def ratio(large: Callable[[], object], small: Callable[[], object]) -> float:
    """CPU seconds of ``large`` over those of ``small`` (at least a millisecond)."""
    return seconds(large) / max(seconds(small), 1e-3)
