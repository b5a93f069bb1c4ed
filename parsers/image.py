"""Image files (PNG, JPEG, TIFF, each frame of a multi-page TIFF a page) → Document, by OCR.

Each frame is read by the OCR engine (parsers/ocr/) into the PDF parser's raw pages
(parsers/pdf/ocr.py), so lines, tables, reading order and headings come from the PDF steps;
boxes are in points at the image's own resolution (its dpi tag; 300 where it has none). Without
the OCR engine the file cannot be read at all: ``ParseError("needs_ocr")`` naming the install.
"""

from __future__ import annotations

import io
import warnings as python_warnings
from importlib.metadata import version
from typing import TYPE_CHECKING

from parsegate.parsers.formats import spec
from parsegate.parsers.model import Document, ParseError, ParseWarning, content_version
from parsegate.parsers.ocr import OcrUnavailable, parser_name
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.pdf import VERSION as PDF_VERSION
from parsegate.parsers.pdf import build_pages
from parsegate.parsers.pdf.ocr import OcrPages, attach_confidence, ocr_raw_page
from parsegate.parsers.pdf.read import RawPage

if TYPE_CHECKING:
    from PIL.Image import Image

NAME = "image"
SPEC = spec(NAME)
OUTPUT_VERSION = SPEC.output_version
VERSION = f"{OUTPUT_VERSION}+pdf/{PDF_VERSION}+pillow/{version('pillow')}"  # it builds with the PDF steps
SUFFIXES = SPEC.suffixes
DEFAULT_DPI = 300  # an image that names no resolution (a screenshot names 72 or 96, a scan its own)
_MIN_DPI = 50  # below this a dpi tag is taken as unset (some writers put 1)


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``suffix`` changes nothing: Pillow reads the image by its content."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise ParseError("empty", "zero bytes: not an image")
    try:
        with python_warnings.catch_warnings():
            python_warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            frames = [frame.convert("L") for frame in _frames(image, options)]
    except UnidentifiedImageError:
        raise ParseError("malformed", "Pillow cannot identify it as an image (damaged or cut short?)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ParseError("malformed", f"Pillow cannot read it as an image: {exc}") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ParseError("too_large", f"{exc} (PARSEGATE_MAX_IMAGE_PIXELS)") from None
    dpi = _dpi(image.info.get("dpi"))
    ocr = OcrPages()
    raw_pages: list[RawPage] = []
    try:
        for number, frame in enumerate(frames, start=1):
            raw_pages.append(ocr_raw_page(frame, number, dpi, options, ocr))
    except OcrUnavailable as exc:
        raise ParseError("needs_ocr", f"an image is read by OCR: {exc}") from None
    warnings: list[ParseWarning] = []
    builder = build_pages(raw_pages, len(raw_pages), warnings, [])
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format=NAME,
        text=builder.text(),
        elements=builder.elements,
        metadata={"pages": len(frames), "image": {"format": image.format, "size": list(image.size), "dpi": dpi}},
        parser=parser_name(NAME, VERSION, options),
        warnings=warnings,
    )
    attach_confidence(doc, ocr)
    for raw in raw_pages:
        if not raw.runs:
            where = f"page {raw.number}"
            warnings.append(ParseWarning("ocr_empty", f"{where}: OCR found no word in the image", where))
    return doc


def _frames(image: Image, options: ParseOptions) -> list[Image]:
    """Every frame (a TIFF's pages), each within the pixel limit."""
    from PIL import ImageSequence

    out = []
    for frame in ImageSequence.Iterator(image):
        width, height = frame.size
        if width * height > options.max_image_pixels:
            raise ParseError("too_large", f"a {width}x{height} image is over {options.max_image_pixels} pixels")
        out.append(frame.copy())
    return out


def _dpi(tag: object) -> int:
    if isinstance(tag, tuple) and tag and isinstance(tag[0], int | float) and tag[0] >= _MIN_DPI:
        return round(float(tag[0]))
    return DEFAULT_DPI
