"""HTML → Document, our own pass over lxml's tree (docling's HTML backend read about 0.25 MB/s here).

Data flow: bytes → text (encoding) → tree (scripts and styles dropped) → its pages (one body,
or several in a file of pages run together) → per page, regions (the main content, and the
chrome around it with reasons) and one walk that emits elements (walk.py) → Document. A page
nested past libxml2's limit is read as plain paragraphs, with a warning.
"""

from __future__ import annotations

from typing import Any

from parsegate.parsers.build.document import DocBuilder
from parsegate.parsers.build.headings import title_from_first_heading
from parsegate.parsers.model import Document, ParseWarning, content_version
from parsegate.parsers.web.regions import WHOLE_PAGE_FALLBACK, find_regions
from parsegate.parsers.web.source import TooDeep, decode, flat_paragraphs, pages, tree
from parsegate.parsers.web.walk import Walker


def parse_html(data: bytes, doc_id: str) -> Document:
    source = decode(data)
    meta: dict[str, Any] = {}
    try:
        root = tree(source)
    except TooDeep:
        return _flat(source, doc_id, content_version(data))
    head_title = " ".join(" ".join(root.xpath("/html/head/title//text()")).split())
    if head_title:
        meta["html_title"] = head_title
    walker: Walker | None = None
    for body in pages(root):
        regions = find_regions(body)
        if walker is None:
            meta["main_content"] = regions.how
            walker = Walker(regions, images=True)
            if regions.how == WHOLE_PAGE_FALLBACK:
                walker.b.warnings.append(
                    ParseWarning(
                        "main_content_unclear",
                        "no block of prose stands out as the page's content (an index or a list of links?):"
                        " the whole page is read, less the chrome it names (navigation, sidebars, ...)",
                    )
                )
        else:
            walker.next_page(regions)
        walker.walk(body)
        walker.finish()
    assert walker is not None  # pages() gives at least the root
    text, elements = walker.b.finish()
    title = title_from_first_heading(elements, text) or head_title
    if title:
        meta["title"] = title
    doc = Document(doc_id, content_version(data), "html", text, elements, metadata=meta, warnings=walker.b.warnings)
    if not any(e.kind != "furniture" for e in elements):
        doc.warnings.append(ParseWarning("empty", "the page has no text in its main content"))
    return doc


def _flat(source: str, doc_id: str, version: str) -> Document:
    b = DocBuilder()
    for block in flat_paragraphs(source):
        b.emit("paragraph", block)
    b.warnings.append(
        ParseWarning(
            "nesting_limit",
            "elements nested deeper than 2048 levels: the page is read as plain paragraphs"
            " (no headings, lists, tables or main-content detection)",
        )
    )
    text, elements = b.finish()
    return Document(doc_id, version, "html", text, elements, warnings=b.warnings)
