"""Jupyter notebooks: offsets into the .ipynb's JSON, cells through the Markdown and code parsers,
text outputs kept, the rest counted, and every malformed file a ParseError."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import notebook
from parsegate.parsers.model import ParseError
from parsegate.parsers.notebook.spans import Block, Str, char_starts, decoded, load

GOLDEN = Path(__file__).parents[2] / "golden_docs" / "notebook" / "sales-analysis" / "input.ipynb"


def lines(text: str) -> list[str]:
    """A multiline string as nbformat writes it: one string per line, each with its line break."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def ipynb(cells: list[dict[str, Any]], language: str | None = "python", indent: int | None = 1) -> bytes:
    metadata = {"kernelspec": {"name": "k", "language": language}} if language else {}
    nb = {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=indent, sort_keys=True, ensure_ascii=False).encode("utf-8")


def md(text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": lines(text)}


def code(text: str, outputs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": outputs or [], "source": lines(text)}


def cell_source(doc: Any, ref: str) -> str:
    return "".join(json.loads(doc.text)["cells"][int(ref.split("[")[1].split("]")[0])]["source"])


def test_elements_are_spans_of_the_json_source_and_decode_to_the_cell() -> None:
    data = ipynb([md('# Café "guide"\n\nIntro with é.\n\n- one\n- two'), code("x = 1\nprint(x)")])
    doc = notebook.parse(data, "nb.ipynb")
    assert doc.text == data.decode("utf-8")
    got = [(e.kind, decoded(doc.text[e.start : e.end])) for e in doc.elements if e.kind != "furniture"]
    assert got == [
        ("cell", '# Café "guide"\n\nIntro with é.\n\n- one\n- two'),
        ("heading", '# Café "guide"'),
        ("paragraph", "Intro with é."),
        ("list", "- one\n- two"),
        ("list_item", "- one"),
        ("list_item", "- two"),
        ("cell", "x = 1\nprint(x)"),
        ("code", "x = 1\nprint(x)"),
    ]
    heading = doc.elements[1]
    assert doc.text[heading.start : heading.end] == '# Café \\"guide\\"'  # the escaped JSON itself
    assert heading.start == doc.text.index("# Caf")
    assert heading.lines == (7, 7)  # the line of the .ipynb file it is on
    assert heading.section_path == ('Café "guide"',)
    assert doc.metadata == {"language": "python", "nbformat": "4.5", "cells": 2, "title": 'Café "guide"', "kernel": "k"}


def test_headings_of_one_cell_name_the_sections_of_later_cells() -> None:
    doc = notebook.parse(ipynb([md("# Report"), md("## Method\n\nWe count."), code("count()")]), "nb.ipynb")
    paths = {decoded(doc.text[e.start : e.end]): e.section_path for e in doc.elements if e.kind != "furniture"}
    assert paths["We count."] == ("Report", "Method")
    assert paths["count()"] == ("Report", "Method")


def test_code_cells_are_read_by_the_code_parser_in_the_notebook_language() -> None:
    pytest.importorskip("tree_sitter_language_pack")
    src = "import os\n\ndef f(a):\n    return os.path.join(a, 'x')\n\nclass C:\n    def m(self):\n        return 1"
    doc = notebook.parse(ipynb([code(src)]), "nb.ipynb")
    kinds = [(e.kind, e.data.symbol) for e in doc.elements if e.kind in ("function", "class", "method")]
    assert kinds == [("function", "f"), ("class", "C"), ("method", "C.m")]
    f = next(e for e in doc.elements if e.kind == "function")
    assert decoded(doc.text[f.start : f.end]) == "def f(a):\n    return os.path.join(a, 'x')"
    assert f.data.context == ["import os"]
    for start, end in f.data.parts:  # split points of the body, placed in the JSON too
        assert decoded(doc.text[start:end]).strip()
    # A language the code parser does not know: one code block in that language.
    doc = notebook.parse(ipynb([code("x <- c(1, 2)\nmean(x)")], language="R"), "nb.ipynb")
    (block,) = [e for e in doc.elements if e.kind == "code"]
    assert block.data.language == "r"
    assert decoded(doc.text[block.start : block.end]) == "x <- c(1, 2)\nmean(x)"


def test_text_outputs_are_kept_and_the_rest_counted() -> None:
    outputs = [
        {"name": "stdout", "output_type": "stream", "text": ["one\n", "two\n"]},
        {"data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure>"]}, "metadata": {}, "output_type": "display_data"},
        {"data": {"text/html": ["<b>x</b>"], "text/plain": ["42"]}, "execution_count": 1, "metadata": {}, "output_type": "execute_result"},
        {"ename": "KeyError", "evalue": "'k'", "output_type": "error", "traceback": ["\u001b[0;31mKeyError\u001b[0m"]},
    ]  # fmt: skip
    doc = notebook.parse(ipynb([code("run()", outputs)]), "nb.ipynb")
    out = [(decoded(doc.text[e.start : e.end]), e.data.ref) for e in doc.elements if e.kind == "output"]
    assert out == [
        ("one\ntwo", "cells[0].outputs[0]"),
        ("<Figure>", "cells[0].outputs[1]"),
        ("42", "cells[0].outputs[2]"),
        ("KeyError", "cells[0].outputs[3].ename"),
        ("'k'", "cells[0].outputs[3].evalue"),
    ]
    assert doc.metadata["skipped"] == {"image/png": 1, "text/html": 1, "traceback": 1}
    furniture = [e for e in doc.elements if e.kind == "furniture"]
    assert any("iVBORw0KGgo" in doc.text[e.start : e.end] for e in furniture)  # declared, not lost


