"""Token counts exact: each chunk's ``tokens`` field equals the real count of its embed_text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "token_count"


@dataclass(frozen=True)
class TokenCountFacts:
    tokens_exact: int | None = None  # chunks whose ``tokens`` field equals the real count


def measure(s: Subject) -> TokenCountFacts:
    exact = 0
    for count, c in zip(s.counts.embedded, s.chunks, strict=True):
        if count is None:
            continue
        if count == c.tokens:
            exact += 1
        else:
            s.faults.chunk(FAULTS, c, f"says {c.tokens} tokens, counts {count}")
    return TokenCountFacts(exact)


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    return facts.get(TokenCountFacts).tokens_exact, facts.chunks


CHECK = Definition(
    name="token_counts",
    metric="token_count_accuracy",
    label="token counts exact",
    limit=Limit("min_token_count_accuracy", 1.0),
    facts=TokenCountFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    independent=True,
    stored="tokens_exact",
)
