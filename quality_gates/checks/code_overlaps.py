"""Code: overlapping chunks. The code chunks of one file (those naming a language, parent-child's
parents aside) are disjoint and in source order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "code_overlaps"


@dataclass(frozen=True)
class CodeOverlapFacts:
    code_overlaps: int | None = None  # pairs of code chunks that overlap or run out of order


def measure(s: Subject) -> CodeOverlapFacts:
    if not s.code or s.reference is None:
        return CodeOverlapFacts()
    count = 0
    reach = -1
    previous: Chunk | None = None
    for c in s.code:
        if previous is not None and c.start < reach:
            count += 1
            s.faults.add(
                FAULTS,
                chunk=c.id,
                start=c.start,
                end=c.end,
                other=previous.id,
                why=f"starts at {c.start}, before the previous chunk ends ({reach})",
            )
        reach = max(reach, c.end)
        previous = c
    return CodeOverlapFacts(count)


def value(facts: DocFacts, thresholds: Thresholds) -> int | None:
    return facts.get(CodeOverlapFacts).code_overlaps


CHECK = Definition(
    name="code_overlaps",
    metric="code_overlaps",
    label="code: overlapping chunks",
    limit=Limit("max_code_overlaps", 0, int),
    facts=CodeOverlapFacts,
    measure=measure,
    value=value,
    faults=FAULTS,
    needs_source=True,
    stored="code_overlaps",
)
