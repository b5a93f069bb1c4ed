"""A DOCX's footnotes are evidence placed beside the paragraph that cites them (docling files them
with the page headers and drops the citation marks: they were furniture, out of every chunk)."""

from __future__ import annotations

import io
import zipfile

import pytest

from parsegate.parsers.office.footnotes import key, note_anchors
from tests.conftest import GOLDEN

pytest.importorskip("docling")
FOOTNOTED = GOLDEN / "office" / "docx" / "footnoted-policy" / "input.docx"
IN_CELLS = GOLDEN / "office" / "docx" / "footnoted-rates" / "input.docx"


def kinds_and_texts(data: bytes, anchors: dict[str, list[str]] | None = None) -> list[tuple[str, tuple[str, ...], str]]:
    from parsegate.parsers.office.backends import convert
    from parsegate.parsers.office.mapping import to_document

    ddoc, gaps, _ = convert(data, "input.docx", "docx")
    doc = to_document(ddoc, "input.docx", "v", "docx", gaps, note_anchors(data) if anchors is None else anchors)
    return [(e.kind, e.section_path, doc.text[e.start : e.end]) for e in doc.elements]


def test_the_citing_paragraphs_and_their_notes_are_read_from_the_xml() -> None:
    assert note_anchors(FOOTNOTED.read_bytes()) == {
        key("Customers may request a full refund within 30 days of purchase. The refund goes back to the original "
            "payment method."): [key("Gift cards bought in a store are not refundable.")],
        key("Items must be returned in their original packaging."): [
            key("Opened software and personalised items cannot be returned.")
        ],
    }  # fmt: skip


def test_a_footnote_follows_the_paragraph_that_cites_it_under_its_headings() -> None:
    elements = kinds_and_texts(FOOTNOTED.read_bytes())
    at = elements.index(
        ("footnote", ("Refunds and Returns", "Refunds"), "Gift cards bought in a store are not refundable.")
    )
    assert elements[at - 1][2].startswith("Customers may request a full refund")
    returns = ("Refunds and Returns", "Returns")
    at = elements.index(("footnote", returns, "Opened software and personalised items cannot be returned."))
    assert elements[at - 1] == ("paragraph", returns, "Items must be returned in their original packaging.")


def test_a_note_cited_from_a_table_cell_is_anchored_to_the_whole_cell() -> None:
    # The second note is cited from the second paragraph of its cell: docling's cell joins both.
    assert note_anchors(IN_CELLS.read_bytes()) == {
        key("Islands"): [key("Island rates include the ferry surcharge and do not apply from November to March.")],
        key("25 euros plus customs"): [key("Customs fees are charged by the receiving country, not by us.")],
    }


def test_notes_cited_from_table_cells_follow_the_table_under_its_headings() -> None:
    elements = kinds_and_texts(IN_CELLS.read_bytes())
    kinds = [(kind, path) for kind, path, _ in elements]
    rates = ("Shipping Rates",)
    last_row = max(i for i, (kind, _) in enumerate(kinds) if kind == "table_row")
    assert elements[last_row + 1 : last_row + 3] == [
        ("footnote", rates, "Island rates include the ferry surcharge and do not apply from November to March."),
        ("footnote", rates, "Customs fees are charged by the receiving country, not by us."),
    ]
    assert elements[last_row + 3] == ("heading", ("Returns",), "Returns")


def test_a_reviewer_s_comment_stays_out_of_the_text_with_its_own_reason() -> None:
    from parsegate.parsers import office

    doc = office.parse(FOOTNOTED.read_bytes(), "input.docx")
    (reason,) = [
        e.data.reason
        for e in doc.elements
        if e.kind == "furniture" and doc.text[e.start : e.end].endswith("Check the threshold with finance.")
    ]
    assert reason == "a reviewer's comment (not part of the document's text)"


def test_footnotes_whose_citation_is_not_found_follow_the_body_instead_of_being_dropped() -> None:
    elements = kinds_and_texts(FOOTNOTED.read_bytes(), anchors={})
    notes = [(kind, text) for kind, _, text in elements if kind == "footnote"]
    assert notes == [
        ("footnote", "Gift cards bought in a store are not refundable."),
        ("footnote", "Opened software and personalised items cannot be returned."),
    ]
    last_body = max(i for i, (kind, _, _) in enumerate(elements) if kind == "paragraph")
    assert all(i > last_body for i, (kind, _, _) in enumerate(elements) if kind == "footnote")


def test_a_file_that_is_not_a_readable_docx_has_no_anchors() -> None:
    assert note_anchors(b"not a zip") == {}
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("word/document.xml", "<w:document")  # cut short
        archive.writestr("word/footnotes.xml", "<x/>")
    assert note_anchors(broken.getvalue()) == {}
