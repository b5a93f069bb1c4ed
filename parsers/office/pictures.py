"""The words of a DOCX's or PPTX's pictures, at each picture's place in reading order: the alt text
its writer gave it (always; a decorative picture says nothing), and, when the caller asks for it
(``ParseOptions.ocr_office_images``), the text the OCR engine (parsers/ocr/) reads in its pixels,
with the engine's confidence.

OCR reads raster images only (PNG, JPEG, TIFF, BMP, GIF); a metafile or an SVG (a diagram, a
logo) is counted, not read, as is an image too small to hold a line of text, one over the pixel
limit, and one in which OCR found no word: ``Document.metadata["ocr"]["skipped"]``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsegate.parsers.ocr import OcrUnavailable, read_image

if TYPE_CHECKING:
    from PIL.Image import Image

    from parsegate.parsers.office.images import Picture
    from parsegate.parsers.options import ParseOptions

MIN_HEIGHT = 32  # pixels: a smaller image holds no line of text OCR can read (an icon, a bullet, a rule)


@dataclass(frozen=True, slots=True)
class ImageText:
    """Words of one picture: ``source`` "alt" (its alt text) or "ocr" (read in its pixels)."""

    text: str
    source: str
    image: str  # the image's format ("PNG"; "" unknown)
    confidence: float | None = None  # OCR's: the mean confidence of the words, weighted by their length


@dataclass
class PictureWords:
    texts: dict[str, list[ImageText]]  # by the picture's docling reference
    ocr: dict[str, Any] | None  # metadata["ocr"] when OCR was asked for: the engine, images read, skipped
    unavailable: str | None = None  # OCR was asked for and cannot run: why (the install to make)


def picture_words(ddoc: Any, pictures: dict[str, Picture], options: ParseOptions) -> PictureWords:
    texts: dict[str, list[ImageText]] = {}
    for ref, picture in pictures.items():
        if picture.alt and not picture.decorative:
            texts.setdefault(ref, []).append(ImageText(picture.alt, "alt", picture.kind))
    if not options.ocr_office_images or not pictures:
        return PictureWords(texts, None)
    skipped: Counter[str] = Counter()
    read, engine = 0, ""
    items = {item.self_ref: item for item in ddoc.pictures}
    for ref, picture in pictures.items():
        if picture.decorative:
            skipped["decorative"] += 1
            continue
        if not picture.raster:
            skipped[picture.kind or "unknown format"] += 1
            continue
        image = _image(ddoc, items.get(ref))
        why = _unreadable(image, options)
        if why is not None:
            skipped[why] += 1
            continue
        assert image is not None
        try:
            reading = read_image(image.convert("L"), options)
        except OcrUnavailable as exc:
            return PictureWords(texts, None, str(exc))
        engine = reading.engine
        read += 1
        words = [word for line in reading.lines for word in line.words if word.text.strip()]
        if not words:
            skipped["no words found"] += 1
            continue
        text = "\n".join(" ".join(w.text for w in line.words if w.text.strip()) for line in reading.lines)
        text = "\n".join(line for line in text.split("\n") if line)
        chars = sum(len(w.text) for w in words)
        confidence = round(sum(w.confidence * len(w.text) for w in words) / chars, 3)
        texts.setdefault(ref, []).append(ImageText(text, "ocr", picture.kind, confidence))
    meta: dict[str, Any] = {"engine": engine or options.ocr_engine, "images": read}
    if skipped:
        meta["skipped"] = dict(sorted(skipped.items()))
    return PictureWords(texts, meta)


def _image(ddoc: Any, item: Any) -> Image | None:
    """The picture's pixels as docling decoded them."""
    try:
        image: Image | None = item.get_image(ddoc) if item is not None else None
    except Exception:  # docling kept no image for it (it could not decode it)
        return None
    return image


def _unreadable(image: Image | None, options: ParseOptions) -> str | None:
    if image is None:
        return "not decoded"
    width, height = image.size
    if width * height > options.max_image_pixels:
        return "over max_image_pixels"
    if height < MIN_HEIGHT:
        return f"under {MIN_HEIGHT} px high"
    return None
