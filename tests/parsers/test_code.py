from __future__ import annotations

import random
from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import code, markdown
from parsegate.parsers.model import ParseError
from parsegate.parsers.registry import parse_file

SOURCE = '''"""Module docstring."""

import json
import os
from typing import Any

LIMIT = 10


class Session:
    """A session."""

    # Build the headers once.
    @staticmethod
    def headers(token: str) -> dict[str, str]:
        return {"Authorization": token}

    def load(self, raw: str) -> Any:
        return json.loads(raw)


def helper() -> int:
    def inner() -> int:
        return LIMIT

    return inner()
'''


def parse_py(source: str = SOURCE, name: str = "session.py"):
    return code.parse(source.encode(), name)


def test_definitions_with_symbols_lines_context_and_signatures() -> None:
    doc = parse_py()
    rows = [(e.kind, getattr(e.data, "symbol", None), e.lines, getattr(e.data, "part", False)) for e in doc.elements]
    assert rows == [
        ("code", None, (1, 7), False),
        ("class", "Session", (10, 19), False),
        ("method", "Session.headers", (13, 16), True),
        ("method", "Session.load", (18, 19), True),
        ("function", "helper", (22, 26), False),
        ("function", "helper.inner", (23, 24), True),
    ]
    by_symbol = {getattr(e.data, "symbol", None): e for e in doc.elements}
    headers = by_symbol["Session.headers"]
    # The leading comment and the decorator travel with the method.
    assert doc.text[headers.start : headers.end].startswith("# Build the headers once.\n    @staticmethod\n")
    assert headers.data.signature == "@staticmethod\n    def headers(token: str) -> dict[str, str]:"
    # Only the imports a definition references: json for load, none for headers.
    assert by_symbol["Session.load"].data.context == ["import json", "from typing import Any", "class Session:"]
    assert headers.data.context == ["class Session:"]
    # A module constant the definition reads is context too (evidence: a rate, a limit).
    assert by_symbol["helper.inner"].data.context == ["LIMIT = 10", "def helper() -> int:"]
    assert by_symbol["helper"].data.context == ["LIMIT = 10"]
    assert doc.metadata == {"title": "session.py", "language": "python"}


def test_language_by_suffix_then_shebang() -> None:
    assert code.language_for("a/b.tsx", "") == "tsx"
    assert code.language_for("bin/tool", "#!/usr/bin/env python3\nprint(1)\n") == "python"
    assert code.language_for("bin/run", "#!/usr/bin/node\n") == "javascript"
    assert code.language_for("notes", "plain words\n") is None


def test_unknown_suffix_is_read_as_text_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "settings.conf"
    path.write_text("key = value\n\nother = thing\n")
    doc = parse_file(path)
    assert doc.format == "text"
    assert [w.code for w in doc.warnings] == ["unknown_format"]
    script = tmp_path / "deploy"
    script.write_text("#!/usr/bin/env python3\ndef main():\n    pass\n")
    assert parse_file(script).format == "code"


def test_over_budget_class_splits_at_methods_each_carrying_the_class_header() -> None:
    doc = parse_py()
    chunks = Chunker(ChunkConfig(max_tokens=64)).chunk(doc)
    methods = {name: next(c for c in chunks if f"def {name}(" in c.text) for name in ("headers", "load")}
    assert methods["headers"] is not methods["load"]
    for c in methods.values():
        assert "class Session:" in c.embed_text and "class Session:" not in c.text
    assert methods["headers"].symbol == "Session.headers" and methods["headers"].kinds == ["method"]
    assert "import json" in methods["load"].embed_text
    assert "import json" not in methods["headers"].embed_text
    assert all(c.language == "python" and c.tokens <= 64 for c in chunks)


def test_a_split_function_repeats_its_signature_and_never_cuts_a_statement_that_fits() -> None:
    body = "\n".join(f"    value_{i} = compute(value_{i - 1}, {i})" for i in range(1, 40))
    source = f"def pipeline(value_0):\n{body}\n    return value_39\n"
    doc = parse_py(source, "pipeline.py")
    chunks = Chunker(ChunkConfig(max_tokens=64)).chunk(doc)
    assert len(chunks) > 3
    assert chunks[0].text.startswith("def pipeline(value_0):")
    for c in chunks[1:]:
        assert c.embed_text.startswith("pipeline.py\ndef pipeline(value_0):\n\n")
    statements = [line.strip() for line in source.splitlines()[1:]]
    for c in chunks:
        for line in c.text.splitlines():
            assert line.strip() in statements or line.strip().startswith("def ")


