"""The environment is read by the command line only (ParseOptions.from_env is what it calls):
no module of the libraries, or of the application outside parsegate/cli/, reads os.environ.

Found on the syntax tree, not by grep: ``os.environ`` and ``os.environb`` used in any way but as
the target of a write (``os.environ[k] = v``, ``del``, a statement ``os.environ.setdefault(…)``
whose value nobody reads: settings for a library this process loads, not read back), or as a
whole handed on to a child process (``dict(os.environ)``, ``{**os.environ, …}``); ``os.getenv``
and ``os.getenvb``; ``environ`` imported from os."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("parsers", "chunkers", "quality_gates", "parsegate")
LEFT_ALONE = ("parsegate/cli",)  # the command line: where the environment is read
_WRITES = frozenset({"setdefault", "update", "pop"})


def _is_environ(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr in ("environ", "environb")
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    )


def environment_reads(source: str) -> list[int]:
    """The lines of ``source`` that read the process environment."""
    tree = ast.parse(source)
    allowed: set[int] = set()  # ids of os.environ nodes used in a way that is not a read
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_environ(node.value) and isinstance(node.ctx, ast.Store | ast.Del):
            allowed.add(id(node.value))
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr in _WRITES
            and _is_environ(node.value.func.value)
        ):
            allowed.add(id(node.value.func.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            allowed.update(id(a) for a in node.args if _is_environ(a))
        elif isinstance(node, ast.Dict):
            allowed.update(id(v) for k, v in zip(node.keys, node.values, strict=True) if k is None and _is_environ(v))
    for node in ast.walk(tree):
        if (_is_environ(node) and id(node) not in allowed) or (
            isinstance(node, ast.Attribute)
            and node.attr in ("getenv", "getenvb")
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
        ):
            found.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [node.lineno for alias in node.names if alias.name in ("environ", "environb", "getenv")]
    return sorted(found)


def test_nothing_below_the_command_line_reads_the_environment() -> None:
    readers = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(LEFT_ALONE):
                continue
            readers += [f"{relative}:{line}" for line in environment_reads(path.read_text(encoding="utf-8"))]
    assert readers == []


def test_the_scan_finds_each_way_of_reading_and_passes_each_way_of_writing() -> None:
    reads = """
import os
from os import environ, getenv
a = os.environ.get("A")
b = os.environ["B"]
c = os.getenv("C")
d = "D" in os.environ
e = os.environ.setdefault("E", "1")
f = os.environ.copy()
"""
    assert environment_reads(reads) == [3, 3, 4, 5, 6, 7, 8, 9]
    writes = """
import os
os.environ["A"] = "1"
del os.environ["B"]
os.environ.setdefault("C", "1")
env = dict(os.environ)
child = {**os.environ, "HOME": "/tmp"}
"""
    assert environment_reads(writes) == []
