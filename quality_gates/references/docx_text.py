"""A DOCX file's own paragraphs, read with lxml from ``word/document.xml`` (every ``w:p``'s
``w:t`` texts, wherever the paragraph sits: inside ``w:customXml``, ``w:smartTag``, a content
control, a table cell). docling's export drops some of them (custom XML, smart tags), which the
parser reads; localization then finds a chunk's words in the file itself, not only in docling's
export. No DTD, entities or network: the parser's preflight refused those files already."""

from __future__ import annotations

import io
import zipfile

from lxml import etree

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_DOCUMENT = "word/document.xml"
_MAX_BYTES = 200 * 1024 * 1024  # of document.xml inflated (the parser's own limit refused more)


def paragraph_texts(data: bytes) -> list[str] | None:
    """The text of each paragraph of the body, in order; None for a file that is no readable DOCX."""
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        if package.getinfo(_DOCUMENT).file_size > _MAX_BYTES:
            return None
        xml = package.read(_DOCUMENT)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError):
        return None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False)
    try:
        root = etree.fromstring(xml, parser)
    except etree.XMLSyntaxError:
        return None
    texts = []
    for paragraph in root.iter(f"{{{_W}}}p"):
        text = "".join(t.text or "" for t in paragraph.iter(f"{{{_W}}}t"))
        if text.strip():
            texts.append(text)
    return texts
