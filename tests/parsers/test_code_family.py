"""Where a definition sits in the tree (its wrappers, the comments and attributes above it) is
found in one walk of the tree (parsers/code/family.py), never by asking tree-sitter for a node's
parent or previous sibling: each of those descends from the root, so asking them once per
definition was quadratic in the nesting (issue 39: 20,000 nested JavaScript functions)."""

from __future__ import annotations

from typing import Any

import pytest
from tree_sitter import Node, QueryCursor

from parsegate.parsers import code
from parsegate.parsers.code.family import unit_heads

SOURCES = {
    "python": (
        "# a comment\n@decorator\n# between\n@other(1)\ndef f(x):\n    # inner\n    def g():\n        return 1\n"
        "    return g\n\n\nclass C:\n    # doc\n    @property\n    def p(self):\n        return 1\n\n"
        "x = 1  # trailing\ndef h():\n    pass\n"
    ),
    "javascript": (
        "// one\n/* two */\nexport function a() {\n  // three\n  function b() { return 1; }\n  return b;\n}\n"
        "export default class K { m() {} }\nconst z = 1; // not above\nfunction c() {}\n"
    ),
    "cpp": "// t\ntemplate <typename T>\nclass Box { T v; };\ntypedef struct S { int a; } S;\nint main() { return 0; }\n",
    "rust": "/// doc\n#[derive(Debug)]\nstruct P { x: i32 }\n// c\n#[inline]\nfn f() -> i32 { 1 }\nimpl P { fn g(&self) {} }\n",
}


def old_heads(node: Node) -> tuple[Node, tuple[Node, ...]]:
    """What Node.parent and prev_named_sibling say (the quadratic way, as before)."""
    while node.parent is not None and node.parent.type in code._WRAPPERS:
        node = node.parent
    before, prev = [], node.prev_named_sibling
    while prev is not None and ("comment" in prev.type or prev.type in code._ATTACHED):
        before.append(prev)
        prev = prev.prev_named_sibling
    return node, tuple(before)


@pytest.mark.parametrize("language", sorted(SOURCES))
def test_one_walk_says_what_parent_links_say(language: str) -> None:
    root = code._parser(language).parse(SOURCES[language].encode()).root_node
    units = [
        caps[k][0]
        for _, caps in QueryCursor(code._query(language)).matches(root)
        for k in caps
        if k.startswith("unit.")
    ]
    assert len(units) >= 3
    heads = unit_heads(root, {u.id for u in units}, code._WRAPPERS, code._ATTACHED)
    assert len(heads) == len({u.id for u in units})
    for unit in units:
        outer, before = heads[unit.id]
        expected_outer, expected_before = old_heads(unit)
        assert (outer.id, [b.id for b in before]) == (expected_outer.id, [b.id for b in expected_before])
    wrapped = sum(heads[u.id][0].id != u.id for u in units)
    attached = sum(len(heads[u.id][1]) for u in units)
    assert wrapped + attached >= 2  # the sample holds wrappers or attached nodes


class CountingNode:
    """A captured node that counts the parent and sibling links asked of it."""

    asked = 0

    def __init__(self, node: Node) -> None:
        self._node = node

    def __getattr__(self, name: str) -> Any:
        if name in ("parent", "prev_named_sibling", "prev_sibling"):
            CountingNode.asked += 1
        return getattr(self._node, name)


class CountingCursor:
    def __init__(self, query: Any) -> None:
        self._cursor = QueryCursor(query)

    def matches(self, root: Node) -> list[tuple[int, dict[str, list[Any]]]]:
        return [
            (i, {k: [CountingNode(n) for n in v] for k, v in caps.items()}) for i, caps in self._cursor.matches(root)
        ]


def test_no_definition_asks_for_its_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    # Watched failing before family.py: 600 links asked for 200 nested functions (_outer and
    # _leading asked each definition's parent and previous sibling).
    monkeypatch.setattr(code, "QueryCursor", CountingCursor)
    monkeypatch.setattr(CountingNode, "asked", 0)
    depth = 200
    source = "".join(f"function f{i}(x) {{\n" for i in range(depth)) + "return x;\n" + "}\n" * depth
    elements, _ = code.parse_source(source, "javascript")
    assert sum(e.kind != "code" for e in elements) == code.MAX_DEPTH
    assert CountingNode.asked == 0
