"""Budget compliance: every embed_text, counted for real with the tokenizer its chunk names, is
within the budget (parent-child's parents within theirs). A chunk naming a tokenizer that is not
at hand cannot be shown within budget: it fails."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "budget"


@dataclass(frozen=True)
class BudgetFacts:
    budget: int = 0
    over_budget: int = 0


def measure(s: Subject) -> BudgetFacts:
    counts = s.counts
    for i in counts.unknown:
        s.faults.chunk(FAULTS, s.chunks[i], f"unknown tokenizer {s.chunks[i].tokenizer or ''!r}")
    over = 0
    for count, c, budget in zip(counts.embedded, s.chunks, s.budgets, strict=True):
        if count is None or count > budget:
            over += 1
        if count is not None and count > budget:
            s.faults.chunk(FAULTS, c, f"{count} tokens over the budget of {budget}")
    return BudgetFacts(s.budget, over)


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    return facts.chunks - facts.get(BudgetFacts).over_budget, facts.chunks


CHECK = Definition(
    name="budget",
    metric="budget_compliance",
    label="budget compliance",
    limit=Limit("min_budget_compliance", 1.0),
    facts=BudgetFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    stored="over_budget",
)
