"""Context share: the tokens context prefixes (title, section path, table header, code
signature) take of all tokens embedded; off by default (``max_context_share``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class ContextFacts:
    embedded_tokens: int | None = None
    context_tokens: int | None = None


def measure(s: Subject) -> ContextFacts:
    counts = s.counts
    counted = [
        (n, t, c)
        for n, t, c in zip(counts.embedded, counts.text, counts.counters, strict=True)
        if n is not None and c is not None
    ]
    return ContextFacts(sum(n for n, _, _ in counted), sum(max(0, n - t - c.specials) for n, t, c in counted))


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(ContextFacts)
    return own.context_tokens, own.embedded_tokens


CHECK = Definition(
    name="context_share",
    metric="context_share",
    label="context share of embedded tokens",
    limit=Limit("max_context_share", None),
    facts=ContextFacts,
    measure=measure,
    parts=parts,
    stored="context_tokens",
)
