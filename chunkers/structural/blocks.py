"""Blocks: the top-level structures of a section (a paragraph, a whole table, a whole list, a
whole class), each the outermost element around its leaves. parent-child cuts its parents between
blocks where it can; the semantic strategies never cut inside a list, a table or a quote."""

from __future__ import annotations

from parsegate.parsers.model import Document


def root(doc: Document, element_id: str) -> str:
    """The outermost element around this one (a table, a list, a class), or itself."""
    node = doc.element(element_id)
    while node is not None and node.parent:
        parent = doc.element(node.parent)
        if parent is None:
            break
        node = parent
    return node.id if node is not None else element_id
