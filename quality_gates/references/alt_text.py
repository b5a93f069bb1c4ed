"""The alt text of a DOCX's or PPTX's pictures, read from the package's XML on its own (zipfile and
lxml, no DTD, no entities, no network), for the gate's reference: the parser keeps each picture's
alt text as an ``image_text`` element, and docling's export leaves it out. Every ``descr`` and
``title`` of a picture's non-visual properties (``wp:docPr``, ``p:cNvPr``), a VML shape's ``alt``
and a VML image's ``o:title`` in the main document or the slides, whether or not the picture is
decorative (the reference may hold more words than the parser keeps; never fewer).
"""

from __future__ import annotations

import io
import re
import zipfile

_PARTS = {
    "docx": re.compile(r"word/(document|header\d*|footer\d*)\.xml$"),
    "pptx": re.compile(r"ppt/slides/slide\d+\.xml$"),
}
_PROPS = ("docPr", "cNvPr")
_MAX_PART = 64 * 1024 * 1024  # bytes of one part read; the parser's own limits refuse larger packages first


def alt_texts(data: bytes, fmt: str) -> list[str]:
    """Each picture's alt text (title and description apart), in the parts' order."""
    wanted = _PARTS.get(fmt)
    if wanted is None:
        return []
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    out: list[str] = []
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            for info in package.infolist():
                if not wanted.match(info.filename) or info.file_size > _MAX_PART:
                    continue
                root = etree.fromstring(package.read(info), parser)
                for el in root.iter():
                    if not isinstance(el.tag, str):
                        continue
                    name = etree.QName(el).localname
                    if name in _PROPS:
                        out.extend(v for v in (el.get("title"), el.get("descr")) if v)
                    elif name == "shape" and el.get("alt"):
                        out.append(el.get("alt") or "")
                    elif name == "imagedata":
                        out.extend(v for k, v in el.attrib.items() if etree.QName(k).localname == "title" and v)
    except (zipfile.BadZipFile, etree.XMLSyntaxError, KeyError, OSError):
        return out  # the parser says what is wrong with the package
    return out


def html_alts(data: bytes) -> list[str]:
    """A web page's images' alt text (``<img alt>``), decoded as the page's text nodes are
    (references/web.py): the parser keeps the alt text of an image standing alone as its own
    element, and docling's export keeps it only for an image with no caption."""
    import lxml.html
    from bs4.dammit import UnicodeDammit
    from lxml import etree

    text = UnicodeDammit(data, is_html=True).unicode_markup
    if text is None:
        return []
    parser = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8", "surrogatepass"), parser=parser)
    except (etree.ParserError, ValueError):
        return []
    return [alt for img in root.iter("img") if (alt := " ".join((img.get("alt") or "").split()))]
