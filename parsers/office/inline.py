"""docling's inline groups as one run of text: the pieces of a paragraph that docling splits by
formatting ("Customers may request a", "full refund", "within") joined with the spacing the
source has, and each piece's formatting (bold, italic, code, link target) kept as a span.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from docling_core.types.doc.items.code import CodeItem
from docling_core.types.doc.items.group import GroupItem
from docling_core.types.doc.items.text import TextItem

# Without the source's spacing, no space goes before closing punctuation or after an opening mark.
_NO_SPACE_BEFORE = tuple(".,;:!?)]}%»”’…")
_NO_SPACE_AFTER = tuple("([{«“‘/")


@dataclass(frozen=True)
class Piece:
    text: str
    styles: tuple[str, ...]
    href: str | None


def pieces_of(ddoc: Any, node: Any) -> list[Piece]:
    """The text items under ``node`` in reading order (an explicit stack: no recursion)."""
    out: list[Piece] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, TextItem):
            if item.text.strip():
                out.append(Piece(item.text.strip(), _styles(item), str(item.hyperlink) if item.hyperlink else None))
            continue
        if isinstance(item, GroupItem) or item is node:
            stack.extend(child.resolve(ddoc) for child in reversed(item.children))
    return out


def _styles(item: Any) -> tuple[str, ...]:
    styles: list[str] = []
    fmt = getattr(item, "formatting", None)
    if fmt is not None:
        styles += [name for name in ("bold", "italic", "underline", "strikethrough") if getattr(fmt, name, False)]
        script = str(getattr(fmt, "script", "baseline")).rsplit(".", 1)[-1].lower()
        if script in ("sub", "super"):
            styles.append(script)
    if isinstance(item, CodeItem) or str(getattr(item, "label", "")).endswith("code"):
        styles.append("code")
    return tuple(styles)


def joined(pieces: list[Piece], gaps: list[str] | None) -> tuple[str, list[dict[str, Any]]]:
    """The pieces as one text, with the source's gaps between them where they are known, and
    the styled or linked pieces as spans (offsets into the returned text)."""
    if gaps is None or len(gaps) != len(pieces) - 1:
        gaps = [_gap(a.text, b.text) for a, b in pairwise(pieces)]
    parts: list[str] = []
    spans: list[dict[str, Any]] = []
    size = 0
    for n, piece in enumerate(pieces):
        if n:
            parts.append(gaps[n - 1])
            size += len(gaps[n - 1])
        for style in piece.styles:
            spans.append({"start": size, "end": size + len(piece.text), "style": style})
        if piece.href:
            spans.append({"start": size, "end": size + len(piece.text), "style": "link", "href": piece.href})
        parts.append(piece.text)
        size += len(piece.text)
    return "".join(parts), spans


def _gap(before: str, after: str) -> str:
    if after.startswith(_NO_SPACE_BEFORE) or before.endswith(_NO_SPACE_AFTER):
        return ""
    return " "


def shifted(spans: list[dict[str, Any]], offset: int) -> list[dict[str, Any]]:
    """Spans moved from offsets into an element's text to offsets into ``Document.text``."""
    return [{**span, "start": span["start"] + offset, "end": span["end"] + offset} for span in spans]
