"""Chunks: a document that yields no chunk is quarantined, not silently absent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


def value(facts: DocFacts, thresholds: Thresholds) -> int:
    return facts.chunks


def total(all_facts: list[DocFacts], thresholds: Thresholds) -> int:
    return sum(f.chunks for f in all_facts)


CHECK: Definition[None] = Definition(
    name="chunks",
    metric="chunks",
    label="chunks",
    limit=Limit("min_chunks", 1, int),
    value=value,
    total=total,
)
