"""Declared furniture has a share of the document, and a cap (issue 39): a parser that calls a
page's article furniture keeps it out of chunks and out of recall's reference alike, and only
this check sees it. Navigation (a contents page) is not counted."""

from __future__ import annotations

import dataclasses

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers.model import FurnitureData
from parsegate.parsers.office import parse
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate

PAGE = (
    b"<html><body><header><p>Harbour Board</p></header><main><h1>Mooring rules</h1>"
    b"<p>Every boat on the east quay needs a permit for the season, shown on its bow.</p>"
    b"<p>Permits are sold at the harbour office from nine to five on weekdays only.</p>"
    b"<p>The inner basin is dredged in March and closed to all boats for two weeks.</p>"
    b"</main></body></html>"
)


def _verdict(doc: object, data: bytes) -> tuple[list[str], dict[str, object]]:
    chunker = Chunker(ChunkConfig(max_tokens=128))
    facts = measure(doc, chunker.chunk(doc), chunker.counter, 128, data, sampled=False)  # type: ignore[arg-type]
    return [c.check for c in evaluate(facts, Thresholds()).failed], facts.to_dict()


def test_a_page_with_its_header_as_furniture_passes() -> None:
    doc = parse(PAGE, "rules.html")
    failed, facts = _verdict(doc, PAGE)
    assert failed == []
    assert (facts["furniture_chars"], facts["document_chars"]) == (len("Harbour Board"), len(doc.text))


def test_an_article_declared_furniture_fails_the_share_alone() -> None:
    doc = parse(PAGE, "rules.html")
    elements = [
        dataclasses.replace(e, kind="furniture", data=FurnitureData(reason="outside the main content (text density)"))
        if e.kind == "paragraph"
        else e
        for e in doc.elements
    ]
    doc = dataclasses.replace(doc, elements=elements)
    failed, facts = _verdict(doc, PAGE)
    assert failed == ["max_furniture_share"]
    paragraphs = [doc.text[e.start : e.end] for e in elements if e.kind == "furniture"]
    assert facts["furniture_chars"] == sum(map(len, paragraphs)) == 224 + len("Harbour Board")


def test_navigation_is_not_counted() -> None:
    doc = parse(PAGE, "rules.html")
    elements = [
        dataclasses.replace(e, kind="furniture", data=FurnitureData(reason="navigation (contents)"))
        if e.kind == "paragraph"
        else e
        for e in doc.elements
    ]
    failed, facts = _verdict(dataclasses.replace(doc, elements=elements), PAGE)
    assert "max_furniture_share" not in failed and facts["furniture_chars"] == len("Harbour Board")
