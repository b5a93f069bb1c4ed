"""Empty chunks: a chunk with no text (whitespace only) embeds nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "empty"


@dataclass(frozen=True)
class EmptyFacts:
    empty: int = 0


def measure(s: Subject) -> EmptyFacts:
    empty = [c for c in s.chunks if not c.text.strip()]
    for c in empty:
        s.faults.chunk(FAULTS, c, "no text")
    return EmptyFacts(len(empty))


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    return facts.get(EmptyFacts).empty, facts.chunks


CHECK = Definition(
    name="empty",
    metric="empty_chunk_rate",
    label="empty chunks",
    limit=Limit("max_empty_chunk_rate", 0.0),
    facts=EmptyFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    stored="empty",
)
