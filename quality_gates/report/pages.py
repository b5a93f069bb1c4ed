"""PDF pages as small images for report.html, with every chunk's boxes, the furniture the
parser declared and the text-layer words that reached no chunk, in image pixels.

PDFium renders each page (the gate's own view, not the parser's); JPEG at a modest width keeps
a report of many pages a few megabytes and self-contained.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from parsegate.quality_gates.references.pdf import Box, PdfPage, open_pdf

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
) -> list[dict[str, Any]]:
    """The first ``max_pages`` pages of the PDF (opened with ``password``), each as a data URI
    with the boxes to draw."""
    source = open_pdf(data, max_pages, password)
    if source is None:
        return []
    try:
        return [_page(page, chunks, furniture, lost) for page in source.pages.values()]
    finally:
        source.close()


def _page(
    page: PdfPage, chunks: list[dict[str, Any]], furniture: list[dict[str, Any]], lost: list[dict[str, Any]]
) -> dict[str, Any]:
    width, height = page.page.get_size()
    # PAGE_WIDTH wide, unless that would draw a page taller than MAX_HEIGHT (a 1 x 2000 pt page
    # at 560 pixels wide is a million pixels tall): whatever the page's shape, the image is bounded.
    scale = min(PAGE_WIDTH / max(width, 1.0), MAX_HEIGHT / max(height, 1.0))
    image = page.page.render(scale=scale).to_pil().convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    uri = "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")

    def pixels(box: Box) -> list[float]:
        return [round(v, 1) for v in page.to_image(box, scale)]

    boxes = []
    for n, chunk in enumerate(chunks):
        for b in chunk.get("boxes") or []:
            if b.get("page") == page.number and len(b.get("bbox") or ()) == 4:
                boxes.append({"chunk": n, "box": pixels(page.to_page_space(tuple(b["bbox"])))})  # type: ignore[arg-type]
    marked = [
        {"reason": f.get("reason"), "text": f.get("text"), "box": pixels(page.to_page_space(tuple(f["bbox"])))}
        for f in furniture
        if f.get("page") == page.number and f.get("bbox")
    ]
    missing = [pixels(tuple(b)) for f in lost if f.get("page") == page.number for b in f.get("boxes", [])]  # type: ignore[arg-type]
    return {
        "page": page.number,
        "image": uri,
        "width": image.width,
        "height": image.height,
        "boxes": boxes,
        "furniture": marked,
        "lost": missing,
    }
