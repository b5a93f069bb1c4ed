"""Code: definitions parse alone. A chunk that claims to hold whole definitions really does:
tree-sitter parses it on its own without an ERROR node that the file itself does not have.

A chunk that holds anything but whole definitions says so with the kind ``code`` (module code,
or a piece of a definition split over budget) and is not parsed alone. Python is parsed with
Python's own ``ast`` as well: tree-sitter's grammar accepts a header with an empty body
("def f(x):"), which is exactly what a cut definition looks like. A method is parsed inside a
stand-in class for languages whose members cannot stand at the top level; Python's indentation
is restored first.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Definition, Limit, Subject
from parsegate.quality_gates.checks.code_units import DEFINITIONS

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

    from parsegate.chunkers.record import Chunk
    from parsegate.parsers.model import Document
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "code_parse"
# Languages whose methods only parse inside a class body.
_MEMBERS_NEED_CLASS = frozenset({"java", "csharp", "kotlin", "typescript", "tsx", "javascript", "php"})
_PREAMBLE = {"php": "<?php\n"}
_CLAIMS = "though it claims whole definitions ({kinds})"


@dataclass(frozen=True)
class CodeParseFacts:
    code_checked: int | None = None  # whole-definition chunks parsed on their own
    code_parsed: int | None = None  # ...of which parse without an ERROR node the file itself lacks


def measure(s: Subject) -> CodeParseFacts:
    ref = s.reference
    if not s.code or ref is None:
        return CodeParseFacts()
    checked = parsed = 0
    file_errors: list[tuple[int, int]] | None = None
    for c in s.code:
        kinds = set(c.kinds or [])
        if not kinds or not kinds <= DEFINITIONS:
            continue  # holds module code or a piece of a split definition (kind "code")
        language = c.language or ""
        checked += 1
        if s.doc.format == "notebook":
            if _notebook_parses(s.doc, c, language):
                parsed += 1
            else:
                s.faults.add(
                    FAULTS,
                    chunk=c.id,
                    start=c.start,
                    end=c.end,
                    symbol=c.symbol,
                    why="does not parse on its own (its cell does) " + _CLAIMS.format(kinds=", ".join(sorted(kinds))),
                )
            continue
        error = _first_error(_standalone(ref.text, c), language)
        if error is None:
            parsed += 1
            continue
        if file_errors is None:
            file_errors = _errors(_parser(language).parse(ref.text.encode("utf-8")).root_node)
            if language == "python" and _python_error(ref.text):
                file_errors = [(0, ref.text.count("\n"))]  # not valid Python here (say, Python 2)
        if _file_has_error_in(ref.text, file_errors, c.start, c.end):
            parsed += 1  # the source itself does not parse there: not the chunk's fault
            continue
        s.faults.add(
            FAULTS,
            chunk=c.id,
            start=c.start,
            end=c.end,
            symbol=c.symbol,
            why=f"does not parse on its own ({error}) " + _CLAIMS.format(kinds=", ".join(sorted(kinds))),
        )
    return CodeParseFacts(checked, parsed)


def _notebook_parses(doc: Document, c: Chunk, language: str) -> bool:
    """A notebook's chunk, its JSON escapes undone (references/notebook.py), parses alone, or the
    cell it is in does not parse as a whole either (IPython's ``%magic`` and ``!shell`` lines)."""
    from parsegate.quality_gates.references.notebook import line_prefix, unescaped

    text = _standalone(doc.text, c, unescaped(c.text), line_prefix(doc.text, c.start))
    if _first_error(text, language) is None:
        return True
    cell = next((e for e in doc.elements if e.kind == "cell" and e.start <= c.start and c.end <= e.end), None)
    return cell is not None and _first_error(unescaped(doc.text[cell.start : cell.end]), language) is not None


def _standalone(source: str, c: Chunk, text: str | None = None, indent: str | None = None) -> str:
    """The chunk's text as a file of its own: first-line indentation restored, then dedented
    (a notebook's chunk: its decoded ``text`` and the ``indent`` of its first line are given)."""
    start, language = c.start, c.language or ""
    text = c.text if text is None else text
    if indent is None:
        line_start = source.rfind("\n", 0, start) + 1
        indent = source[line_start:start]
    body = (indent if not indent.strip() else "") + text
    if language == "python":
        # Comment lines above a definition say nothing about blocks: leave them out of the
        # indentation (a trailing comment of the line above may sit deeper than the def).
        lines = body.split("\n")
        while len(lines) > 1 and (not lines[0].strip() or lines[0].lstrip().startswith("#")):
            lines.pop(0)
        body = "\n".join(lines)
    body = textwrap.dedent(body)
    if language == "python":
        body = wrap_python_blocks(body)
    if language in _MEMBERS_NEED_CLASS and "method" in (c.kinds or []):
        body = "class _ {\n" + body + "\n}"
    return _PREAMBLE.get(language, "") + body


def wrap_python_blocks(body: str) -> str:
    """A chunk that starts inside nested blocks and ends outside them (a class under an ``if``,
    then module code) gets a stand-in block header at each indentation it later returns to."""
    lines = [ln for ln in body.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return body
    first = len(lines[0]) - len(lines[0].lstrip())
    outer = sorted({len(ln) - len(ln.lstrip()) for ln in lines[1:]} - {first})
    levels = [lvl for lvl in outer if lvl < first]
    if first > 0 and (not levels or levels[0] > 0):
        levels.insert(0, 0)  # the outermost block the first line sits in
    headers = "".join(" " * lvl + "if True:\n" for lvl in levels)
    return headers + body


@cache
def _parser(language: str) -> Parser:
    # Imported here: tree-sitter is the code extra's (only code chunks claiming whole definitions,
    # which only the code parser makes, get here).
    from tree_sitter_language_pack import get_parser

    return get_parser(language)  # type: ignore[arg-type]


def _python_error(text: str) -> str | None:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        return f"Python: {exc.msg if isinstance(exc, SyntaxError) else exc}"
    return None


def _first_error(text: str, language: str) -> str | None:
    root = _parser(language).parse(text.encode("utf-8")).root_node
    if not root.has_error:
        return _python_error(text) if language == "python" else None
    node = _errors(root, limit=1)
    return f"syntax error at line {node[0][0] + 1}" if node else "syntax error"


def _errors(root: Node, limit: int = 10_000) -> list[tuple[int, int]]:
    """(first row, last row) of the ERROR and MISSING nodes of a tree."""
    found: list[tuple[int, int]] = []
    stack = [root]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            found.append((node.start_point[0], node.end_point[0]))
        elif node.has_error:
            stack.extend(reversed(node.children))
    return found


def _file_has_error_in(source: str, errors: list[tuple[int, int]], start: int, end: int) -> bool:
    first, last = source.count("\n", 0, start), source.count("\n", 0, end)
    return any(a <= last and b >= first for a, b in errors)


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(CodeParseFacts)
    return own.code_parsed, own.code_checked


CHECK = Definition(
    name="code_parse",
    metric="code_parse",
    label="code: definitions parse alone",
    limit=Limit("min_code_parse", 1.0),
    facts=CodeParseFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    formats=frozenset({"code", "notebook"}),  # a notebook's code cells too
    needs_source=True,
    stored="code_parsed",
)