def test_syntax_error_on_line_one_is_a_warning_and_the_file_is_still_chunked() -> None:
    source = "def broken(:\n    pass\n\nx = 1\n\ndef fine():\n    return x\n"
    doc = parse_py(source, "broken.py")
    assert doc.warnings and all(w.code == "syntax_error" for w in doc.warnings)
    assert doc.warnings[0].location == "line 1"
    chunks = Chunker(ChunkConfig()).chunk(doc)
    assert "".join(c.text for c in chunks).replace("\n", "") == source.replace("\n", "")


def test_binary_file_with_a_py_suffix_is_refused() -> None:
    with pytest.raises(ParseError) as info:
        code.parse(b"\x7fELF\x02\x01\x01\x00\x00\x00", "tool.py")
    assert info.value.code == "binary"


def test_five_megabyte_generated_file(chunker_factory) -> None:
    parts = [f"def f{i}(x):\n    '''Function {i}.'''\n    return x * {i} + len(str(x))\n" for i in range(66_000)]
    source = "\n\n".join(parts)
    assert len(source) > 5_000_000
    doc = parse_py(source, "gen.py")
    chunks = chunker_factory().chunk(doc)
    assert max(c.tokens for c in chunks) <= 256
    covered = sum(c.end - c.start for c in chunks)
    assert covered >= len(source.replace("\n\n", "")) - 2 * len(parts)


def minified(size: int) -> str:
    rng = random.Random(3)
    out, n = [], 0
    while n < size:
        piece = f"function f{n}(a,b){{var c=a+b*{rng.randint(1, 99)};return c>{rng.randint(1, 9)}?c:b}};"
        out.append(piece)
        n += len(piece)
    return "".join(out)


def test_minified_one_line_javascript_is_split_within_budget_in_linear_time(chunker_factory) -> None:
    chunker = chunker_factory()
    big = minified(1_000_000)
    doc = code.parse(big.encode(), "bundle.min.js")
    chunks = chunker.chunk(doc)
    assert max(c.tokens for c in chunks) <= 256
    assert "".join(c.text for c in chunks) == big
    small = code.parse(minified(250_000).encode(), "small.min.js")
    # Linear in work, not in wall-clock time (a timing assertion fails under load): the characters
    # handed to the token counter grow with the input. A window re-counted from the start of the
    # line each time would make the 4x larger file cost 16x.
    assert counted_chars(chunker_factory(), doc) / counted_chars(chunker_factory(), small) < 4 * 1.25


class _Counting:
    """A token counter that adds up the characters it is asked to count."""

    def __init__(self, counter) -> None:
        self.counter, self.chars = counter, 0

    def __getattr__(self, name):
        return getattr(self.counter, name)

    def count(self, text):
        self.chars += len(text)
        return self.counter.count(text)

    def count_many(self, texts):
        self.chars += sum(map(len, texts))
        return self.counter.count_many(texts)

    def count_embedded(self, texts):
        self.chars += sum(map(len, texts))
        return self.counter.count_embedded(texts)

    def index(self, text):
        self.chars += len(text)
        return self.counter.index(text)


def counted_chars(chunker, doc) -> int:
    counting = _Counting(chunker.counter)
    chunker.counter = counting
    chunker.chunk(doc)
    return counting.chars


def test_one_line_function_larger_than_the_budget_is_cut_into_windows(chunker_factory) -> None:
    source = "function huge(){return [" + ",".join(str(i) for i in range(5000)) + "]}"
    doc = code.parse(source.encode(), "huge.js")
    chunks = chunker_factory(max_tokens=128).chunk(doc)
    assert len(chunks) > 10 and max(c.tokens for c in chunks) <= 128
    # The one space ("return [") is a word boundary: the cut falls there, and drops it.
    assert " ".join(c.text for c in chunks[:2]) == source[: chunks[1].end]
    assert "".join(c.text for c in chunks[1:]) == source[chunks[1].start :]


