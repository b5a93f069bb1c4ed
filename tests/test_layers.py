"""The environment is read by the command line only (ParseOptions.from_env is what it calls):
no module of the libraries, or of the application outside parsegate/cli/, reads os.environ.

Found on the syntax tree, not by grep: ``os.environ`` and ``os.environb`` used in any way but as
the target of a write (``os.environ[k] = v``, ``del``, a statement ``os.environ.setdefault(…)``
whose value nobody reads: settings for a library this process loads, not read back), or as a
whole handed on to a child process (``dict(os.environ)``, ``{**os.environ, …}``); ``os.getenv``
and ``os.getenvb``; ``environ`` imported from os."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
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


# -- the import-layer contract (pyproject.toml [tool.importlinter]), run as dev.sh test runs it ----

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _layout_with(tmp_path: Path, package: str, module: str, source: str) -> Path:
    """The installed layout (.ci/layout_tree.py) in ``tmp_path``, with one more module in ``package``
    (``parsers``, ``runner``…): that package's folder is made of links to the real entries, so the
    repository itself is not touched."""
    spec = importlib.util.spec_from_file_location("layout_tree", ROOT / ".ci" / "layout_tree.py")
    assert spec is not None and spec.loader is not None
    layout_tree = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layout_tree)
    layout_tree.main(tmp_path)
    folder = tmp_path / "parsegate" / package
    real = folder.resolve()
    folder.unlink() if folder.is_symlink() else shutil.rmtree(folder)
    folder.mkdir()
    for entry in real.iterdir():
        if entry.name != "__pycache__":
            (folder / entry.name).symlink_to(entry)
    (folder / f"{module}.py").write_text(source)
    return tmp_path


def _lint_imports(layout: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(ROOT / "pyproject.toml")],
        cwd=layout,
        env={**os.environ, "PYTHONPATH": str(layout)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contract_holds_on_the_tree_and_fails_on_each_kind_of_violation(tmp_path: Path) -> None:
    """The contract dev.sh runs: kept on the tree as it is; broken by a parser that imports the
    chunkers (a lower layer importing a higher one), and by the runner importing rich."""
    clean = _layout_with(tmp_path / "clean", "parsers", "_nothing", "X = 1\n")
    assert _lint_imports(clean).returncode == 0
    upward = _layout_with(tmp_path / "upward", "parsers", "_upward", "import parsegate.chunkers.record\n")
    result = _lint_imports(upward)
    assert result.returncode != 0
    assert "parsegate.parsers._upward -> parsegate.chunkers.record" in result.stdout
    rich = _layout_with(tmp_path / "rich", "runner", "_screen", "import rich.console\n")
    result = _lint_imports(rich)
    assert result.returncode != 0
    assert "only the command line uses rich and click BROKEN" in result.stdout
