"""A filled form's values and a FreeText annotation are read (issue 39: "filled form fields and
FreeText annotations are lost"): they are not in the content stream, so not in PDFium's text
layer, and a filled application read without them is its blank template."""

from __future__ import annotations

import pytest

from tests.pdf_samples import assemble

pytest.importorskip("pypdfium2")

from parsegate.parsers.pdf import parse


def _form(checked: bool = True) -> bytes:
    content = (
        b"BT /F1 11 Tf 72 760 Td (Application for a mooring permit) Tj ET\n"
        b"BT /F1 10 Tf 72 720 Td (Name:) Tj ET\n"
        b"BT /F1 10 Tf 72 690 Td (Vessel length in metres:) Tj ET\n"
        b"BT /F1 10 Tf 96 660 Td (Winter berth requested) Tj ET"
    )
    state = b"/V /Yes /AS /Yes" if checked else b"/V /Off /AS /Off"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R 7 0 R 8 0 R] /NeedAppearances true >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R /Annots [6 0 R 7 0 R 8 0 R 9 0 R] >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Ada Lovelace) /Rect [110 715 300 731] /P 3 0 R >>",
        b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (length) /V (11.5) /Rect [200 685 260 701] /P 3 0 R >>",
        b"<< /Type /Annot /Subtype /Widget /FT /Btn /T (winter) %s /Rect [72 656 84 668] /P 3 0 R "
        b"/AP << /N << /Yes 10 0 R /Off 10 0 R >> >> >>" % state,
        b"<< /Type /Annot /Subtype /FreeText /Contents (Approved by the harbour master) /Rect [72 600 300 616] "
        b"/DA (/Helv 10 Tf 0 g) /P 3 0 R >>",
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 12 12] /Length 0 >>\nstream\n\nendstream",
    ]
    return assemble(objects)


def _texts(data: bytes) -> list[str]:
    doc = parse(data, "permit.pdf")
    return [doc.text[e.start : e.end] for e in doc.elements]


def test_filled_fields_and_a_free_text_box_are_read_beside_their_labels() -> None:
    texts = _texts(_form())
    assert texts == [
        "Application for a mooring permit",
        "Name: Ada Lovelace",
        "Vessel length in metres: 11.5",
        "[x] Winter berth requested",
        "Approved by the harbour master",
    ]


def test_an_unchecked_box_reads_as_an_empty_box() -> None:
    assert "[ ] Winter berth requested" in _texts(_form(checked=False))


def test_the_gate_finds_a_filled_value_inside_its_chunk_boxes() -> None:
    """Localization reads the page's annotations itself: a value is where the chunk says."""
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.quality_gates.measure import measure

    data = _form()
    doc = parse(data, "permit.pdf")
    chunker = Chunker(ChunkConfig(max_tokens=128))
    chunks = chunker.chunk(doc)
    facts = measure(doc, chunks, chunker.counter, 128, data).to_dict()
    assert (facts["localized"], len(chunks)) == (1, 1)
    assert (facts["recall_words"], facts["recall_found"]) == (13, 13)  # the text layer: no values
