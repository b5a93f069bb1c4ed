"""The heading stack, and the title-from-first-heading rule."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from parsegate.parsers.model import (
    Element,
)


@dataclass
class HeadingStack:
    """The headings above the current position: a heading closes every open heading of the same
    or a deeper level."""

    open: list[tuple[int, str]] = field(default_factory=list)
    _path: tuple[str, ...] = ()

    def push(self, level: int, title: str) -> tuple[str, ...]:
        while self.open and self.open[-1][0] >= level:
            self.open.pop()
        self.open.append((level, title))
        self._path = tuple([title for _, title in self.open])  # (a list, not a generator: half the time)
        return self._path

    def reset(self, entries: Iterable[tuple[int, str]] = ()) -> None:
        self.open = list(entries)
        self._path = tuple([title for _, title in self.open])

    def path(self) -> tuple[str, ...]:
        return self._path


def title_from_first_heading(elements: Iterable[Element], text: str) -> str | None:
    """A document's title: its first level-1 heading."""
    first = next((e for e in elements if e.kind == "heading" and e.level == 1), None)
    return None if first is None else text[first.start : first.end]
