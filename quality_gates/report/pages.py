"""PDF pages and image files' frames as small images for report.html, with every chunk's boxes,
the furniture the parser declared, the text-layer words that reached no chunk, and on a page read
by OCR the chunks the gate quarantined for their low OCR confidence (``low``) and the lines of the
second reading that reached no chunk (``ocr_lost``), in image pixels: a person reads there what
the engine could not.

PDFium renders each page (the gate's own view, not the parser's), Pillow each frame of an image
file; JPEG at a modest width keeps a report of many pages a few megabytes and self-contained.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsegate.quality_gates.references.pdf import Box, PdfPage, open_pdf

if TYPE_CHECKING:
    from PIL.Image import Image

PAGE_WIDTH = 560  # pixels of a rendered page
MAX_HEIGHT = 1600  # pixels: a page's image is at most this tall
JPEG_QUALITY = 60


def page_images(
    data: bytes,
    chunks: list[dict[str, Any]],
    furniture: list[dict[str, Any]],
    lost: list[dict[str, Any]],
    max_pages: int,
    password: str | None = None,
    marks: Marks | None = None,
) -> list[dict[str, Any]]:
    """Up to ``max_pages`` pages of the PDF (opened with ``password``), each as a data URI with the
    boxes to draw: the pages ``marks`` names first (a low chunk's, a second reading's lost lines'),
    then the first pages."""
    marks = marks or Marks()
    wanted = marks.pages(chunks)
    source = open_pdf(data, password=password) if wanted else open_pdf(data, max_pages, password)
    if source is None:
        return []
    try:
        numbers = _chosen(list(source.pages), wanted, max_pages)
        return [_page(source.pages[n], chunks, furniture, lost, marks) for n in numbers]
    finally:
        source.close()


@dataclass(frozen=True)
class Marks:
    """What the gate quarantined on OCR pages: the chunks under ``min_ocr_confidence`` (index →
    why) and the second reading's lines in no chunk (the ``ocr_recall`` faults: page, text, and
    boxes in points of the drawn page, y down)."""

    low: dict[int, str] = field(default_factory=dict)
    ocr_lost: list[dict[str, Any]] = field(default_factory=list)

    def pages(self, chunks: list[dict[str, Any]]) -> set[int]:
        """The pages these marks are on."""
        named = {f["page"] for f in self.ocr_lost if isinstance(f.get("page"), int)}
        for n in self.low:
            if 0 <= n < len(chunks):
                named.update(p for p in chunks[n].get("pages") or [] if isinstance(p, int))
        return named

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Marks:
        data = data or {}
        return cls({int(k): str(v) for k, v in (data.get("low") or {}).items()}, list(data.get("ocr_lost") or []))


def _chosen(numbers: list[int], wanted: set[int], count: int) -> list[int]:
    """The pages to draw: those ``wanted`` first, then the first ones, ``count`` in all, in order."""
    first = [n for n in numbers if n in wanted] + [n for n in numbers if n not in wanted]
    return sorted(first[:count])


def _page(
    page: PdfPage,
    chunks: list[dict[str, Any]],
    furniture: list[dict[str, Any]],
    lost: list[dict[str, Any]],
    marks: Marks,
) -> dict[str, Any]:
    width, height = page.page.get_size()
    # PAGE_WIDTH wide, unless that would draw a page taller than MAX_HEIGHT (a 1 x 2000 pt page
    # at 560 pixels wide is a million pixels tall): whatever the page's shape, the image is bounded.
    scale = min(PAGE_WIDTH / max(width, 1.0), MAX_HEIGHT / max(height, 1.0))
    image = page.page.render(scale=scale).to_pil().convert("RGB")

    def pixels(box: Box) -> list[float]:
        return [round(v, 1) for v in page.to_image(box, scale)]

    def reading(box: Box) -> list[float]:  # a box in the page's reading space (the chunks')
        return pixels(page.to_page_space(box))

    drawn = _drawn(page.number, image, chunks, marks, reading)
    drawn["furniture"] = [
        {"reason": f.get("reason"), "text": f.get("text"), "box": reading(tuple(f["bbox"]))}  # type: ignore[arg-type]
        for f in furniture
        if f.get("page") == page.number and f.get("bbox")
    ]
    drawn["lost"] = [pixels(tuple(b)) for f in lost if f.get("page") == page.number for b in f.get("boxes", [])]  # type: ignore[arg-type]
    return drawn


def _drawn(
    number: int, image: Image, chunks: list[dict[str, Any]], marks: Marks, to_pixels: Callable[[Box], list[float]]
) -> dict[str, Any]:
    """A drawn page: its image as a data URI, every chunk's boxes, the low chunks' and the second
    reading's lost lines (furniture and text-layer losses: a PDF page's own)."""
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    uri = "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    boxes, low = [], []
    for n, chunk in enumerate(chunks):
        for b in chunk.get("boxes") or []:
            if b.get("page") == number and len(b.get("bbox") or ()) == 4:
                box = to_pixels(tuple(b["bbox"]))  # type: ignore[arg-type]
                boxes.append({"chunk": n, "box": box})
                if n in marks.low:
                    low.append({"chunk": n, "box": box, "why": marks.low[n]})
    ocr_lost = [
        {"text": text, "box": to_pixels(tuple(b))}  # type: ignore[arg-type]
        for f in marks.ocr_lost
        if f.get("page") == number
        for b, text in zip(f.get("boxes") or [], f.get("lines") or [], strict=False)
        if len(b) == 4
    ]
    return {
        "page": number,
        "image": uri,
        "width": image.width,
        "height": image.height,
        "boxes": boxes,
        "furniture": [],
        "lost": [],
        "low": low,
        "ocr_lost": ocr_lost,
    }


def image_pages(
    data: bytes, chunks: list[dict[str, Any]], max_pages: int, marks: Marks | None = None
) -> list[dict[str, Any]]:
    """An image file's frames, as ``page_images`` draws a PDF's pages (boxes in points at the
    image's resolution, as the image parser gives them)."""
    from parsegate.quality_gates.references.ocr import image_frames

    marks = marks or Marks()
    frames = image_frames(data)
    out = []
    for n in _chosen(list(range(1, len(frames) + 1)), marks.pages(chunks), max_pages):
        frame, dpi = frames[n - 1]
        scale = min(PAGE_WIDTH / max(frame.width, 1), MAX_HEIGHT / max(frame.height, 1))
        image = frame.resize((max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))).convert("RGB")
        factor = dpi / 72 * scale  # points → pixels of the drawn frame

        def to_pixels(box: Box, factor: float = factor) -> list[float]:
            return [round(v * factor, 1) for v in box]

        out.append(_drawn(n, image, chunks, marks, to_pixels))
    return out
