"""What an engine is: it runs the per-document work of a run (``parsegate.engines.work.process``)
and gives back each document's outcome and chunk lines as it finishes. Two engines: the local
supervisor (worker processes on this machine, ``engines.local``) and Ray actors (``engines.ray``),
for a corpus beyond one machine. Both take the same tasks under the same limits and give back the
same ``Done`` results, which the run routes and stores the same way."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from parsegate.engines.work import FileOutcome

ENGINES = ("local", "ray")


@dataclass(frozen=True)
class Task:
    index: int  # the document's place in sorted order
    path: Path
    doc_id: str
    member: str | None = None  # an attachment of the mail at ``path`` (runner/members.py)


@dataclass(frozen=True)
class Limits:
    """Per-document wall-clock limit in seconds (per format: a suffix such as ``html`` or a
    parser name such as ``office``), and per-worker address space in MB (0: no limit)."""

    seconds: float = 120.0
    per_format: tuple[tuple[str, float], ...] = ()
    memory_mb: int = 2048

    def seconds_for(self, path: Path) -> float:
        table = dict(self.per_format)
        suffix = path.suffix.lower().lstrip(".")
        if suffix in table:
            return table[suffix]
        if table:
            from parsegate.parsers.registry import parser_for

            parser = parser_for(path)
            if parser is not None and parser.NAME in table:
                return table[parser.NAME]
        return self.seconds


@dataclass
class Done:
    task: Task
    outcome: FileOutcome
    lines: list[bytes]


class Engine(Protocol):
    size: int  # documents worked on at once
    replaced: int  # workers started to replace one that died or was stopped

    def start(self, count: int | None = None) -> None: ...

    def run(self, tasks: Iterable[Task]) -> Iterator[Done]: ...

    def close(self) -> None: ...
