"""docling's HTML backend costs the depth of the tree for every element (it searches each
element's subtree and ancestors), so a deeply nested page made the gate's docling reference
quadratic (issue 39: an <ul> 5,000 deep, 36 s; 100k unclosed <nav>, minutes). A page that nests
DOCLING_DEPTH elements deep is checked against libxml2's reading alone, found in one linear pass;
a page whose depth is only left-out end tags (<li>, <dt>, <td>) still gets docling's."""

from __future__ import annotations

from typing import Any

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import office
from parsegate.quality_gates import references
from parsegate.quality_gates.checks.recall import RecallFacts
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references.web import DOCLING_DEPTH, nests_deeper

pytest.importorskip("docling")


def nested_navs(count: int) -> bytes:
    return b"<html><body><p>Some words to find here.</p>" + b"<nav>" * count + b"<p>after the navs</p></body></html>"


def implied_ends(count: int) -> bytes:
    items = b"<ul>" + b"<li>an item" * count + b"</ul><dl>" + b"<dt>term<dd>its meaning" * count + b"</dl>"
    rows = b"<table>" + b"<tr><td>a cell<td>another" * count + b"</table>"
    return b"<html><body><p>Some words to find here.</p>" + items + rows + b"</body></html>"


def test_depth_counts_the_elements_a_browser_nests() -> None:
    assert nests_deeper(nested_navs(DOCLING_DEPTH))
    assert not nests_deeper(nested_navs(DOCLING_DEPTH - 10))
    assert not nests_deeper(implied_ends(5 * DOCLING_DEPTH))  # each closes the one before
    div = b"<div>" * (DOCLING_DEPTH - 3) + b"x" + b"</div>" * (DOCLING_DEPTH - 3)
    assert not nests_deeper(b"<html><body>" + div * 3 + b"</body></html>")  # closed: depth is not length


def gate(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, Any]:
    calls = []
    real = references.docling_text

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(references, "docling_text", counted)
    chunker = Chunker(ChunkConfig())
    doc = office.parse(data, "page.html")
    facts = measure(doc, chunker.chunk(doc), chunker.counter, chunker.max_tokens, data)
    return len(calls), facts.get(RecallFacts)


def test_a_deeply_nested_page_is_not_given_to_docling(monkeypatch: pytest.MonkeyPatch) -> None:
    # Watched failing before nests_deeper: docling_text was called once (and on 20,000 navs
    # took minutes); the source read "docling could not read the page".
    calls, recall = gate(nested_navs(3 * DOCLING_DEPTH), monkeypatch)
    assert calls == 0
    assert (
        recall.recall_source
        == f"libxml2 reading (docling's export not taken: the page nests {DOCLING_DEPTH} or more elements deep)"
    )
    assert recall.recall_found == recall.recall_words > 0


def test_left_out_end_tags_still_get_docling(monkeypatch: pytest.MonkeyPatch) -> None:
    calls, recall = gate(implied_ends(2 * DOCLING_DEPTH), monkeypatch)
    assert calls == 1
    assert recall.recall_source == "docling export"
