"""Declared furniture needs the gate's own support before recall leaves it out (issue 39: "a
furniture declaration needs independent support"): a PDF line that is on other pages too or is
a page number, contents entries on a page of lines ending in page numbers, front matter that is
a YAML mapping. A parser that calls body text furniture loses recall; the facts list each
declared piece with its support."""

from __future__ import annotations

import dataclasses

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers.model import FurnitureData
from parsegate.quality_gates.measure import measure

pytest.importorskip("pypdfium2")
fpdf = pytest.importorskip("fpdf")

BODY = [
    "The harbour board met on the first Monday of the month.",
    "Dredging of the inner basin is to finish before the autumn storms.",
    "Moorings on the east quay are let by the season only.",
]


def _report() -> bytes:
    pdf = fpdf.FPDF(format=(420, 595), unit="pt")  # A5, in points
    pdf.set_font("Helvetica", size=10)
    for number, line in enumerate(BODY, start=1):
        pdf.add_page()
        pdf.text(40, 30, "Annual Report of the Harbour Board")
        pdf.text(40, 120, line)
        pdf.text(200, 570, str(number))
    return bytes(pdf.output())


def _facts(data: bytes, doc: object, sampled: bool = True) -> dict[str, object]:
    chunker = Chunker(ChunkConfig(max_tokens=128))
    return measure(doc, chunker.chunk(doc), chunker.counter, 128, data, sampled=sampled).to_dict()  # type: ignore[arg-type]


def test_a_running_head_and_page_numbers_are_supported_by_the_text_layer() -> None:
    from parsegate.parsers.pdf import parse

    data = _report()
    doc = parse(data, "report.pdf")
    facts = _facts(data, doc)
    assert (facts["recall_words"], facts["recall_found"]) == (34, 34)
    furniture = facts["furniture"]
    assert [(f["text"], f["page"], f["support"]) for f in furniture] == [
        ("Annual Report of the Harbour Board", 1, "PDFium: on another page too"),
        ("1", 1, "PDFium: a page number"),
        ("Annual Report of the Harbour Board", 2, "PDFium: on another page too"),
        ("2", 2, "PDFium: a page number"),
        ("Annual Report of the Harbour Board", 3, "PDFium: on another page too"),
        ("3", 3, "PDFium: a page number"),
    ]


def test_body_text_declared_furniture_has_no_support_and_counts_as_lost() -> None:
    from parsegate.parsers.pdf import parse

    data = _report()
    doc = parse(data, "report.pdf")
    body = next(i for i, e in enumerate(doc.elements) if doc.text[e.start : e.end] == BODY[1])
    doc.elements[body] = dataclasses.replace(doc.elements[body], kind="furniture", data=FurnitureData())
    facts = _facts(data, doc)
    assert (facts["recall_words"], facts["recall_found"]) == (34, 34 - len(BODY[1].split()))
    assert [f["support"] for f in facts["furniture"] if f["text"] == BODY[1]] == [None]


@pytest.mark.parametrize(
    ("front", "support", "counted"),
    [("title: Moorings\nowner: harbour board\n", "a YAML mapping", 0), ("Moorings are let by the season.\n", None, 6)],
)
def test_front_matter_is_left_out_where_it_is_a_yaml_mapping(front: str, support: str | None, counted: int) -> None:
    from parsegate.parsers import markdown

    source = f"---\n{front}---\n\n# Moorings\n\nThe east quay is let by the season.\n".encode()
    doc = markdown.parse(source, "moorings.md")
    if support is None:  # a parser that took a sentence for front matter
        doc.elements.insert(0, dataclasses.replace(doc.elements[0], kind="front_matter", start=4, end=4 + len(front)))
        doc.elements[0] = dataclasses.replace(doc.elements[0], start=0, end=8 + len(front))
    facts = _facts(source, doc)
    assert [(f["kind"], f["support"]) for f in facts["furniture"]] == [("front_matter", support)]
    assert facts["recall_words"] == 9 + counted


def test_an_asciidoc_header_is_supported_and_a_paragraph_is_not() -> None:
    from parsegate.parsers import asciidoc

    source = b"= Runbook\nPlatform Team <p@example.org>\nv2.3, 2024-05-14\n:toc: left\n\nBackups run at night.\n"
    doc = asciidoc.parse(source, "runbook.adoc")
    facts = _facts(source, doc, sampled=False)  # by position: outside the sample asciidoc-py is not run
    assert [(f["kind"], f["support"]) for f in facts["furniture"]] == [("front_matter", "an AsciiDoc header")]
    body = next(i for i, e in enumerate(doc.elements) if e.kind == "paragraph")
    doc.elements[body] = dataclasses.replace(doc.elements[body], kind="front_matter")
    facts = _facts(source, doc, sampled=False)
    assert [f["support"] for f in facts["furniture"]] == ["an AsciiDoc header", None]