def test_no_chunk_runs_from_one_cell_into_another() -> None:
    doc = notebook.parse(ipynb([md("Alpha words here."), md("Beta words here."), code("gamma()")]), "nb.ipynb")
    chunks = Chunker(ChunkConfig(max_tokens=256)).chunk(doc)
    assert [decoded(c.text) for c in chunks] == ["Alpha words here.", "Beta words here.", "gamma()"]
    for c in chunks:
        assert c.text == doc.text[c.start : c.end]


def test_a_source_in_one_string_with_escapes_maps_exactly() -> None:
    cell = {"cell_type": "markdown", "metadata": {}, "source": '## T\u00e9\nTab\there \U0001f600 "q" \\ end'}
    data = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}).encode()
    doc = notebook.parse(data, "nb.ipynb")  # ensure_ascii: \u00e9, \ud83d\ude00 in the file
    assert "\\ud83d\\ude00" in doc.text
    texts = [decoded(doc.text[e.start : e.end]) for e in doc.elements if e.kind in ("heading", "paragraph")]
    assert texts == ["## Té", 'Tab\there \U0001f600 "q" \\ end']


def test_the_golden_notebook_every_element_decodes_to_its_cell_text() -> None:
    doc = notebook.parse(GOLDEN.read_bytes(), "input.ipynb")
    cells = json.loads(doc.text)["cells"]
    for e in doc.elements:
        if e.kind == "cell":
            assert decoded(doc.text[e.start : e.end]) == "".join(cells[int(e.data.ref[6:-1])]["source"]).strip()


# -- the JSON string scanner ----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


def _strings(node: Any) -> list[Str]:
    if isinstance(node, Str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=json_values, ascii_only=st.booleans(), indent=st.sampled_from([None, 0, 1, 2]))
