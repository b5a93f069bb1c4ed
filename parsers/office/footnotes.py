"""Where a DOCX's footnotes and endnotes are cited, read from the file's own XML.

docling files a DOCX's footnotes with the page headers (its furniture layer) and drops the marks
that cite them, so its document cannot say which paragraph a note belongs to. A note is often
the exception to the claim that cites it ("a refund within thirty days¹ … ¹ except gift cards"):
it belongs beside that paragraph, under its headings, not in a pile after the body. Here each
citing paragraph's text (in a table, its cell's) is paired with the texts of the notes it cites;
mapping.py matches both to docling's items by their letters and digits (docling's spacing and
marks differ from Word's).
"""

from __future__ import annotations

import io
import re
import zipfile

from lxml import etree

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_NOTES = (("word/footnotes.xml", f"{_W}footnote", f"{_W}footnoteReference"),
          ("word/endnotes.xml", f"{_W}endnote", f"{_W}endnoteReference"))  # fmt: skip
_LIMIT = 50_000_000  # bytes of XML read per part: a bigger part is left alone (no anchors)
_NOT_WORDS = re.compile(r"\W+")


def key(text: str) -> str:
    """Letters and digits only, case-folded: how a paragraph is recognised in docling's text."""
    return _NOT_WORDS.sub("", text.casefold()).replace("_", "")


def note_anchors(data: bytes) -> dict[str, list[str]]:
    """For each paragraph of the body that cites notes, its key → the keys of the notes it cites,
    in the order cited; empty when the file cannot be read this way (the notes then follow the
    body)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            body = _part(archive, "word/document.xml")
            if body is None:
                return {}
            anchors: dict[str, list[str]] = {}
            for part, note_tag, reference_tag in _NOTES:
                notes = _notes(archive, part, note_tag)
                if notes:
                    _cite(body, reference_tag, notes, anchors)
            return anchors
    except (zipfile.BadZipFile, etree.XMLSyntaxError, KeyError, OSError, ValueError):
        return {}


def _part(archive: zipfile.ZipFile, name: str) -> etree._Element | None:
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > _LIMIT:
        return None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    return etree.fromstring(archive.read(name), parser)


def _notes(archive: zipfile.ZipFile, part: str, tag: str) -> dict[str, str]:
    """Note id → its text's key (the separator notes Word keeps there have no text)."""
    root = _part(archive, part)
    if root is None:
        return {}
    notes = {}
    for note in root.iter(tag):
        text = key("".join(t.text or "" for t in note.iter(f"{_W}t")))
        if text:
            notes[note.get(f"{_W}id", "")] = text
    return notes


def _cite(body: etree._Element, reference_tag: str, notes: dict[str, str], anchors: dict[str, list[str]]) -> None:
    for paragraph in body.iter(f"{_W}p"):
        cited = [notes[r.get(f"{_W}id", "")] for r in paragraph.iter(reference_tag) if r.get(f"{_W}id", "") in notes]
        if not cited:
            continue
        cell = _ancestor(paragraph, f"{_W}tc")
        if cell is not None:
            # In a table, docling's unit is the cell (its paragraphs joined): the cell's own text.
            own = "".join(t.text or "" for t in cell.iter(f"{_W}t") if _ancestor(t, f"{_W}tc") is cell)
        else:
            # The paragraph's own text: a text box inside it is a paragraph of its own to docling.
            own = "".join(t.text or "" for t in paragraph.iter(f"{_W}t") if _ancestor(t, f"{_W}p") is paragraph)
        if key(own):
            anchors.setdefault(key(own), []).extend(cited)


def _ancestor(element: etree._Element, tag: str) -> etree._Element | None:
    parent = element.getparent()
    while parent is not None and parent.tag != tag:
        parent = parent.getparent()
    return parent
