"""Ids and reading order: sort, renumber ids, remap references."""

from __future__ import annotations

import itertools

from parsegate.parsers.model import (
    CONTAINER_KINDS,
    CodeData,
    Element,
    ListData,
    TableData,
)


def renumbered(elements: list[Element]) -> list[Element]:
    """Elements in reading order (a container before its first child), ids ``e0``, ``e1``, …
    renumbered to match, parents and references remapped."""
    ordered = sorted(elements, key=lambda e: (e.start, -e.end, e.kind not in CONTAINER_KINDS))
    new_ids = {el.id: f"e{n}" for n, el in enumerate(ordered)}
    for el in ordered:
        el.id = new_ids[el.id]
        el.parent = new_ids.get(el.parent) if el.parent else None
        data = el.data
        # A tuple, not a union: isinstance of a union type costs several times as much, per element.
        if isinstance(data, (ListData, TableData, CodeData)) and data.lead_in is not None:
            data.lead_in = new_ids.get(data.lead_in)  # a lead-in no longer there introduces nothing
    return ordered


def in_reading_order(elements: list[Element]) -> bool:
    """True when ``renumbered`` would keep this order (its sort is stable): each element's key
    (start, -end, leaf) is at least the one before it. Checking costs a fraction of the sort."""
    for before, el in itertools.pairwise(elements):
        if el.start != before.start:
            if el.start < before.start:
                return False
        elif el.end > before.end or (
            el.end == before.end and before.kind not in CONTAINER_KINDS and el.kind in CONTAINER_KINDS
        ):
            return False  # (a container sorts before a leaf of the same span)
    return True
