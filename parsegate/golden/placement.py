"""Where a located evidence span falls among a document's chunks: whole inside one chunk that
also carries the context it needs, or cut, and where.

Used by the golden check (one configuration, before and after a change) and by the evaluation
(every configuration, and every retrieved set).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from parsegate.golden.evidence import Located


class ChunkLike(Protocol):
    """What placement needs of a chunk: its source span, its text and what gets embedded."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def embed_text(self) -> str: ...


WHOLE = "whole"
SPLIT = "split"  # the span runs over a chunk boundary
NO_CONTEXT = "no_context"  # whole in a chunk that lacks the context the span needs
NOT_FOUND = "not_found"  # the document's text does not hold the quote
UNCOVERED = "uncovered"  # no chunk holds any of it


@dataclass(frozen=True)
class Placement:
    status: str
    span: tuple[int, int] | None  # the occurrence this describes
    chunk: tuple[int, int] | None = None  # the chunk holding it whole (WHOLE, NO_CONTEXT)
    pieces: tuple[tuple[int, int], ...] = ()  # the chunks it is cut across (SPLIT)
    missing: tuple[str, ...] = ()  # context the holding chunk lacks (NO_CONTEXT)

    @property
    def whole(self) -> bool:
        return self.status == WHOLE

    def reason(self) -> str:
        """One line a person can act on."""
        span = f"[{self.span[0]}-{self.span[1]}]" if self.span else ""
        if self.status == WHOLE:
            return f"whole in chunk {_fmt(self.chunk)}"
        if self.status == NOT_FOUND:
            return "the quote is not in the document's text"
        if self.status == UNCOVERED:
            return f"span {span} is in no chunk"
        if self.status == NO_CONTEXT:
            missing = ", ".join(repr(_short(m)) for m in self.missing)
            return f"span {span} is whole in chunk {_fmt(self.chunk)}, but its context {missing} is not with it"
        assert self.span is not None
        chunks = " and ".join(_fmt(p) for p in self.pieces)
        cuts = ", ".join(str(p[1]) for p in self.pieces[:-1])
        gaps = ", ".join(_fmt(g) for g in _gaps(self.span, self.pieces))
        if len(self.pieces) == 1:
            return f"span {span} is only partly in chunk {chunks}: {gaps} is in no chunk"
        return f"span {span} is split across chunks {chunks} (cut at {cuts})" + (
            f"; {gaps} is in no chunk" if gaps else ""
        )


def _gaps(span: tuple[int, int], pieces: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Parts of ``span`` before the first piece or after the last (what lies between two
    chunks is whitespace or page furniture by construction, and is not reported)."""
    first, last = min(p[0] for p in pieces), max(p[1] for p in pieces)
    return [g for g in ((span[0], first), (last, span[1])) if g[1] > g[0]]


def _fmt(span: tuple[int, int] | None) -> str:
    return f"[{span[0]}-{span[1]}]" if span else "?"


def _short(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def carries(chunk: ChunkLike, context: Sequence[str]) -> tuple[str, ...]:
    """The context strings a chunk does not carry (in its text or its embed_text)."""
    return tuple(c for c in context if c not in chunk.embed_text and c not in chunk.text)


def place(located: Located, chunks: Sequence[ChunkLike]) -> Placement:
    """The best placement over every occurrence: whole beats whole-without-context beats split."""
    if not located.found:
        return Placement(NOT_FOUND, None)
    best: Placement | None = None
    for span in located.ranges:
        placement = _place_one(span, located.context, chunks)
        if placement.whole:
            return placement
        if best is None or _rank(placement) < _rank(best):
            best = placement
    assert best is not None
    return best


def _rank(p: Placement) -> int:
    return {WHOLE: 0, NO_CONTEXT: 1, SPLIT: 2, UNCOVERED: 3}.get(p.status, 4)


def _place_one(span: tuple[int, int], context: Sequence[str], chunks: Sequence[ChunkLike]) -> Placement:
    start, end = span
    holding = [c for c in chunks if c.start <= start and end <= c.end]
    for chunk in holding:
        if not carries(chunk, context):
            return Placement(WHOLE, span, (chunk.start, chunk.end))
    if holding:
        chunk = holding[0]
        return Placement(NO_CONTEXT, span, (chunk.start, chunk.end), missing=carries(chunk, context))
    pieces = tuple(sorted((c.start, c.end) for c in chunks if c.start < end and start < c.end))
    if not pieces:
        return Placement(UNCOVERED, span)
    return Placement(SPLIT, span, pieces=pieces)


def whole_in_text(quote: str, context: Sequence[str], chunks: Sequence[ChunkLike]) -> bool:
    """Text-only check, for chunks whose offsets point into a text we no longer have (the
    expected chunks of a golden case made from an older parse)."""
    return any(quote in c.text and not carries(c, context) for c in chunks)
