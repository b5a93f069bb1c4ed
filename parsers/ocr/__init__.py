"""OCR: the words of a page image, with their boxes and the engine's confidence in each.

Two engines, chosen with ``ParseOptions.ocr_engine`` (benchmarks/suites/ocr measured them on the
rasterised golden PDFs): ``tesseract`` (the default: tesserocr's wheel bundles libtesseract, the
English model comes from Debian's ``tesseract-ocr-eng``) and ``rapidocr`` (rapidocr-onnxruntime,
whose models ship inside its wheel; weaker on English: it glues words). Neither downloads
anything. Each engine is loaded once per process and kept (loading Tesseract's model costs about
a tenth of a second). An engine that is not installed raises ``OcrUnavailable``, whose message
names what to install; the PDF parser then keeps the page as ``needs_ocr``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL.Image import Image

    from parsegate.parsers.options import ParseOptions

ENGINES = ("tesseract", "rapidocr", "off")
INSTALL = "pip install 'parsegate[ocr]'"


class OcrUnavailable(Exception):
    """The chosen engine, or its model, is not installed; the message says what to install."""


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    x0: float  # pixels of the page image, y down
    top: float
    x1: float
    bottom: float
    confidence: float  # the engine's, 0-1


@dataclass
class TextLine:
    """One line as the engine found it, its words left to right."""

    words: list[Word] = field(default_factory=list)
    height: float = 0.0  # pixels: the line's type size as the engine measures it (x-height + ascenders)


@dataclass
class Reading:
    lines: list[TextLine]
    engine: str  # its name and version, as the document's metadata names it


class Engine(Protocol):
    name: str

    def read(self, image: Image) -> list[TextLine]: ...


_loaded: dict[tuple[str, str | None], Engine] = {}


def engine(options: ParseOptions) -> Engine:
    """The engine ``options`` name, loaded once per process; OcrUnavailable when it is off or
    not installed."""
    key = (options.ocr_engine, options.ocr_tessdata)
    if key not in _loaded:
        if options.ocr_engine == "tesseract":
            from parsegate.parsers.ocr.tesseract import Tesseract

            _loaded[key] = Tesseract.load(options.ocr_tessdata)
        elif options.ocr_engine == "rapidocr":
            from parsegate.parsers.ocr.rapid import Rapid

            _loaded[key] = Rapid.load()
        else:
            raise OcrUnavailable(f"OCR is off (ocr_engine={options.ocr_engine!r}; one of {', '.join(ENGINES)})")
    return _loaded[key]


def read_image(image: Image, options: ParseOptions) -> Reading:
    """The words of one page image, in lines."""
    ocr = engine(options)
    return Reading(ocr.read(image), ocr.name)
