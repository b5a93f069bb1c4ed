"""How each kind of element is chunked, as one table: how it is split when alone over
budget, whether it glues to what follows, and which context it carries.

"How is a list item split?" is one lookup here, not a chain of ``if``s.
"""

from __future__ import annotations

from dataclasses import dataclass

from parsegate.chunkers.structural.boundaries import CELLS, LINES, PROSE, Finder, Level


@dataclass(frozen=True)
class KindRule:
    plan: tuple[tuple[Finder, Level], ...]  # boundary levels, strongest first, for a unit alone over budget
    glue_next: bool = False  # introduces what follows: never ends a chunk when it need not
    context: str = ""  # "list" (lead-in, parent items), "header" (table), "speaker", "code"


DEFINITION_KINDS = frozenset({"function", "class", "method"})
CODE_KINDS = DEFINITION_KINDS | {"code"}

KINDS: dict[str, KindRule] = {
    "heading": KindRule(PROSE, glue_next=True),
    "caption": KindRule(PROSE, glue_next=True),
    "paragraph": KindRule(PROSE),
    "footnote": KindRule(PROSE),
    "speaker_notes": KindRule(PROSE),
    "list_item": KindRule(PROSE, context="list"),
    "table_row": KindRule(CELLS, context="header"),
    "turn": KindRule(PROSE, context="speaker"),
    "code": KindRule(LINES, context="code"),
    "function": KindRule(LINES, context="code"),
    "class": KindRule(LINES, context="code"),
    "method": KindRule(LINES, context="code"),
    "html": KindRule(LINES),
    "output": KindRule(LINES, context="output"),  # a notebook cell's output, and the code that made it
}
DEFAULT = KindRule(PROSE)


def rule(kind: str) -> KindRule:
    return KINDS.get(kind, DEFAULT)
