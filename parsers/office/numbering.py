"""Word's list numbers, written into the text of the paragraphs that show them.

Word draws a numbered paragraph's label ("2.3.8.1.", "b)", "iv.") from ``word/numbering.xml``;
the label is not in the paragraph's text, and docling's Word backend keeps it only as a marker it
counts itself (flat "1.", "2.", whatever the format or level). A step list that says "repeat step
3" then has no step 3, and a contract's "clause 2.3.8.1" no clause (issue 36). So before docling
reads the package, each numbered paragraph gets its label as the first words of its text, counted
as Word counts them (ECMA-376 17.9):

- a paragraph is numbered by its own ``w:numPr`` or its style's (through ``w:basedOn``); ``numId``
  0 means none; bullets (``numFmt`` bullet or none) are left alone;
- a list instance (``w:num``) names an abstract definition; instances of one definition share
  its counters (Word continues them) unless an instance overrides a level's start, which restarts
  that level where the instance is first used;
- a level's counter starts at its ``w:start``; a number at one level restarts every deeper one;
- ``w:lvlText`` ("%1.%2.") takes each level's counter in that level's format (decimal, letters,
  roman; ``w:isLgl`` makes them all decimal).

Headings (a heading style, an outline level) keep their text: their number is not part of the
title a section path names. A package without numbering, or with none used, is returned as it is.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field

from lxml import etree

from parsegate.parsers.office.unwrap import rewritten

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_NS = {"w": W}
_VAL = f"{{{W}}}val"
_NUMBERING = "word/numbering.xml"
_STYLES = "word/styles.xml"
_DOCUMENT = "word/document.xml"
_UNNUMBERED = frozenset({"bullet", "none"})
_MAX_LEVELS = 9


@dataclass
class _Level:
    fmt: str = "decimal"
    text: str = ""
    start: int = 1
    legal: bool = False


@dataclass
class _Definition:
    levels: dict[int, _Level] = field(default_factory=dict)
    counters: list[int | None] = field(default_factory=lambda: [None] * _MAX_LEVELS)


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _val(el: etree._Element | None, path: str) -> str | None:
    found = el.find(path, _NS) if el is not None else None
    return found.get(_VAL) if found is not None else None


def _roman(n: int) -> str:
    out = []
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                           (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):  # fmt: skip
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def formatted(n: int, fmt: str) -> str:
    """A counter in a level's number format ("lowerLetter" 28 is "bb", as Word writes it)."""
    if fmt in ("lowerLetter", "upperLetter") and n > 0:
        letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter if fmt == "lowerLetter" else letter.upper()
    if fmt in ("lowerRoman", "upperRoman") and 0 < n < 4000:
        return _roman(n) if fmt == "lowerRoman" else _roman(n).upper()
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


class Numbering:
    """Word's counters over one document, paragraph by paragraph."""

    def __init__(self, numbering: etree._Element, styles: etree._Element | None) -> None:
        self.definitions: dict[str, _Definition] = {}
        for abstract in numbering.iterfind("w:abstractNum", _NS):
            definition = _Definition()
            for lvl in abstract.iterfind("w:lvl", _NS):
                definition.levels[_int(lvl.get(f"{{{W}}}ilvl"), 0)] = _level(lvl)
            self.definitions[abstract.get(f"{{{W}}}abstractNumId") or ""] = definition
        self.instances: dict[str, tuple[str, dict[int, int]]] = {}
        for num in numbering.iterfind("w:num", _NS):
            overrides = {
                _int(o.get(f"{{{W}}}ilvl"), 0): _int(_val(o, "w:startOverride"), 1)
                for o in num.iterfind("w:lvlOverride", _NS)
                if o.find("w:startOverride", _NS) is not None
            }
            self.instances[num.get(f"{{{W}}}numId") or ""] = (_val(num, "w:abstractNumId") or "", overrides)
        self.started: set[str] = set()
        self.styles = _style_numbering(styles)

    def label(self, p: etree._Element) -> str | None:
        """The label Word shows before the paragraph (and counts it), or None."""
        ppr = p.find("w:pPr", _NS)
        style = _val(ppr, "w:pStyle")
        num_id, ilvl = _val(ppr, "w:numPr/w:numId"), _val(ppr, "w:numPr/w:ilvl")
        if num_id is None and style is not None:
            num_id, style_level = self.styles.get(style, (None, None))
            ilvl = ilvl if ilvl is not None else style_level
        if num_id is None or num_id == "0" or num_id not in self.instances:
            return None
        level = min(max(_int(ilvl, 0), 0), _MAX_LEVELS - 1)
        abstract, overrides = self.instances[num_id]
        definition = self.definitions.get(abstract)
        if definition is None or level not in definition.levels:
            return None
        if num_id not in self.started:
            self.started.add(num_id)
            for at, start in overrides.items():
                if 0 <= at < _MAX_LEVELS:
                    definition.counters[at] = start - 1
        counters = definition.counters
        lvl = definition.levels[level]
        counters[level] = lvl.start if counters[level] is None else counters[level] + 1  # type: ignore[operator]
        for deeper in range(level + 1, _MAX_LEVELS):
            counters[deeper] = None
        if lvl.fmt in _UNNUMBERED or _heading(ppr, style):
            return None
        return _lvl_text(lvl, definition, level)


