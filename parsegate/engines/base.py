"""Engines that run the per-document work of ``parsegate run``: the local supervisor (worker
processes on this machine, ``parsegate.engines.local.supervisor``) and Ray Data (``ray_engine``), for a
corpus beyond one machine. Both take the same tasks and give back the same ``Done`` results,
which the run routes and stores the same way."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from parsegate.engines.local.dispatch import Task
from parsegate.engines.local.supervisor import Done

ENGINES = ("local", "ray")


class Engine(Protocol):
    size: int  # documents worked on at once
    replaced: int  # workers started to replace one that died or was stopped

    def start(self, count: int | None = None) -> None: ...

    def run(self, tasks: Iterable[Task]) -> Iterator[Done]: ...

    def close(self) -> None: ...
