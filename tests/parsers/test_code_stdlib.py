"""Invariants over real code: the Python standard library on this machine."""

from __future__ import annotations

import ast
import sysconfig
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsegate.parsers import code
from parsegate.parsers.model import ParseError
from parsegate.quality_gates.checks.code_parse import wrap_python_blocks

STDLIB = Path(sysconfig.get_paths()["stdlib"])
FILES = sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts and p.stat().st_size < 400_000)
DEFINITIONS = {"function", "class", "method"}


def standalone(doc, start: int, chunk_text: str) -> str:
    """A chunk's text as a module: the indentation of its first line restored and, for a
    method, a header for each definition around it (each at its own indentation)."""
    text = doc.text
    line_start = text.rfind("\n", 0, start) + 1
    body = text[line_start:start] + chunk_text if not text[line_start:start].strip() else chunk_text
    first = next((e for e in doc.elements if e.start == start and e.kind in DEFINITIONS), None)
    headers = []
    parent = doc.element(first.parent) if first is not None and first.parent else None
    while parent is not None:
        # Only the block structure matters here: a stand-in header at the parent's indentation.
        indent_start = text.rfind("\n", 0, parent.start) + 1
        indent = text[indent_start : parent.start] if not text[indent_start : parent.start].strip() else ""
        headers.insert(0, indent + ("class _:" if parent.kind == "class" else "def _():"))
        parent = doc.element(parent.parent) if parent.parent else None
    # A definition nested in an if/else or try block: give it (and any outer block the chunk
    # returns to) a block to sit in.
    return wrap_python_blocks(textwrap.dedent("\n".join([*headers, body])))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(FILES), budget=st.sampled_from([64, 128, 256, 512]))
def test_stdlib_files(path: Path, budget: int, chunker_factory) -> None:
    try:
        doc = code.parse(path.read_bytes(), path.relative_to(STDLIB).as_posix())
    except ParseError as exc:
        assert exc.code in {"invalid_utf8", "binary"}  # a few test fixtures are deliberately broken
        return
    chunker = chunker_factory(max_tokens=budget)
    chunks = chunker.chunk(doc)
    try:
        ast.parse(doc.text)
        valid = True
    except SyntaxError:
        valid = False  # Python 2 grammar fixtures and deliberately broken files
    lines_covered: set[int] = set()
    for c in chunks:
        assert c.text == doc.text[c.start : c.end]
        assert c.tokens <= budget
        assert c.language == "python"
        lines_covered.update(range(c.lines[0], c.lines[1] + 1))
        # A chunk made only of whole definitions is valid Python once dedented (a method with
        # its class header prepended).
        if valid and set(c.kinds) <= DEFINITIONS:
            ast.parse(standalone(doc, c.start, c.text))
    for number, line in enumerate(doc.text.splitlines(), 1):
        if line.strip():
            assert number in lines_covered, f"line {number} of {path.name} is in no chunk: {line!r}"
    assert [c.id for c in chunker.chunk(doc)] == [c.id for c in chunks]