def _level(lvl: etree._Element) -> _Level:
    return _Level(
        fmt=_val(lvl, "w:numFmt") or "decimal",
        text=_val(lvl, "w:lvlText") or "",
        start=_int(_val(lvl, "w:start"), 1),
        legal=lvl.find("w:isLgl", _NS) is not None,
    )


def _lvl_text(lvl: _Level, definition: _Definition, level: int) -> str | None:
    text = lvl.text
    for n in range(level + 1):
        other = definition.levels.get(n, _Level())
        count = definition.counters[n]
        value = formatted(count if count is not None else other.start, "decimal" if lvl.legal else other.fmt)
        text = text.replace(f"%{n + 1}", value)
    text = text.strip()
    return text or None


def _heading(ppr: etree._Element | None, style: str | None) -> bool:
    return (style or "").lower().startswith(("heading", "title")) or _val(ppr, "w:outlineLvl") is not None


def _style_numbering(styles: etree._Element | None) -> dict[str, tuple[str | None, str | None]]:
    """Each paragraph style's numbering (numId, ilvl), its own or its base style's."""
    if styles is None:
        return {}
    own: dict[str, tuple[str | None, str | None, str | None]] = {}
    for style in styles.iterfind("w:style", _NS):
        ppr = style.find("w:pPr", _NS)
        own[style.get(f"{{{W}}}styleId") or ""] = (
            _val(ppr, "w:numPr/w:numId"),
            _val(ppr, "w:numPr/w:ilvl"),
            _val(style, "w:basedOn"),
        )
    out: dict[str, tuple[str | None, str | None]] = {}
    for name in own:
        seen, at = set(), name
        while at in own and at not in seen:
            seen.add(at)
            num_id, ilvl, base = own[at]
            if num_id is not None:
                out[name] = (num_id, ilvl)
                break
            at = base or ""
    return out


def numbers_written_in(data: bytes) -> bytes:
    """The package with each numbered paragraph's label as its first words, or ``data`` itself
    when it numbers nothing (or cannot be read: the parser says why in its own words)."""
    read = _numbered(data)
    if read is None:
        return data
    root, found = read
    for p, label in found:
        _prepend(p, f"{label} ")
    return rewritten(
        zipfile.ZipFile(io.BytesIO(data)), etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    )


def labels(data: bytes) -> list[str]:
    """The list labels Word shows in the package, in order (the gate's Office reference: docling's
    export leaves Word's numbers out)."""
    read = _numbered(data)
    return [] if read is None else [label for _, label in read[1]]


def _numbered(data: bytes) -> tuple[etree._Element, list[tuple[etree._Element, str]]] | None:
    """The document's body and its numbered paragraphs with their labels; None when none is."""
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        numbering_xml = package.read(_NUMBERING)
        document = package.read(_DOCUMENT)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError):
        return None
    if b"numPr" not in document and b"numPr" not in _read(package, _STYLES):
        return None
    try:
        root = etree.fromstring(document, _parser())
        numbering = Numbering(etree.fromstring(numbering_xml, _parser()), _styles(package))
    except etree.XMLSyntaxError:
        return None
    found = [(p, label) for p in root.iter(f"{{{W}}}p") if (label := numbering.label(p)) is not None]
    return (root, found) if found else None


def _read(package: zipfile.ZipFile, name: str) -> bytes:
    try:
        return package.read(name)
    except KeyError:
        return b""


def _styles(package: zipfile.ZipFile) -> etree._Element | None:
    data = _read(package, _STYLES)
    return etree.fromstring(data, _parser()) if data else None


def _prepend(p: etree._Element, text: str) -> None:
    run = etree.Element(f"{{{W}}}r")
    t = etree.SubElement(run, f"{{{W}}}t")
    t.text = text
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    ppr = p.find("w:pPr", _NS)
    p.insert(0 if ppr is None else p.index(ppr) + 1, run)
