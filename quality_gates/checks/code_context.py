"""Code: with context, the share of code chunks whose embed_text carries every context line their
definitions need: a definition held whole needs its imports and enclosing headers, a chunk inside
a definition needs that definition's header (informational: trusts the parser's context lines)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.parsers.model import CodeData
from parsegate.quality_gates.checks.base import Definition, Subject
from parsegate.quality_gates.checks.code_units import held_definitions

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "code_context"


@dataclass(frozen=True)
class CodeContextFacts:
    code_chunks: int = 0
    code_context: int | None = None


def measure(s: Subject) -> CodeContextFacts:
    held = held_definitions(s)
    if held is None:
        return CodeContextFacts()
    carried = 0
    for h in held:
        # In source order (dict keys, not a set): the fault names the first line missing, the
        # same one on every run (a set's order changed with the interpreter's hash seed).
        needed = dict.fromkeys(line for e in h.inside if isinstance(e.data, CodeData) for line in e.data.context)
        headers = (e.data.signature for e in h.around if isinstance(e.data, CodeData) and e.data.signature)
        needed.update(dict.fromkeys(headers))
        absent = [line for line in needed if line not in h.chunk.embed_text]
        carried += not absent
        if absent:
            s.faults.chunk(FAULTS, h.chunk, f"lacks {absent[0]!r}")
    return CodeContextFacts(len(held), carried)


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(CodeContextFacts)
    return own.code_context, own.code_chunks


CHECK = Definition(
    name="code_context",
    metric="code_with_context",
    label="code: with context",
    facts=CodeContextFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    formats=frozenset({"code", "notebook"}),  # a notebook's code cells too
    stored="code_context",
)
