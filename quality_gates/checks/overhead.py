"""Index overhead: characters indexed per character of the parser's text (overlap and
parent-child raise it); an index size cap, off by default (``max_overhead``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class OverheadFacts:
    source_chars: int = 0
    indexed_chars: int = 0


def measure(s: Subject) -> OverheadFacts:
    return OverheadFacts(len(s.doc.text), sum(max(0, c.end - c.start) for c in s.chunks))


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(OverheadFacts)
    return own.indexed_chars, own.source_chars


CHECK = Definition(
    name="overhead",
    metric="overhead",
    label="index overhead",
    limit=Limit("max_overhead", None),
    facts=OverheadFacts,
    measure=measure,
    parts=parts,
    stored="indexed_chars",
)
