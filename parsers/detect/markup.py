"""Markup told by its first tags: an HTML page (a doctype, ``<html>``, ``<head>`` or ``<body>``
first), an HTML fragment (a block tag such as ``<div>``, ``<p>``, ``<h1>`` or ``<table>`` first),
XHTML (``<?xml ...?>`` then an XHTML doctype or ``<html xmlns=...xhtml``), other XML (read as
text: no parser reads it); and a DoclingDocument written as JSON."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Comments, processing instructions and whitespace before the first tag.
_LEAD = re.compile(r"(?:\s+|<!--.*?-->|<\?xml[^>]*\?>)*", re.S)
_DOCTYPE = re.compile(r"<!doctype\s+([a-z][\w:.-]*)", re.I)
_TAG = re.compile(r"<([a-z][a-z0-9:-]*)(?=[\s/>])", re.I)
_XHTML_NS = "http://www.w3.org/1999/xhtml"  # named in the reason only: an <html> root is HTML either way
_PAGE_TAGS = frozenset({"html", "head", "body"})
_HEAD_TAGS = frozenset({"meta", "title", "link", "base", "style", "script"})
# Tags that open an HTML fragment's first block.
_BLOCK_TAGS = frozenset(
    "div p h1 h2 h3 h4 h5 h6 table ul ol dl section article nav header footer main aside pre "
    "blockquote form figure details center font".split()
)
_DOCLING = re.compile(r'\A\s*\{.{0,2000}?"schema_name"\s*:\s*"DoclingDocument"', re.S)
# nbformat 4 writes its keys sorted: "cells" first, each cell naming its "cell_type".
_NOTEBOOK = re.compile(r'\A\s*\{\s*"cells"\s*:\s*\[.{0,4000}?"cell_type"\s*:\s*"(?:markdown|code|raw)"', re.S)


@dataclass(frozen=True)
class Markup:
    kind: str  # "page" (HTML, decided), "fragment" (HTML unless Markdown says otherwise), "xml"
    by: str


def first_tags(text: str) -> Markup | None:
    """What the first tag of ``text`` makes it, or None when it does not begin with markup."""
    head = text[:4096].lstrip("\ufeff")
    lead = _LEAD.match(head)
    rest = head[lead.end() if lead else 0 :]
    xml_declared = head.lstrip().startswith("<?xml")
    doctype = _DOCTYPE.match(rest)
    if doctype:
        name = doctype.group(1).lower()
        if name == "html":
            return Markup("page", "content: an HTML doctype" + (" after an XML declaration" if xml_declared else ""))
        return Markup("xml", f"content: a <!DOCTYPE {doctype.group(1)}> document type")
    tag = _TAG.match(rest)
    if tag is None:
        return Markup("xml", "content: an XML declaration") if xml_declared else None
    name = tag.group(1).lower()
    if name in _PAGE_TAGS:
        xhtml = " (XHTML)" if _XHTML_NS in rest[: rest.find(">") + 1] else ""
        return Markup("page", f"content: an <{name}> tag first{xhtml}")
    if xml_declared:
        return Markup("xml", f"content: an XML document, root <{tag.group(1)}>")
    if name in _HEAD_TAGS or name in _BLOCK_TAGS:
        return Markup("fragment", f"content: an HTML fragment, <{name}> first")
    return None


def notebook_json(text: str) -> str | None:
    if _NOTEBOOK.match(text):
        return 'content: JSON whose first key is "cells", of cells with a "cell_type" (a Jupyter notebook)'
    return None


def docling_json(text: str) -> str | None:
    if _DOCLING.match(text):
        return 'content: JSON with "schema_name": "DoclingDocument"'
    return None
