"""Which document an idle worker takes next.

Documents are taken in the order given (largest first, for a run with several workers), with
one exception: a format whose libraries are slow to import (docling's, about 4 s of CPU for
DOCX, PPTX, XLSX and HTML) stays with the workers that have imported them already, unless there
is enough of it left to be worth a second import. A corpus with a few Office files among many
others then pays docling's import once, not once per worker.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

HEAVY = {suffix: "office" for suffix in (".docx", ".docm", ".pptx", ".xlsx", ".xlsm", ".html", ".htm", ".xhtml")}
SHARE_BYTES = 1_000_000  # of a heavy format left: worth importing its libraries in one more worker


@dataclass(frozen=True)
class Task:
    index: int  # the document's place in sorted order
    path: Path
    doc_id: str


def family(path: Path) -> str | None:
    return HEAVY.get(path.suffix.lower())


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

    def take(self, loaded_here: set[str], loaded_anywhere: set[str]) -> Task | None:
        """The first task (in the given order) this worker should take, or None to stay idle."""
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
        _, task = self.queues[kind].popleft()
        self.left[kind] -= _size(task.path)
        return task


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
