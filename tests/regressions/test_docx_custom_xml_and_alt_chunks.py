"""DOCX text docling's Word backend never reaches (issue 39): a paragraph wrapped in w:customXml,
runs wrapped in w:smartTag, and a w:altChunk importing an HTML part were lost by the parser and by
docling's export alike. They are brought into the body before docling reads it."""

from __future__ import annotations

import io
import zipfile

import pytest

import parsegate

docx = pytest.importorskip("docx")
pytest.importorskip("docling")


def _package() -> bytes:
    document = docx.Document()
    document.add_heading("Policy", 1)
    document.add_paragraph("Visible first paragraph about refunds.")
    document.add_paragraph("WRAPPED paragraph about the refund window of thirty days.")
    document.add_paragraph("Closing paragraph with a TAGGED run.")
    plain = io.BytesIO()
    document.save(plain)
    source = zipfile.ZipFile(io.BytesIO(plain.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/document.xml":
                s = data.decode()
                start = s.rfind("<w:p", 0, s.index("WRAPPED"))
                end = s.index("</w:p>", s.index("WRAPPED")) + len("</w:p>")
                s = s[:start] + '<w:customXml w:element="clause">' + s[start:end] + "</w:customXml>" + s[end:]
                run = s.rfind("<w:r>", 0, s.index("TAGGED"))
                run_end = s.index("</w:r>", s.index("TAGGED")) + len("</w:r>")
                s = s[:run] + '<w:smartTag w:element="place">' + s[run:run_end] + "</w:smartTag>" + s[run_end:]
                at = s.index("<w:sectPr")
                s = s[:at] + '<w:altChunk r:id="rIdAlt1"/>' + s[at:]
                data = s.encode()
            elif item.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdAlt1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                    b'relationships/aFChunk" Target="afchunk.htm"/></Relationships>',
                )
            elif item.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Default Extension="htm" ContentType="text/html"/></Types>')
            z.writestr(item, data)
        z.writestr(
            "word/afchunk.htm",
            "<html><body><h2>Annex</h2><p>ALTCHUNK text: returns after ninety days need approval.</p></body></html>",
        )
    return out.getvalue()


def test_wrapped_tagged_and_imported_text_reaches_the_chunks() -> None:
    data = _package()
    doc = parsegate.parse(data, format="docx")
    chunked = " ".join(c.text for c in parsegate.chunk(doc))
    for words in ("WRAPPED paragraph", "TAGGED run", "Annex", "ALTCHUNK text: returns after ninety days"):
        assert words in chunked, words
    assert chunked.index("Visible first") < chunked.index("WRAPPED") < chunked.index("Closing") < chunked.index("Annex")
    assert doc.version == parsegate.parsers.model.content_version(data)  # the bytes given, not the rewrite
