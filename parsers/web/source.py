"""A web page's bytes → text → tree.

The encoding is the byte-order mark's, else UTF-8 when the bytes are valid UTF-8, else the one a
``<meta charset>`` in the first 4 KB names, else UTF-8 with the broken bytes replaced when its
valid multi-byte characters outnumber them, else Windows-1252 (what browsers assume) unless the
bytes are mostly invalid UTF-8 (then they are no page: ``garbage_text``). lxml (libxml2)
builds the tree; what is never rendered (scripts, styles, templates) is dropped with the comments.

libxml2 stops at 2048 levels of nesting; a page nested deeper would lose its text there, so it is
read instead by the standard library's event parser (no tree, no recursion, no depth limit) as
plain paragraphs split at block tags, with a warning.
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser

from lxml import etree

from parsegate.parsers.bytes.decode import mostly_utf8, refuse_garbage

_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]{1,40})""", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]{0,200}\?>")
_NEVER_RENDERED = ("script", "style", "template", "noscript")
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


class TooDeep(Exception):
    """The page nests elements deeper than libxml2 reads."""


def decode(data: bytes) -> str:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    found = _META_CHARSET.search(data[:4096])
    if found:
        try:
            return data.decode(codecs.lookup(found.group(1).decode("ascii")).name, errors="replace")
        except LookupError:
            pass
    # Nothing names the encoding: a page in Windows-1252 has invalid UTF-8 only at its accented
    # letters; bytes that are mostly invalid UTF-8 are not a page in any encoding (random or
    # binary data under an .html name), and Windows-1252 would read every byte as a letter.
    as_utf8 = data.decode("utf-8", errors="replace")
    refuse_garbage(as_utf8)
    if mostly_utf8(as_utf8):
        return as_utf8
    return data.decode("cp1252", errors="replace")


def tree(text: str) -> etree._Element:
    """The page's ``<html>`` element, scripts and styles removed; TooDeep past libxml2's nesting limit."""
    # etree's own HTML parser, not lxml.html's: its element classes cost a lookup per node.
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, no_network=True)
    text = _XML_DECLARATION.sub("", text, count=1)
    root = etree.fromstring(text, parser) if text.strip() else None
    if root is None:  # an empty or whitespace-only document
        root = etree.fromstring("<html><body></body></html>", parser)
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        raise TooDeep
    etree.strip_elements(root, *_NEVER_RENDERED, with_tail=False)
    for sibling in root.itersiblings():  # what follows </html> (see pages)
        if isinstance(sibling.tag, str):
            etree.strip_elements(sibling, *_NEVER_RENDERED, with_tail=False)
    return root


def pages(root: etree._Element) -> list[etree._Element]:
    """The bodies to read, in order: usually the one ``<body>``. Pages saved or scraped into one
    file ("</html><!doctype html><html>…") give libxml2 a second ``<body>`` beside the first, and
    what follows ``</html>`` becomes another root element beside this one: only the first body
    was read, and the rest of the file was lost. Each is a page of its own here (its main content
    found on its own), a later root read whole but for its head (a browser shows nothing of it)."""
    bodies = root.findall("body") or [root]
    for sibling in root.itersiblings():
        if not isinstance(sibling.tag, str):
            continue  # a comment or processing instruction after the page
        for head in sibling.findall("head"):
            sibling.remove(head)
        bodies.append(sibling)
    return bodies


_BLOCK_TAGS = frozenset(
    "address article aside blockquote body br dd details dialog div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table td th tr ul".split()
)


class _Paragraphs(HTMLParser):
    """Text between block tags, whitespace collapsed; scripts and styles skipped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.current: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _NEVER_RENDERED:
            self.skipping += 1
        elif tag in _BLOCK_TAGS:
            self.end_block()

    def handle_endtag(self, tag: str) -> None:
        if tag in _NEVER_RENDERED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCK_TAGS:
            self.end_block()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.current.append(data)

    def end_block(self) -> None:
        text = " ".join(" ".join(self.current).split())
        if text:
            self.blocks.append(text)
        self.current = []


def flat_paragraphs(text: str) -> list[str]:
    reader = _Paragraphs()
    reader.feed(text)
    reader.close()
    reader.end_block()
    return reader.blocks
