"""Run a corpus through supervised workers: every file ends as chunks, skipped with a reason,
or failed with a reason, and each is written out the moment it finishes.

How many workers: as many as asked, or (by default) as many as the corpus is worth. A worker
costs its start (an interpreter, the tokenizer; a format's libraries on first use: docling's
take seconds), so a handful of small files get one worker, and a second core is used only when
there is enough work for both. Documents go to workers costliest first (one long document must
not finish last on an otherwise idle pool: dispatch.schedule) — or, with one worker, in sorted
order, which is also the order of the output, so the output needs no reordering at the end.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from parsegate.engines.base import Engine, Task
from parsegate.engines.local.dispatch import FIRST_USE, cost, schedule
from parsegate.engines.work import FileOutcome
from parsegate.runner.discover import Source
from parsegate.runner.route import Router

# Estimated seconds of work that pay for starting one more worker. Measured (benchmarks/workers.py,
# near-quiet 2-core machine): a second worker is 1.55x faster already on the fastapi docs (1.6 s of
# work for one) and breaks even on 3 small files (0.2 s), so one second of work is enough.
WORK_PER_WORKER = 1.0


def estimated_seconds(sources: list[Source]) -> float:
    total = 0.0
    first_use: dict[str, float] = {}
    for source in sources:
        suffix = source.path.suffix.lower()
        total += cost(source.path)
        first_use[suffix] = FIRST_USE.get(suffix, 0.0)
    return total + sum(first_use.values())


def choose_workers(requested: int, sources: list[Source]) -> int:
    """``requested`` (capped at the number of files), or, for 0, what the corpus is worth."""
    if requested > 0:
        return max(1, min(requested, len(sources)))
    cores = os.cpu_count() or 1
    return max(1, min(cores, len(sources), int(estimated_seconds(sources) / WORK_PER_WORKER)))


def process_corpus(
    sources: list[Source],
    router: Router,
    supervisor: Engine,
    on_file: Callable[[FileOutcome], None] | None = None,
) -> list[FileOutcome]:
    """Every source's outcome, in sorted order; each routed (and written) as it finishes."""
    tasks = [Task(n, s.path, s.doc_id, s.member) for n, s in enumerate(sources)]
    if supervisor.size > 1:
        tasks = schedule(tasks)
    found: dict[int, FileOutcome] = {}
    for done in supervisor.run(tasks):
        router.route(done.outcome, done.lines, done.task.index)
        found[done.task.index] = done.outcome
        if on_file is not None:
            on_file(done.outcome)
    return [found[n] for n in sorted(found)]
