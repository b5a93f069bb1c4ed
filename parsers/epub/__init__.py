"""EPUB books (``.epub``) → Document.

The package is read with zipfile and lxml (package.py): META-INF/container.xml → the OPF → its
spine (the reading order) and manifest. Each spine item, an XHTML chapter, is read by our own
HTML pass (parsers/web: headings, paragraphs, lists, tables, code, images' alt text as
furniture), every chapter's whole body being its content; the chapters are joined in spine order
into one ``Document.text`` (built, as for Office and PDF: ``source_text`` is False).

- the book's title (the OPF's ``dc:title``) is the document's title and its first heading, level 1;
  the chapters' headings are nested under it (``<h1>`` is level 2, ``<h2>`` level 3…);
- every element's ``page`` is its chapter's place in the spine (1-based) and
  ``metadata["chapters"][page - 1]`` that chapter's file in the archive; furniture names its
  chapter's file as its ``ref`` too;
- the navigation document (the table of contents), when the spine holds it, is furniture
  (reason navigation), not content; an NCX or a nav document outside the spine is not read;
- a file the spine names more than once (under several manifest ids) is read once, where it first
  comes, with a warning;
- a spine item that is no XHTML (an SVG page, an image) or missing from the archive is skipped
  with a warning.

Refused with a ParseError: no zip (``corrupt``), a zip bomb (``zip_bomb``), XML that declares
entities (``unsafe_xml``), no container.xml (``no_container``), no package document
(``no_package``) or spine (``no_spine``), chapters encrypted by DRM (``encrypted``).
"""

from __future__ import annotations

from typing import Any

from parsegate.parsers.build.document import DocBuilder
from parsegate.parsers.epub.package import CHAPTER_TYPES, Book, Item, open_book
from parsegate.parsers.formats import spec
from parsegate.parsers.model import Document, Element, ParseError, ParseWarning, content_version
from parsegate.parsers.office.checks import check_html
from parsegate.parsers.options import DEFAULTS, ParseOptions

NAME = "epub"
SPEC = spec(NAME)
OUTPUT_VERSION = SPEC.output_version
SUFFIXES = SPEC.suffixes
VERSION = str(OUTPUT_VERSION)
WHOLE_CHAPTER = "the whole chapter (EPUB)"
NAVIGATION = "navigation (the book's table of contents)"


class _BookBuilder(DocBuilder):
    """The chapters' headings one level below the book's title."""

    shift = 0

    def heading(self, level: int, title: str, **fields: Any) -> Element:
        return super().heading(level + self.shift, title, **fields)


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    book = open_book(data, options.max_inflated_mb)
    b = _BookBuilder()
    if book.title:
        b.heading(1, book.title, page=None)
        b.shift = 1
    warnings: list[ParseWarning] = []
    if book.repeated:
        warnings.append(
            ParseWarning("repeated_spine_items", f"{book.repeated} spine entries name a file read already: read once")
        )
    furniture_pages: list[int] = []
    chapters = [item.path for item in book.spine]
    for page, item in enumerate(book.spine, 1):
        before = len(b.elements)
        _chapter(b, book, item, options, warnings)
        for el in b.elements[before:]:
            el.page = page
        for _, data_ in b.furniture[len(furniture_pages) :]:
            data_.ref = item.path
        furniture_pages += [page] * (len(b.furniture) - len(furniture_pages))
    text, elements = b.finish()
    furniture = [e for e in elements if e.kind == "furniture"]
    for el, page in zip(furniture, furniture_pages, strict=True):
        el.page = page
    meta: dict[str, Any] = {"chapters": chapters, "package": book.package, **book.metadata}
    if book.toc:
        meta["toc"] = book.toc
    if not book.title:
        meta.pop("title", None)
    warnings = [*b.warnings, *warnings]
    doc = Document(doc_id, content_version(data), NAME, text, elements, metadata=meta, warnings=warnings)
    doc.parser = f"{NAME} {VERSION}"
    if not any(e.kind != "furniture" and e.page is not None for e in elements):
        doc.warnings.append(ParseWarning("empty", "the book's chapters hold no text"))
    return doc


def _chapter(b: _BookBuilder, book: Book, item: Item, options: ParseOptions, warnings: list[ParseWarning]) -> None:
    from parsegate.parsers.web.regions import find_regions
    from parsegate.parsers.web.source import TooDeep, decode, flat_paragraphs, pages, tree
    from parsegate.parsers.web.walk import Walker

    if item.media_type not in CHAPTER_TYPES:
        warnings.append(ParseWarning("skipped", f"spine item of type {item.media_type or '?'} is no XHTML", item.path))
        return
    raw = book.read(item.path)
    if raw is None:
        warnings.append(ParseWarning("missing_chapter", "the spine names a file the archive lacks", item.path))
        return
    check_html(raw, options.max_html_mb)
    source = decode(raw)
    try:
        root = tree(source)
        if item.nav:  # its body's words, not its <title>
            b.add_furniture(" ".join(" ".join(t for body in pages(root) for t in body.itertext()).split()), NAVIGATION)
            return
    except TooDeep:
        for block in flat_paragraphs(source):
            b.emit("paragraph", block)
        warnings.append(ParseWarning("nesting_limit", "nested past 2048 levels: read as plain paragraphs", item.path))
        return
    for body in pages(root):
        walker = Walker(find_regions(body, WHOLE_CHAPTER))
        walker.b = b
        walker.walk(body)
        walker.finish()


__all__ = ["NAME", "SUFFIXES", "VERSION", "ParseError", "parse"]
