"""Born-digital PDF → Document: text and character boxes from pypdfium2, page by page.

Data flow: page text lines with boxes (read) → page furniture (running headers, footers, page
numbers repeated across pages) and type sizes (typography) → tables on pages with ruling lines
(tables, pdfplumber's table finder, only there) → reading order by XY-cut over the page's blocks
(order) → paragraphs rebuilt from lines, headings, tables and furniture as elements (build).
"""

from __future__ import annotations

from importlib.metadata import version

from parsers.model import Document, ParseWarning, content_version
from parsers.pdf.build import Builder, emit_page
from parsers.pdf.read import open_pdf, read_metadata, read_outline, read_pages
from parsers.pdf.typography import body_height, furniture_lines, heading_levels

NAME = "pdf"
VERSION = f"pypdfium2/{version('pypdfium2')}+pdfplumber/{version('pdfplumber')}"
SUFFIXES = (".pdf",)


def parse(data: bytes, doc_id: str) -> Document:
    pdf = open_pdf(data)
    warnings: list[ParseWarning] = []
    pages = read_pages(pdf, data, warnings)
    furniture = furniture_lines(pages)
    body = body_height(pages)
    levels = heading_levels(pages, body, furniture)
    outline = read_outline(pdf, warnings)
    builder = Builder()
    for page in pages:
        emit_page(builder, page, furniture, body, levels, outline)
    # Furniture goes after the body, so no chunk (a contiguous slice) can take it in.
    for page in pages:
        for line in page.lines:
            if (page.number, line.text) in furniture:
                builder.emit("furniture", line.text, page.number, line.box)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format="pdf",
        text=builder.text(),
        elements=builder.elements,
        metadata=read_metadata(pdf, builder),
        parser=f"{NAME} {VERSION}",
        warnings=warnings,
    )
    if not doc.text.strip() and not any(w.code == "needs_ocr" for w in warnings):
        warnings.append(ParseWarning("empty", "the document has no text"))
    return doc
