"""The pictures of a DOCX or PPTX as their source describes them: the alt text a writer gave each
(Word's and PowerPoint's "Alt Text": ``descr`` and ``title`` on the picture's non-visual
properties; a legacy VML picture's ``alt`` or its image's ``o:title``), whether it is marked
decorative (Office's ``adec:decorative``), and the image's own format, read from its bytes.

docling's backends keep a picture's place in reading order (a ``PictureItem``) but not its alt
text. The backends are subclassed (backends.py) to note, for each picture docling adds, what its
source says, keyed by the picture's ``self_ref``; mapping.py reads the note at the picture's place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
_O = "urn:schemas-microsoft-com:office:office"
_DECORATIVE = "{http://schemas.microsoft.com/office/drawing/2017/decorative}decorative"
_RASTERS = {"PNG", "JPEG", "TIFF", "BMP", "GIF"}  # the image formats OCR reads (others are counted, not read)


@dataclass(frozen=True, slots=True)
class Picture:
    """What the source says of one picture docling placed."""

    alt: str  # its alt text (title and description, each on its line), "" when none or decorative
    decorative: bool  # marked decorative in Word or PowerPoint: it says nothing
    kind: str  # its image format as its bytes say ("PNG", "JPEG", "EMF", "WMF", "SVG"…; "" unknown)

    @property
    def raster(self) -> bool:
        return self.kind in _RASTERS


# The line Word adds under the alt text it generates itself ("A picture containing text\n\n
# Description automatically generated"): Word's note on the text, not the picture's words.
_GENERATED = re.compile(
    r"^\s*(description automatically generated( with (low|medium|high) confidence)?|ai-generated content may be"
    r" incorrect\.?)\s*$",
    re.IGNORECASE,
)


def alt_text(title: str | None, descr: str | None) -> str:
    """A picture's alt text: its title and its description, each with its whitespace collapsed
    (Word's note that it generated the description left out), the title left out when the
    description holds it."""
    parts = [
        " ".join(line for line in (part or "").splitlines() if not _GENERATED.match(line)) for part in (title, descr)
    ]
    parts = [" ".join(part.split()) for part in parts]
    parts = [p for p in parts if p]
    if len(parts) == 2 and parts[0] in parts[1]:
        parts = parts[1:]
    return "\n".join(dict.fromkeys(parts))


def image_kind(data: bytes | None) -> str:
    """The image format of ``data`` by its first bytes."""
    if not data:
        return ""
    head = data[:64]
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    if head[40:44] == b" EMF":
        return "EMF"
    if b"<svg" in data[:1024] or head.lstrip().startswith(b"<?xml"):
        return "SVG"
    return ""


_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"BM", "BMP"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"\xd7\xcd\xc6\x9a", "WMF"),  # a placeable metafile
    (b"\x01\x00\x09\x00", "WMF"),
    (b"\x01\x00\x00\x00", "EMF"),  # its header record (" EMF" at byte 40)
)


def _decorative(props: Any) -> bool:
    return any(el.get("val") in ("1", "true") for el in props.iter(_DECORATIVE))


def docx_picture(blip: Any, data: bytes | None) -> Picture:
    """A DrawingML picture (``a:blip``): its ``wp:docPr``, found on its ``wp:inline`` or
    ``wp:anchor``."""
    for ancestor in blip.iterancestors(f"{{{_WP}}}inline", f"{{{_WP}}}anchor"):
        props = ancestor.find(f"{{{_WP}}}docPr")
        if props is None:
            break
        if _decorative(props):
            return Picture("", True, image_kind(data))
        return Picture(alt_text(props.get("title"), props.get("descr")), False, image_kind(data))
    return Picture("", False, image_kind(data))


def vml_picture(imagedata: Any, data: bytes | None) -> Picture:
    """A legacy VML picture (``v:imagedata``): its shape's ``alt``, else the image's ``o:title``."""
    shape = imagedata.getparent()
    alt = shape.get("alt") if shape is not None else None
    return Picture(alt_text(imagedata.get(f"{{{_O}}}title"), alt), False, image_kind(data))


def pptx_picture(element: Any, data: bytes | None) -> Picture:
    """A slide's picture (``p:pic``, or a shape filled with a picture): its ``p:cNvPr``."""
    props = next(iter(element.iter("{http://schemas.openxmlformats.org/presentationml/2006/main}cNvPr")), None)
    if props is None:
        return Picture("", False, image_kind(data))
    if _decorative(props):
        return Picture("", True, image_kind(data))
    return Picture(alt_text(props.get("title"), props.get("descr")), False, image_kind(data))
