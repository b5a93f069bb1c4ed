"""Code: whole definitions, the share of code chunks that hold whole definitions only
(informational; code: definitions parse alone is the check that can fail)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Subject
from parsegate.quality_gates.checks.code_units import held_definitions

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class CodeWholeFacts:
    code_chunks: int = 0
    code_whole: int | None = None


def measure(s: Subject) -> CodeWholeFacts:
    held = held_definitions(s)
    if held is None:
        return CodeWholeFacts()
    return CodeWholeFacts(len(held), sum(h.whole for h in held))


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(CodeWholeFacts)
    return own.code_whole, own.code_chunks


CHECK = Definition(
    name="code_whole",
    metric="code_whole_definitions",
    label="code: whole definitions",
    facts=CodeWholeFacts,
    measure=measure,
    parts=parts,
    formats=frozenset({"code", "notebook"}),  # a notebook's code cells too
    stored="code_whole",
)
