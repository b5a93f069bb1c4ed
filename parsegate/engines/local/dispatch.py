"""Which document an idle worker takes next.

Documents are taken in the order given (for a run with several workers, ``schedule``: the
costliest first, the first of a slow-to-import format counting its libraries' import), with
one exception: a format whose libraries are slow to import (docling's, about 4 s of CPU for
DOCX, PPTX, XLSX and HTML) stays with the workers that have imported them already, unless there
is enough of it left to be worth a second import. A corpus with a few Office files among many
others then pays docling's import once, not once per worker.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from pathlib import Path

from parsegate.engines.base import Task
from parsegate.parsers.formats import UNKNOWN_COST, forms_by_suffix

# Rough CPU cost of a document, to choose the worker count (runner.choose_workers) and the order:
# seconds per file, per MB and a format's libraries on first use, by suffix, and which formats
# share slow-to-import libraries (HEAVY): all from the format table (parsers/formats.py).
_FORMS = forms_by_suffix()
HEAVY = {suffix: form.cost.libraries for suffix, form in _FORMS.items() if form.cost.libraries}
SHARE_BYTES = 1_000_000  # of a heavy format left: worth importing its libraries in one more worker
# A document queued behind the one a worker is reading is at most this long: the queue saves the
# round trip between documents (well under a millisecond), which matters only for short ones.
SHORT = 0.05
FIRST_USE = {suffix: form.cost.first_use for suffix, form in _FORMS.items() if form.cost.first_use}


def family(path: Path) -> str | None:
    return HEAVY.get(path.suffix.lower())


def cost(path: Path) -> float:
    """Estimated seconds to read one document, its libraries' import aside."""
    form = _FORMS.get(path.suffix.lower())
    costs = UNKNOWN_COST if form is None else form.cost  # unknown: a file read as text or code by its content
    return costs.per_file + _size(path) / 1e6 * costs.per_mb


def schedule(tasks: list[Task]) -> list[Task]:
    """The order for several workers: the costliest document first, and the first document of a
    format that is slow to import carries that import. A run ends when its last document does:
    a long one started last keeps one worker busy while the others idle. (The shared corpus's
    one web page took 4.2 s, docling's import in it, and started after 2.8 s of PDFs: its worker
    finished 2.7 s after the other had run out of work.)"""
    costs = {task.index: cost(task.path) for task in tasks}
    imported: set[str] = set()
    for task in sorted(tasks, key=lambda t: costs[t.index], reverse=True):
        libraries = family(task.path) or task.path.suffix.lower()
        if libraries not in imported:
            imported.add(libraries)
            costs[task.index] += FIRST_USE.get(task.path.suffix.lower(), 0.0)
    return sorted(tasks, key=lambda t: costs[t.index], reverse=True)


def kept_together(tasks: Iterable[Task]) -> set[str]:
    """The slow-to-import families with too little of them among ``tasks`` to be worth importing
    in more than one worker (under SHARE_BYTES): their documents should go to one worker."""
    held: dict[str, int] = {}
    for task in tasks:
        kind = family(task.path)
        if kind is not None:
            held[kind] = held.get(kind, 0) + _size(task.path)
    return {kind for kind, size in held.items() if size < SHARE_BYTES}


class Pending:
    """Tasks not yet given to a worker, one queue per heavy family and one for the rest."""

    def __init__(self, tasks: Iterable[Task]) -> None:
        self.queues: dict[str | None, deque[tuple[int, Task]]] = {}
        self.left: dict[str | None, int] = {}  # bytes left per family
        for rank, task in enumerate(tasks):
            self.push(task, rank)

    def __len__(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def push(self, task: Task, rank: int = -1) -> None:
        """Queue a task (rank -1: before every other, for a task handed back)."""
        kind = family(task.path)
        queue = self.queues.setdefault(kind, deque())
        if rank < 0:
            queue.appendleft((rank, task))
        else:
            queue.append((rank, task))
        self.left[kind] = self.left.get(kind, 0) + _size(task.path)

    def take(self, loaded_here: set[str], loaded_anywhere: set[str], short: bool = False) -> Task | None:
        """The first task (in the given order) this worker should take, or None to stay idle.
        ``short``: only if that task is short and needs no library the worker lacks (to queue
        behind the one it is reading: a long one queued there could wait while others idle)."""
        eligible = [
            kind
            for kind, queue in self.queues.items()
            if queue
            and (
                kind is None
                or kind in loaded_here
                or kind not in loaded_anywhere
                or self.left.get(kind, 0) >= SHARE_BYTES
            )
        ]
        if not eligible:
            return None
        kind = min(eligible, key=lambda k: self.queues[k][0][0])
        if short and ((kind is not None and kind not in loaded_here) or cost(self.queues[kind][0][1].path) > SHORT):
            return None
        _, task = self.queues[kind].popleft()
        self.left[kind] -= _size(task.path)
        return task


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
