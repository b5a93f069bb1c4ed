"""OCR confidence in chunk metadata: a document read by OCR (``Document.metadata["ocr"]``: the
engine, the dpi, each OCR page's confidence) gives each chunk on its OCR pages
``metadata["ocr"]`` with the engine, the confidences of the chunk's own pages, and the chunk's
confidence: the mean of its elements' ``ocr_confidence``, weighted by the characters of each the
chunk holds. A chunk on no OCR page carries no ``ocr`` entry; other documents are untouched.

A DOCX or PPTX whose images were read by OCR has no OCR pages (its ``metadata["ocr"]`` names the
engine and the images read): a chunk holding text OCR read in an image gets ``metadata["ocr"]``
with the engine and its confidence, the others none (``paged`` False).
"""

from __future__ import annotations

from typing import Any

from parsegate.parsers.model import Element


def ocr_metadata(
    base: dict[str, Any], located: list[Element], pages: list[int] | None, start: int, end: int, overlapping: list[int]
) -> dict[str, Any]:
    """The chunk's metadata: ``base`` itself when the document was not read by OCR."""
    ocr = base.get("ocr")
    if not isinstance(ocr, dict):
        return base
    meta = {k: v for k, v in base.items() if k != "ocr"}
    paged = "pages" in ocr
    own = {p: c for p, c in ocr.get("pages", {}).items() if pages and int(p) in pages}
    if paged and not own:
        return meta
    weight = total = 0.0
    for i in overlapping:
        element = located[i]
        confidence = element.data.ocr_confidence
        if confidence is not None:
            chars = min(end, element.end) - max(start, element.start)
            weight, total = weight + chars, total + confidence * chars
    if not paged and not weight:
        return meta
    entry: dict[str, Any] = {"engine": ocr.get("engine"), "pages": own} if paged else {"engine": ocr.get("engine")}
    if weight:
        entry["confidence"] = round(total / weight, 3)
    meta["ocr"] = entry
    return meta
