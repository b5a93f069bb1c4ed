"""A definition inside a statement (a function defined in each branch of an ``if``) stays whole
when it fits the budget, though the statement holding it does not (issue 35: click's
``Parameter.type_cast_value`` had its second ``convert`` cut at a line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers.registry import parse_data

pytest.importorskip("tree_sitter_language_pack")

SOURCE = '''class Parameter:
    def cast(self, ctx, value):
        """Convert and validate a value against the parameter's type, its multiple flag and
        its number of arguments, raising a clear error for a value of the wrong length."""

        def check_iter(value):
            try:
                return iter(value)
            except TypeError:
                raise ValueError("Value must be an iterable.") from None

        if self.nargs == 1 or self.type.is_composite:

            def convert(value):
                return self.type(value, self, ctx)

        else:

            def convert(value):
                value = tuple(check_iter(value))
                if len(value) != self.nargs:
                    raise ValueError(
                        f"Takes {self.nargs} values but {len(value)} were given.",
                    )
                return tuple(self.type(x, self, ctx) for x in value)

        if self.multiple:
            return tuple(convert(x) for x in check_iter(value))
        return convert(value)
'''


@pytest.mark.parametrize("budget", [96, 112, 128])
def test_a_definition_in_a_branch_stays_whole_where_it_fits(budget: int) -> None:
    doc = parse_data(SOURCE.encode(), Path("params.py"), "params.py")
    chunker = Chunker(ChunkConfig(max_tokens=budget))
    chunks = chunker.chunk(doc)
    converts = [e for e in doc.elements if e.kind == "function" and doc.text[e.start :].startswith("def convert")]
    assert len(converts) == 2
    for e in converts:
        assert chunker.counter.count(doc.text[e.start : e.end]) <= budget
        assert any(c.start <= e.start and e.end <= c.end for c in chunks), (budget, doc.text[e.start : e.end])
    assert all(c.tokens <= budget for c in chunks)
