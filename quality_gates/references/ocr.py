"""A second, independent reading of the pages a document was read by OCR: the other engine's.

The parser read a scanned page with one engine (``Document.metadata["ocr"]["engine"]``); the gate
reads the same page again with the other (Tesseract ↔ RapidOCR), from the source bytes: PDFium
renders a PDF's pages that have no text layer and an image (the parser's own rule for a scan), and
Pillow opens an image file's frames. Neither the parser nor its OCR glue (parsers/ocr/) is called:
the engines are driven here, each loaded once per process. A page never has both a text layer and
an OCR reading (the parser reads a page by OCR only when it has no text layer), so the other
engine is the only second reading there is.

The second reading is expensive (RapidOCR: 2-4 CPU-seconds a page at ``DPI``): a run with a gate
sample (quality_gates/sample.py) takes it only on the documents in the sample. Where the other
engine is not installed there is no second reading, and the facts say so and what to install.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from PIL.Image import Image

    from parsegate.quality_gates.references.pdf import PdfSource

# A page drawn at 200 dpi: RapidOCR at 300 dpi left a whole line of the golden footnote page
# unread, and at 150 ran more words together; Tesseract reads 200 dpi as well as 300.
DPI = 200
_POINTS = 72.0
Box = tuple[float, float, float, float]  # points of the drawn page, (x0, top, x1, bottom), y down
INSTALL = {
    "rapidocr": "pip install 'parsegate[ocr-rapidocr]'",
    "tesseract": "pip install 'parsegate[ocr]' and apt-get install tesseract-ocr-eng",
}


class NoSecondReading(Exception):
    """The other engine is not installed (the message says what to install)."""


@dataclass(frozen=True)
class Line:
    text: str
    box: Box


@dataclass
class SecondReading:
    engine: str  # the engine that read the pages again, with its version
    pages: dict[int, list[Line]] = field(default_factory=dict)  # 1-based page → its lines


def other_engine(first: str) -> str:
    """The engine the parser did not use, from the engine the document names ("tesseract 5.5.4")."""
    return "tesseract" if first.startswith("rapidocr") else "rapidocr"


_READERS: dict[str, tuple[str, Callable[[Image], list[Line]]]] = {}


def reader(name: str) -> tuple[str, Callable[[Image], list[Line]]]:
    """The engine ``name`` ("tesseract" | "rapidocr") as (its name and version, a page reader
    giving lines in pixels); NoSecondReading when it is not installed."""
    if name not in _READERS:
        _READERS[name] = _tesseract() if name == "tesseract" else _rapidocr()
    return _READERS[name]


def _missing(name: str) -> NoSecondReading:
    return NoSecondReading(f"no second reading ({name} is not installed: {INSTALL[name]})")


def _rapidocr() -> tuple[str, Callable[[Image], list[Line]]]:
    try:
        import numpy as np
        from rapidocr_onnxruntime import RapidOCR
    except ImportError:
        raise _missing("rapidocr") from None
    # One thread each: every onnxruntime thread reserves address space (its stack, malloc's
    # per-thread arenas), and the worker's --memory-limit is on address space: with a thread per
    # core, a worker that had read Office files before ran out of it (std::bad_alloc).
    engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)

    def read(image: Image) -> list[Line]:
        # No text-angle classifier: a scanned line upside down is rare, and it is a third of the time.
        found, _ = engine(np.array(image.convert("RGB")), use_cls=False)
        lines = []
        for points, text, _score in found or []:
            xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
            lines.append(Line(str(text), (min(xs), min(ys), max(xs), max(ys))))
        return lines

    from importlib.metadata import version

    return f"rapidocr-onnxruntime {version('rapidocr-onnxruntime')}", read


def _tesseract() -> tuple[str, Callable[[Image], list[Line]]]:
    try:
        import tesserocr
    except ImportError:
        raise _missing("tesseract") from None
    from parsegate.parsers.ocr import OcrUnavailable
    from parsegate.parsers.ocr.tesseract import LANGUAGE, find_tessdata

    try:
        folder = find_tessdata(None)
    except OcrUnavailable:
        raise _missing("tesseract") from None
    api = tesserocr.PyTessBaseAPI(path=folder + "/", lang=LANGUAGE, psm=tesserocr.PSM.AUTO)

    def read(image: Image) -> list[Line]:
        from tesserocr import RIL, iterate_level

        api.SetImage(image)
        api.Recognize()
        iterator = api.GetIterator()
        lines = []
        for line in iterate_level(iterator, RIL.TEXTLINE) if iterator is not None else ():
            if line.Empty(RIL.TEXTLINE):
                continue
            text, box = (line.GetUTF8Text(RIL.TEXTLINE) or "").strip(), line.BoundingBox(RIL.TEXTLINE)
            if text and box is not None:
                lines.append(Line(text, _box(*(float(v) for v in box))))
        return lines

    return f"tesseract {str(tesserocr.tesseract_version()).split()[1]}", read


def _in_points(lines: list[Line], dpi: float) -> list[Line]:
    scale = _POINTS / dpi
    return [Line(ln.text, _box(*(round(v * scale, 1) for v in ln.box))) for ln in lines]


def _box(x0: float, top: float, x1: float, bottom: float) -> Box:
    return x0, top, x1, bottom


def scanned_pages(source: PdfSource) -> list[int]:
    """The PDF's pages the parser reads by OCR, by its rule, found here again: no text in the
    text layer, and an image."""
    import pypdfium2.raw as pdfium_c

    return [
        n
        for n, page in source.pages.items()
        if not page.text.strip() and any(page.page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3))
    ]


def read_pdf(source: PdfSource, pages: list[int], engine: str) -> SecondReading:
    """The ``pages`` of the PDF drawn by PDFium at ``DPI`` and read by ``engine``."""
    name, read = reader(engine)
    out = SecondReading(name)
    for n in pages:
        image = source.pages[n].page.render(scale=DPI / _POINTS, grayscale=True).to_pil()
        out.pages[n] = _in_points(read(image), DPI)
    return out


def image_frames(data: bytes) -> list[tuple[Image, float]]:
    """Each frame of an image file in grey, with its resolution (its dpi tag; 300 without one,
    as the image parser takes it); none when Pillow cannot read it."""
    from PIL import Image as PILImage
    from PIL import ImageSequence, UnidentifiedImageError

    try:
        image = PILImage.open(io.BytesIO(data))
        frames = [frame.convert("L") for frame in ImageSequence.Iterator(image)]
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, PILImage.DecompressionBombError):
        return []
    tag: Any = image.info.get("dpi")
    named = isinstance(tag, tuple) and tag and isinstance(tag[0], int | float) and tag[0] >= 50
    dpi = float(tag[0]) if named else 300.0
    return [(frame, dpi) for frame in frames]


def read_image(data: bytes, engine: str) -> SecondReading:
    """Every frame of an image file read by ``engine``; boxes in points at its resolution."""
    name, read = reader(engine)
    out = SecondReading(name)
    for n, (frame, dpi) in enumerate(image_frames(data), start=1):
        out.pages[n] = _in_points(read(frame), dpi)
    return out
