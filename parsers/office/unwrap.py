"""DOCX text that docling's Word backend never reaches, brought into the body before it reads it.

docling walks the body's paragraphs and tables; text Word keeps elsewhere is lost, and the gate's
docling reading loses it alike (issue 39):

- ``w:customXml`` and ``w:smartTag`` wrap paragraphs, tables or runs in a custom element: they are
  unwrapped (their properties dropped, their content kept where it stands);
- ``w:altChunk`` imports a whole other part (HTML, a DOCX, plain text) at its place: its blocks
  become paragraphs there (a DOCX part's own paragraphs and tables; an HTML part's text blocks;
  plain text's lines).

The rewritten package is what the parser reads; the document's version stays the hash of the
bytes given. A package with neither (most of them) is returned as it is, untouched.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator

from lxml import etree

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_WRAPPERS = (f"{{{W}}}customXml", f"{{{W}}}smartTag")
_PROPERTIES = (f"{{{W}}}customXmlPr", f"{{{W}}}smartTagPr")
_DOCUMENT = "word/document.xml"
_BLOCKS = ("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "td", "th", "pre", "blockquote", "caption")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


_MAX_DEPTH = 3  # a chunk that is a DOCX whose chunk is a DOCX…: deeper ones are left out


def body_text_brought_in(data: bytes, depth: int = 0) -> bytes:
    """The package with its custom-XML wrappers unwrapped and its alternative chunks imported, or
    ``data`` itself when it has neither (or cannot be read: the parser says why in its own words)."""
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        document = package.read(_DOCUMENT)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError):
        return data
    if b"customXml" not in document and b"smartTag" not in document and b"altChunk" not in document:
        return data
    try:
        root = etree.fromstring(document, _parser())
    except etree.XMLSyntaxError:
        return data
    changed = _unwrap(root)
    changed = _import_chunks(root, package, depth) or changed
    if not changed:
        return data
    return rewritten(package, etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True))


def _unwrap(root: etree._Element) -> bool:
    wrappers = [el for el in root.iter(*_WRAPPERS)]
    for wrapper in reversed(wrappers):  # the innermost first: an outer one then holds plain content
        parent = wrapper.getparent()
        if parent is None:
            continue
        at = parent.index(wrapper)
        kept = [child for child in wrapper if child.tag not in _PROPERTIES]
        parent.remove(wrapper)
        for offset, child in enumerate(kept):
            parent.insert(at + offset, child)
    return bool(wrappers)


def _import_chunks(root: etree._Element, package: zipfile.ZipFile, depth: int) -> bool:
    chunks = list(root.iter(f"{{{W}}}altChunk"))
    if not chunks:
        return False
    targets = _relationships(package)
    for chunk in chunks:
        parent = chunk.getparent()
        if parent is None:
            continue
        target = targets.get(chunk.get(f"{{{R}}}id") or "")
        blocks = list(_chunk_blocks(package, target, depth)) if target else []
        at = parent.index(chunk)
        parent.remove(chunk)
        for offset, block in enumerate(blocks):
            parent.insert(at + offset, block)
    return True


def _relationships(package: zipfile.ZipFile) -> dict[str, str]:
    try:
        rels = etree.fromstring(package.read("word/_rels/document.xml.rels"), _parser())
    except (KeyError, etree.XMLSyntaxError):
        return {}
    out = {}
    for rel in rels.iter(f"{{{_RELS}}}Relationship"):
        target = rel.get("Target") or ""
        if rel.get("TargetMode") != "External" and target:
            out[rel.get("Id") or ""] = target.lstrip("/") if target.startswith("/") else f"word/{target}"
    return out


def _chunk_blocks(package: zipfile.ZipFile, name: str, depth: int) -> Iterator[etree._Element]:
    """The body blocks an alternative chunk's part stands for."""
    try:
        data = package.read(name)
    except KeyError:
        return
    lower = name.lower()
    if lower.endswith((".docx", ".docm")) or data.startswith(b"PK\x03\x04"):
        if depth < _MAX_DEPTH:
            yield from _docx_blocks(data, depth + 1)
    elif lower.endswith((".htm", ".html", ".xhtml", ".mht", ".mhtml")) or b"<html" in data[:4096].lower():
        yield from (_paragraph(text) for text in _html_texts(data))
    elif lower.endswith(".txt"):
        text = data.decode("utf-8", errors="replace")
        yield from (_paragraph(line.strip()) for line in text.splitlines() if line.strip())


def _docx_blocks(data: bytes, depth: int) -> Iterator[etree._Element]:
    try:
        inner = zipfile.ZipFile(io.BytesIO(body_text_brought_in(data, depth)))
        root = etree.fromstring(inner.read(_DOCUMENT), _parser())
    except (zipfile.BadZipFile, KeyError, etree.XMLSyntaxError, OSError, ValueError):
        return
    body = root.find(f"{{{W}}}body")
    if body is None:
        return
    for child in body:
        if child.tag in (f"{{{W}}}p", f"{{{W}}}tbl"):
            yield child


def _html_texts(data: bytes) -> Iterator[str]:
    from lxml import html

    try:
        tree = html.fromstring(data)
    except (etree.ParserError, ValueError):
        return
    for el in tree.iter(*_BLOCKS):
        if any(isinstance(child.tag, str) and child.tag in _BLOCKS for child in el):
            continue  # its blocks are read on their own
        text = " ".join(" ".join(el.itertext()).split())
        if text:
            yield text


def _paragraph(text: str) -> etree._Element:
    p = etree.Element(f"{{{W}}}p")
    r = etree.SubElement(p, f"{{{W}}}r")
    t = etree.SubElement(r, f"{{{W}}}t")
    t.text = text
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    return p


def rewritten(package: zipfile.ZipFile, document: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for item in package.infolist():
            z.writestr(item, document if item.filename == _DOCUMENT else package.read(item.filename))
    return out.getvalue()
