"""Where definitions sit in the syntax tree, found in one walk of it.

tree-sitter's nodes keep no link to their parent: ``Node.parent`` and ``prev_named_sibling``
descend from the root to find it, so asking them for every definition of a deeply nested file
costs the depth each time (20,000 nested JavaScript functions: quadratic, minutes). A
``TreeCursor`` keeps the path it walked, so one walk answers for every definition at once.
"""

from __future__ import annotations

from collections.abc import Collection

from tree_sitter import Node, TreeCursor

# A definition's node id -> its outer node, and the attached siblings right before that.
Heads = dict[int, tuple[Node, tuple[Node, ...]]]


def attached(node: Node, kinds: Collection[str]) -> bool:
    """A comment, or an attribute-like node that belongs to the definition after it."""
    return node.is_named and ("comment" in node.type or node.type in kinds)


def unit_heads(root: Node, units: Collection[int], wrappers: Collection[str], kinds: Collection[str]) -> Heads:
    """For each node whose ``id`` is in ``units``: its outer node (the node itself, or the
    ancestors of ``wrappers`` types right above it), and the named siblings right before that
    outer node that are comments or ``kinds`` (attached), nearest first, up to the first that is
    not. What ``Node.parent`` and ``prev_named_sibling`` would say, in one walk of the tree."""
    found: Heads = {}
    if not units:
        return found
    cursor = root.walk()
    path = [root]
    trails: list[list[Node]] = [[]]  # per depth: the attached siblings right before path[depth]
    while True:
        node = path[-1]
        if node.id in units:
            depth = len(path) - 1
            while depth > 0 and path[depth - 1].type in wrappers:
                depth -= 1
            found[node.id] = (path[depth], tuple(reversed(trails[depth])))
            if len(found) == len(units):
                return found
        if cursor.goto_first_child():
            path.append(_current(cursor))
            trails.append([])
            continue
        while True:
            left, trail = path.pop(), trails[-1]
            if attached(left, kinds):
                trail.append(left)
            elif left.is_named:
                trail.clear()
            if cursor.goto_next_sibling():
                path.append(_current(cursor))
                break
            trails.pop()
            if not cursor.goto_parent():
                return found


def _current(cursor: TreeCursor) -> Node:
    node = cursor.node
    assert node is not None  # a cursor that moved stands on a node
    return node