def test_markdown_fences_in_a_known_language_split_at_definitions() -> None:
    functions = "\n\n".join(f"def step_{i}(x):\n    return x + {i}  # step {i} of the pipeline" for i in range(12))
    source = f"# Steps\n\n```py\n{functions}\n```\n"
    doc = markdown.parse(source.encode(), "steps.md")
    fence = next(e for e in doc.elements if e.kind == "code")
    assert fence.data.language == "python" and len(fence.data.parts) == 12
    chunks = Chunker(ChunkConfig(max_tokens=64)).chunk(doc)
    for c in chunks:
        for line in c.text.splitlines():
            if line.startswith("    return"):
                # every body sits with its own def line
                name = line.split("+ ")[1].split()[0]
                assert f"def step_{name}(x):" in c.text


SNIPPETS = {
    "a.py": ("def f(x):\n    return x\n", "f"),
    "a.js": ("function f(x) { return x; }\n", "f"),
    "a.ts": ("function f(x: number): number { return x; }\n", "f"),
    "a.tsx": ("export function App() { return <div>hi</div>; }\n", "App"),
    "a.go": ("package m\n\nfunc F(x int) int { return x }\n", "F"),
    "a.rs": ("fn f(x: u32) -> u32 { x }\n", "f"),
    "A.java": ("class A {\n  int f(int x) { return x; }\n}\n", "A.f"),
    "a.c": ("int f(int x) { return x; }\n", "f"),
    "a.cpp": ("int f(int x) { return x; }\n", "f"),
    "a.cs": ("class A {\n  int F(int x) { return x; }\n}\n", "A.F"),
    "a.rb": ("def f(x)\n  x\nend\n", "f"),
    "a.php": ("<?php\nfunction f($x) { return $x; }\n", "f"),
    "a.kt": ("fun f(x: Int): Int {\n    return x\n}\n", "f"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_every_language_has_a_query_that_finds_definitions(name: str) -> None:
    source, symbol = SNIPPETS[name]
    doc = code.parse(source.encode(), name)
    assert symbol in [getattr(e.data, "symbol", None) for e in doc.elements]
    assert not doc.warnings


def test_every_supported_language_is_covered_by_a_snippet() -> None:
    covered = {code.language_for(name, "") for name in SNIPPETS}
    assert covered == set(code.LANGUAGES.values())


def test_a_function_carries_the_module_constants_it_reads(chunker_factory) -> None:
    source = b'''import json

RATE = 0.05
LIMIT = 3


def interest(amount):
    """Interest on an amount."""
    return amount * RATE


def unrelated(x):
    return json.dumps(x)
'''
    doc = code.parse(source, "bank.py")
    interest = next(e for e in doc.elements if getattr(e.data, "symbol", None) == "interest")
    assert interest.data.context == ["RATE = 0.05"]
    unrelated = next(e for e in doc.elements if getattr(e.data, "symbol", None) == "unrelated")
    assert unrelated.data.context == ["import json"]
    chunks = chunker_factory(max_tokens=32, context_share=0.5).chunk(doc)
    holding = next(c for c in chunks if "return amount * RATE" in c.text)
    assert holding.text.startswith("def interest")
    assert holding.embed_text.split("\n\n")[0] == "bank.py\nRATE = 0.05"


def test_a_definition_drops_its_imports_before_it_is_cut(chunker_factory) -> None:
    """A function that fits the budget alone, but not with its imports and constants in the
    prefix, stays whole: its context loses the imports, not its body."""
    body = "\n".join(f"    total += value * {i}" for i in range(9))
    source = f"import json\nimport os\nimport sys\n\nRATE = 0.05\n\n\ndef f(value):\n    total = RATE + json.loads(os.sep + sys.argv[0])\n{body}\n    return total\n"
    doc = code.parse(source.encode(), "f.py")
    chunker = chunker_factory(max_tokens=128)
    f = next(e for e in doc.elements if e.kind == "function")
    chunks = chunker.chunk(doc)
    whole = [c for c in chunks if c.start <= f.start and f.end <= c.end]
    assert whole, [c.text for c in chunks]
    assert "import json" not in whole[0].embed_text.split("\n\n")[0]
