"""Text that remembers where each character came from in the clean source.

Every messy variant except the PDF one is a chain of edits (delete, insert, replace) on the
clean text; each output character keeps the clean offset it came from (-1 for inserted
characters), and edits never reorder, so a clean span maps to the smallest variant slice
holding every surviving character of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import numpy as np


class Tracked:
    def __init__(self, text: str, origin: np.ndarray | None = None) -> None:
        self.text = text
        self.origin = np.arange(len(text), dtype=np.int64) if origin is None else origin
        assert len(self.origin) == len(self.text)

    def edit(self, edits: Iterable[tuple[int, int, str]]) -> Tracked:
        """Apply non-overlapping ``(start, end, replacement)`` edits given in order; the
        replacement's characters are new (origin -1)."""
        texts: list[str] = []
        origins: list[np.ndarray] = []
        pos = 0
        for start, end, replacement in edits:
            assert start >= pos, "edits must be ordered and must not overlap"
            texts += [self.text[pos:start], replacement]
            origins += [self.origin[pos:start], np.full(len(replacement), -1, dtype=np.int64)]
            pos = end
        texts.append(self.text[pos:])
        origins.append(self.origin[pos:])
        return Tracked("".join(texts), np.concatenate(origins) if origins else self.origin)

    def sub(
        self, pattern: str | re.Pattern[str], repl: Callable[[re.Match[str]], list[tuple[int, int, str]]]
    ) -> Tracked:
        """For each match, ``repl`` returns edits (absolute offsets inside the match)."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        edits: list[tuple[int, int, str]] = []
        for m in regex.finditer(self.text):
            edits += repl(m)
        return self.edit(edits)

    def delete(self, pattern: str | re.Pattern[str], group: int = 0) -> Tracked:
        return self.sub(pattern, lambda m: [(m.start(group), m.end(group), "")] if m.group(group) else [])

    def lower(self) -> Tracked:
        low = self.text.lower()
        if len(low) == len(self.text):
            return Tracked(low, self.origin)
        # a few characters lower-case to two (İ): keep those as they are, offsets stay 1:1
        return Tracked("".join(c.lower() if len(c.lower()) == 1 else c for c in self.text), self.origin)

    def map_span(self, start: int, end: int) -> tuple[int, int] | None:
        """The variant slice holding what survives of clean ``[start, end)``."""
        inside = np.flatnonzero((self.origin >= start) & (self.origin < end))
        if not len(inside):
            return None
        return int(inside[0]), int(inside[-1]) + 1


def concat(parts: list[Tracked], sep: str) -> tuple[str, list[int]]:
    """Join the parts' texts with ``sep``; return the text and where each part starts."""
    bases, pos = [], 0
    for i, part in enumerate(parts):
        if i:
            pos += len(sep)
        bases.append(pos)
        pos += len(part.text)
    return sep.join(p.text for p in parts), bases
