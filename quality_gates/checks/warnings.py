"""Warnings: a document fails on a warning code named in ``fail_on_warnings`` (say needs_ocr)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds
    from parsegate.quality_gates.verdict import Check


@dataclass(frozen=True)
class WarningFacts:
    warnings: dict[str, int] = field(default_factory=dict)  # the parser's warnings, by code


def measure(s: Subject) -> WarningFacts:
    return WarningFacts(dict(Counter(w.code for w in s.doc.warnings)))


def judge(facts: DocFacts, thresholds: Thresholds) -> list[Check]:
    from parsegate.quality_gates.verdict import Check

    counts = facts.get(WarningFacts).warnings
    out = []
    for code in thresholds.fail_on_warnings:
        count = counts.get(code, 0)
        out.append(Check("fail_on_warnings", f"warnings.{code}", count, 0, count == 0))
    return out


CHECK = Definition(
    name="warnings",
    metric=None,
    label=None,
    limit=Limit("fail_on_warnings", (), tuple),
    facts=WarningFacts,
    measure=measure,
    judge=judge,
)
