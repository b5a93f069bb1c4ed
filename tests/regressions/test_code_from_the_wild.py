"""Code as packages ship it (issue 35): 30 of 241 JavaScript files of ten npm packages failed the
gate's "definitions parse alone" check, because a function bound to a name (``var f = function f()
{…}``) had no body parts and was cut at lines, each piece still labelled a whole function; zlib's
examples (``#define local static``, then ``local int f(void)``) gave a syntax warning per function."""

from __future__ import annotations

import pytest

import parsegate

pytest.importorskip("tree_sitter_language_pack")

BOUND = (
    "var isSafe = function isSafe(obj) {\n"
    + "".join(
        f"  if (obj.field{n} === undefined) {{\n    obj.field{n} = computeDefault{n}(obj, {n});\n  }}\n"
        for n in range(12)
    )
    + "  return true;\n};\n\nconst twice = (x) => x * 2;\n"
)


def test_a_function_bound_to_a_name_splits_at_its_statements_and_no_piece_claims_the_whole() -> None:
    doc = parsegate.parse(text=BOUND, format="js")
    (bound,) = [e for e in doc.elements if e.kind == "function" and e.data.symbol == "isSafe"]
    assert bound.data.signature == "var isSafe = function isSafe(obj)"
    assert len(bound.data.parts) == 13  # twelve if statements and the return
    (arrow,) = [e for e in doc.elements if e.kind == "function" and e.data.symbol == "twice"]
    assert arrow.data.parts == []  # an expression body holds no statements
    chunks = parsegate.chunk(doc, max_tokens=96)
    pieces = [c for c in chunks if bound.start <= c.start and c.end <= bound.end]
    assert len(pieces) > 1
    assert all("function" not in c.kinds for c in pieces)  # pieces are code, not the function
    verdict = parsegate.gate(doc, chunks, source=BOUND.encode(), max_tokens=96)
    assert verdict.metrics["code_parse"] == 1.0


def test_a_definition_cut_at_lines_is_no_longer_labelled_the_definition() -> None:
    """A function with no statement parts (one long expression) is cut at its lines."""
    source = "const table = (k) =>\n" + " +\n".join(f"  lookup{n}(k, {n})" for n in range(60)) + ";\n"
    doc = parsegate.parse(text=source, format="js")
    chunks = parsegate.chunk(doc, max_tokens=64)
    assert len(chunks) > 1
    assert all(c.kinds == ["code"] for c in chunks)
    verdict = parsegate.gate(doc, chunks, source=source.encode(), max_tokens=64)
    assert verdict.metrics["code_parse"] in (None, 1.0)


MACROS = """#include <stdio.h>
#define local static

local int helper(int x)
{
    return x + 1;
}

local void other(void)
{
    printf("%d", helper(2));
}
"""


def test_a_macro_before_a_functions_declarator_is_no_syntax_error() -> None:
    doc = parsegate.parse(text=MACROS, format="c")
    assert [w.code for w in doc.warnings] == []
    assert [e.data.symbol for e in doc.elements if e.kind == "function"] == ["helper", "other"]
    broken = parsegate.parse(text=MACROS.replace("return x + 1;", "return x + ;"), format="c")
    assert [w.code for w in broken.warnings] == ["syntax_error"]
