"""The largest chunk: the most tokens any embed_text counts (informational: the budget is the
check)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class LargestFacts:
    largest: int = 0


def measure(s: Subject) -> LargestFacts:
    return LargestFacts(max((n for n in s.counts.embedded if n is not None), default=0))


def value(facts: DocFacts, thresholds: Thresholds) -> int:
    return facts.get(LargestFacts).largest


def total(all_facts: list[DocFacts], thresholds: Thresholds) -> int:
    return max((f.get(LargestFacts).largest for f in all_facts), default=0)


CHECK = Definition(
    name="largest",
    metric="largest_chunk_tokens",
    label="largest chunk (tokens)",
    facts=LargestFacts,
    measure=measure,
    value=value,
    total=total,
)
