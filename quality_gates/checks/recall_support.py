"""Independent support for what a parser declared furniture or front matter (issue 39: "what the
parser declares furniture must itself be checked"). Extraction recall takes declared text out of
its reference only where the gate finds, on its own, a reason to: otherwise a parser could drop
any text by calling it furniture, and the gate would pass it.

- **PDF**, from PDFium's raw text layer (quality_gates/references/pdf.py), line by line: a
  running head, foot or repeated table header is supported where the line (digits masked) is on
  another page too, or is a page number ("12", "iv", "Page 3 of 9"); contents and index entries
  (``reason: "navigation"``) where the page's raw text has at least three lines ending in a page
  number; text declared hidden where PDFium's own characters may be hidden (``hidden_words``).
- **Front matter** of a text format: where its content, between the fences, is a YAML mapping
  (PyYAML's ``safe_load``, run here); of reStructuredText, where it is a field list; of AsciiDoc,
  where it is a document header (a title, an author and a revision line, attribute entries).
- Other formats' furniture (HTML chrome, Office headers, EPUB navigation, notebook outputs) is
  not checked here: ``support`` says so, and the reference is docling's or lxml's own reading.

Each declared piece is listed in the facts with its ``support`` (None: none found, its words
stay in the reference and count as lost when no chunk holds them).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from parsegate.parsers.model import Document, Element, FurnitureData
from parsegate.quality_gates.words import bag

if TYPE_CHECKING:
    from parsegate.quality_gates.references.pdf import PdfPage, PdfSource

NOT_CHECKED = "not checked (the reference is an independent reading)"
_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")
_FOLIO = re.compile(r"^\W*(?:page\s*)?(?:#|[ivxlcdm]+)(?:\s*(?:of|/)\s*#)?\W*$", re.IGNORECASE)
_ENTRY_END = re.compile(r"(?:\.\s*){2,}\s*\S+\s*$|\s(?:\d+|[ivxlcdm]+)\s*$", re.IGNORECASE | re.MULTILINE)
_MIN_ENTRIES = 3


def _masked(text: str) -> str:
    return _SPACE.sub(" ", _DIGITS.sub("#", text)).strip().lower()


class PdfSupport:
    """Which declared PDF furniture the raw text layer supports (computed per page, once)."""

    def __init__(self, source: PdfSource) -> None:
        self.source = source
        self.masked = {n: _masked(p.text) for n, p in source.pages.items()}

    def words(self, doc: Document, element: Element) -> tuple[Counter[str], str | None]:
        """The words of ``element`` (declared furniture on a page) the reference supports, and why."""
        page = self.source.pages.get(element.page or 0)
        text = doc.text[element.start : element.end]
        if page is None:
            return Counter(), None
        reason = element.data.reason if isinstance(element.data, FurnitureData) else None
        if reason == "hidden":
            found = bag(text) & _hidden(page)
            return found, "PDFium: ink no reader sees" if found else None
        if reason == "navigation":
            entries = len(_ENTRY_END.findall(page.text))
            if entries >= _MIN_ENTRIES:
                return bag(text), f"PDFium: {entries} lines of the page end in a page number"
            return Counter(), None
        supported: Counter[str] = Counter()
        why: set[str] = set()
        for line in text.split("\n"):
            masked = _masked(line)
            if not masked:
                continue
            if _FOLIO.match(masked):
                why.add("a page number")
            elif any(masked in other for n, other in self.masked.items() if n != element.page):
                why.add("on another page too")
            else:
                continue
            supported.update(bag(line))
        return supported, ("PDFium: " + ", ".join(sorted(why))) if why else None


def _hidden(page: PdfPage) -> Counter[str]:
    return page.hidden_words()


_FIELD = re.compile(r":[^:\s][^:]*:(?:\s.*)?")
_ATTRIBUTE = re.compile(r":!?[\w][\w-]*!?:(?:\s.*)?")  # AsciiDoc's attribute entry (":toc: left", ":sectnums!:")


def _asciidoc_header(lines: list[str]) -> bool:
    """A document title (``= Title``), at most an author and a revision line right under it, then
    attribute entries and comments; or attribute entries alone."""
    rest = [line for line in lines if line.strip()]
    if rest and rest[0].startswith("= ") and rest[0][2:].strip():
        body = rest[1:]
        free = 0
        while free < min(2, len(body)) and not _ATTRIBUTE.fullmatch(body[free]) and not body[free].startswith("//"):
            free += 1
        rest = body[free:]
    return all(_ATTRIBUTE.fullmatch(line) or line.startswith("//") for line in rest)


def front_matter(doc: Document, element: Element) -> str | None:
    """Why a declared front matter block is one: its content between the fences is a YAML mapping,
    or (reStructuredText) it is a field list, every line a ``:field: value`` or indented under one."""
    import yaml

    lines = doc.text[element.start : element.end].split("\n")
    if doc.format == "asciidoc":
        return "an AsciiDoc header" if _asciidoc_header(lines) else None
    if doc.format == "rst":
        fields = [line for line in lines if line.strip()]
        if fields and all(_FIELD.fullmatch(line) or (line[:1].isspace() and n) for n, line in enumerate(fields)):
            return "a field list"
        return None
    if len(lines) < 2 or lines[0].strip() not in ("---", "+++"):
        return None
    body = "\n".join(lines[1:-1] if lines[-1].strip() in ("---", "...", "+++") else lines[1:])
    try:
        loaded = yaml.safe_load(body)
    except yaml.YAMLError:
        return None
    return "a YAML mapping" if isinstance(loaded, dict) else None
