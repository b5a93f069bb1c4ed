"""What changed between a case's expected outputs and today's: elements added and lost,
heading levels, element offsets, element ids, chunk boundaries (before/after offsets) and other
fields; and chunk ids that are not what their content says (``ids``: expected files store no
chunk ids, so they are recomputed rather than compared).

Elements are paired by (kind, text) in order, so one inserted paragraph reads as one addition
and not as every later element moving; chunks are paired by their span.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

Record = dict[str, Any]

# Chunk fields compared for chunks whose span did not move, where the expected record has them.
_CHUNK_FIELDS = ("text", "embed_text", "tokens", "section_path", "kinds", "lines", "pages", "language", "symbol")
# Written only when set (a child's parent chunk, by index): absent means none.
_CHUNK_RELATIONS = ("parent",)
_ELEMENT_FIELDS = ("section_path", "parent", "lines", "page", "bbox", "data")


@dataclass
class Diff:
    elements_added: list[Record] = field(default_factory=list)
    elements_lost: list[Record] = field(default_factory=list)
    levels_changed: list[Record] = field(default_factory=list)
    elements_moved: list[Record] = field(default_factory=list)
    element_ids_changed: list[Record] = field(default_factory=list)
    element_fields_changed: list[Record] = field(default_factory=list)
    boundaries_moved: list[Record] = field(default_factory=list)
    chunk_ids_wrong: list[Record] = field(default_factory=list)  # set by check_case (ids.check_ids)
    chunk_fields_changed: list[Record] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(getattr(self, name) for name in self.__dataclass_fields__)

    def counts(self) -> dict[str, int]:
        return {name: len(getattr(self, name)) for name in self.__dataclass_fields__ if getattr(self, name)}

    def to_dict(self) -> dict[str, list[Record]]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def _element_brief(e: Record) -> Record:
    return {"id": e.get("id"), "kind": e.get("kind"), "span": [e.get("start"), e.get("end")], "text": e.get("text")}


def compare_elements(before: list[Record], after: list[Record], diff: Diff) -> None:
    keys_a = [(e.get("kind"), e.get("text")) for e in before]
    keys_b = [(e.get("kind"), e.get("text")) for e in after]
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op != "equal":
            diff.elements_lost.extend(_element_brief(e) for e in before[a0:a1])
            diff.elements_added.extend(_element_brief(e) for e in after[b0:b1])
            continue
        for old, new in zip(before[a0:a1], after[b0:b1], strict=True):
            _compare_element(old, new, diff)


def _compare_element(old: Record, new: Record, diff: Diff) -> None:
    brief = {"kind": new.get("kind"), "text": new.get("text"), "id": new.get("id")}
    if old.get("level") != new.get("level"):
        diff.levels_changed.append({**brief, "before": old.get("level"), "after": new.get("level")})
    if (old.get("start"), old.get("end")) != (new.get("start"), new.get("end")):
        before, after = [old.get("start"), old.get("end")], [new.get("start"), new.get("end")]
        diff.elements_moved.append({**brief, "before": before, "after": after})
    if old.get("id") != new.get("id"):
        diff.element_ids_changed.append({**brief, "before": old.get("id"), "after": new.get("id")})
    for name in _ELEMENT_FIELDS:
        if old.get(name) != new.get(name):
            diff.element_fields_changed.append(
                {**brief, "field": name, "before": old.get(name), "after": new.get(name)}
            )


def _span(c: Record) -> tuple[int, int]:
    return (int(c["start"]), int(c["end"]))


def compare_chunks(before: list[Record], after: list[Record], diff: Diff) -> None:
    spans_a = [_span(c) for c in before]
    spans_b = [_span(c) for c in after]
    matcher = difflib.SequenceMatcher(None, spans_a, spans_b, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op != "equal":
            diff.boundaries_moved.append(
                {
                    "before": [list(s) for s in spans_a[a0:a1]],
                    "after": [list(s) for s in spans_b[b0:b1]],
                    "chunks_before": [a0, a1],
                    "chunks_after": [b0, b1],
                }
            )
            continue
        for old, new in zip(before[a0:a1], after[b0:b1], strict=True):
            _compare_chunk(old, new, diff)


def _compare_chunk(old: Record, new: Record, diff: Diff) -> None:
    span = list(_span(new))
    names = [n for n in _CHUNK_FIELDS if n in old]
    # Expected files that stored ids (written before relations were kept by index) hold no relations.
    if "id" not in old:
        names += _CHUNK_RELATIONS
    for name in names:
        if old.get(name) != new.get(name):
            diff.chunk_fields_changed.append(
                {"span": span, "field": name, "before": old.get(name), "after": new.get(name)}
            )


def compare(expected: tuple[list[Record], list[Record]], actual: tuple[list[Record], list[Record]]) -> Diff:
    diff = Diff()
    compare_elements(expected[0], actual[0], diff)
    compare_chunks(expected[1], actual[1], diff)
    return diff