def test_every_string_span_decodes_to_its_value(value: Any, ascii_only: bool, indent: int | None) -> None:
    text = json.dumps({"v": value}, ensure_ascii=ascii_only, indent=indent)
    for s in _strings(load(text)):
        assert json.loads(f'"{text[s.start : s.end]}"') == s.value
        starts = char_starts(text, s)
        if starts is not None:  # each decoded character from its own escape or character
            assert [json.loads(f'"{text[a:b]}"') for a, b in itertools.pairwise(starts)] == list(s.value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pieces=st.lists(st.text(min_size=0, max_size=8), min_size=1, max_size=5),
    ascii_only=st.booleans(),
    data=st.data(),
)
def test_a_block_s_decoded_span_is_its_raw_slice(pieces: list[str], ascii_only: bool, data: st.DataObject) -> None:
    text = json.dumps({"source": pieces}, ensure_ascii=ascii_only, indent=1)
    source = load(text)["source"]
    nonempty = [p for p in source if p.value]
    if not nonempty:
        return
    block = Block(text, nonempty)
    start = data.draw(st.integers(0, len(block.text) - 1))
    end = data.draw(st.integers(start + 1, len(block.text)))
    a, b = block.raw_span(start, end)
    assert decoded(text[a:b]) == block.text[start:end]
    # and the slice starts and ends inside strings, never on the quotes and commas between them
    assert any(p.start <= a < p.end for p in nonempty)
    assert any(p.start < b <= p.end for p in nonempty)


# -- malformed notebooks ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "code_", "words"),
    [
        (b"not json {", "malformed_notebook", "not JSON: Expecting value at line 1 column 1"),
        (b"[1, 2]", "malformed_notebook", "the JSON is not an object"),
        (b'{"nbformat": 3, "worksheets": []}', "notebook_version", "nbformat 3"),
        (b'{"cells": []}', "notebook_version", "no nbformat 4 version"),
        (b'{"nbformat": 4}', "malformed_notebook", "without a 'cells' list"),
        (b'{"nbformat": 4, "cells": [{"cell_type": "code"}]}', "malformed_notebook", "cells[0] has no source"),
        (b'{"nbformat": 4, "cells": [{"cell_type": "markdown", "source": 3}]}', "malformed_notebook", "cells[0].source"),
        (b'{"nbformat": 4, "cells": [{"cell_type": "code", "source": "", "outputs": [{}]}]}', "malformed_notebook", "cells[0].outputs[0]"),
        (b"[" * 100_000 + b"]" * 100_000, "malformed_notebook", "nested too deeply"),
    ],
)  # fmt: skip
def test_malformed_notebooks_are_a_clear_parse_error(data: bytes, code_: str, words: str) -> None:
    with pytest.raises(ParseError) as err:
        notebook.parse(data, "bad.ipynb")
    assert err.value.code == code_
    assert words in err.value.message


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=json_values | st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
def test_any_json_or_bytes_is_a_document_or_a_parse_error(value: Any) -> None:
    for data in (json.dumps(value).encode(), json.dumps({"nbformat": 4, "cells": value}).encode()):
        try:
            doc = notebook.parse(data, "any.ipynb")
        except ParseError as exc:
            assert exc.code in ("malformed_notebook", "notebook_version", "invalid_utf8", "binary")
            continue
        for e in doc.elements:
            assert 0 <= e.start <= e.end <= len(doc.text)


def test_an_output_chunk_names_the_code_that_made_it() -> None:
    outputs = [{"data": {"text/plain": ["11"]}, "execution_count": 1, "metadata": {}, "output_type": "execute_result"}]
    data = ipynb([code("x = 5\n# the sum\nx + 6\n", outputs), code("y = 10\ny + 1", outputs)])
    doc = notebook.parse(data, "nb.ipynb")
    out = [e for e in doc.elements if e.kind == "output"]
    assert [(e.data.output, e.data.name, e.data.source) for e in out] == [
        ("execute_result", "text/plain", "x + 6"),
        ("execute_result", "text/plain", "y + 1"),
    ]
    chunks = [c for c in Chunker(ChunkConfig(max_tokens=64)).chunk(doc) if c.kinds == ["output"]]
    # Two outputs "11" are two pieces of evidence, not one embedded twice.
    assert [c.embed_text for c in chunks] == ["Output of: x + 6\n\n11", "Output of: y + 1\n\n11"]
