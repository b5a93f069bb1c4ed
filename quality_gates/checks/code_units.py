"""What the code checks share: which chunks are code chunks, and the definitions (functions,
classes, methods, as the code parser found them) each holds whole or sits inside."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Subject, overlapping

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.parsers.model import Element

DEFINITIONS = frozenset({"function", "class", "method"})


@dataclass(frozen=True)
class Held:
    chunk: Chunk
    inside: list[Element]  # definitions the chunk holds whole
    around: list[Element]  # definitions the chunk lies inside
    whole: bool  # it holds whole definitions only


def held_definitions(s: Subject) -> list[Held] | None:
    """Per code chunk (naming a language, of kind code or a definition), what it holds; None when
    the document has no definitions (the code checks then do not apply)."""
    if "held" not in s.shared:
        s.shared["held"] = _held(s)
    found: list[Held] | None = s.shared["held"]
    return found


def _held(s: Subject) -> list[Held] | None:
    definitions = sorted((e for e in s.doc.elements if e.kind in DEFINITIONS), key=lambda e: e.start)
    if not definitions:
        return None
    starts = [e.start for e in definitions]
    out = []
    for c in s.chunks:
        if not c.language or not set(c.kinds or []) & (DEFINITIONS | {"code"}):
            continue
        held = overlapping(starts, definitions, c.start, c.end)
        inside = [e for e in held if c.start <= e.start and e.end <= c.end]
        around = [e for e in held if e.start < c.start and c.end <= e.end]
        out.append(Held(c, inside, around, len(inside) == len(held)))
    return out
