"""A slide's speaker notes are evidence: they follow the slide's own text, under its title, with
its slide number (docling files them on its notes layer: they were furniture, out of every chunk).
A hidden slide's notes stay out with the slide."""

from __future__ import annotations

import io

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers.model import Document
from tests.conftest import GOLDEN

pytest.importorskip("docling")
pptx = pytest.importorskip("pptx")
NOTES_DECK = GOLDEN / "office" / "pptx" / "presenter-notes" / "input.pptx"


def deck(slides: list[tuple[str, str, str, bool]]) -> bytes:
    """(title, one bullet, notes, hidden) per slide."""
    presentation = pptx.Presentation()
    for title, bullet, notes, hidden in slides:
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text_frame.text = bullet
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
        if hidden:
            slide._element.set("show", "0")
    out = io.BytesIO()
    presentation.save(out)
    return out.getvalue()


def read(data: bytes) -> Document:
    from parsegate.parsers.office.backends import convert
    from parsegate.parsers.office.mapping import to_document

    ddoc, gaps, _ = convert(data, "deck.pptx", "pptx")
    return to_document(ddoc, "deck.pptx", "v", "pptx", gaps)


def test_notes_follow_their_slide_under_its_title_with_its_number_one_element_per_paragraph() -> None:
    doc = read(
        deck(
            [
                ("Refunds", "Within 30 days", "Gift cards are not refundable.\nAsk for the receipt.", False),
                ("Shipping", "Free over 50 euros", "Islands cost 12 euros more.", False),
            ]
        )
    )
    found = [(e.kind, e.section_path, e.page, doc.text[e.start : e.end]) for e in doc.elements if e.kind != "list"]
    assert found == [
        ("heading", ("Refunds",), 1, "Refunds"),
        ("list_item", ("Refunds",), 1, "Within 30 days"),
        ("speaker_notes", ("Refunds",), 1, "Gift cards are not refundable."),
        ("speaker_notes", ("Refunds",), 1, "Ask for the receipt."),
        ("heading", ("Shipping",), 2, "Shipping"),
        ("list_item", ("Shipping",), 2, "Free over 50 euros"),
        ("speaker_notes", ("Shipping",), 2, "Islands cost 12 euros more."),
    ]


def test_a_hidden_slides_notes_stay_out_with_the_slide() -> None:
    doc = read(
        deck([("Prices", "Basic plan", "Say the basic price.", False), ("Draft", "Premium", "Not final.", True)])
    )
    body = [doc.text[e.start : e.end] for e in doc.elements if e.kind not in ("furniture", "list")]
    assert body == ["Prices", "Basic plan", "Say the basic price."]
    furniture = {doc.text[e.start : e.end]: e.data.reason for e in doc.elements if e.kind == "furniture"}
    assert furniture["Not final."] == "speaker notes of a hidden slide (PowerPoint does not present it)"
    assert "Premium" in furniture


def test_the_slide_and_its_notes_arrive_in_one_chunk() -> None:
    doc = read(NOTES_DECK.read_bytes())
    chunks = Chunker(ChunkConfig(max_tokens=48)).chunk(doc)
    claim = "Refunds within 30 days of purchase"
    exception = "Gift cards bought in a store are not refundable, except where local law requires it."
    holding = [c for c in chunks if claim in c.text and exception in c.text]
    assert len(holding) == 1
    assert list(holding[0].section_path) == ["Refund Policy"] and list(holding[0].pages or []) == [1]
    assert "Do not present" not in "".join(c.text for c in chunks)
