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
FORMATS = ("pdf", "image")  # the parsers whose output OCR's set-up can change
ON_REQUEST = ("office",)  # ... and those it changes only when asked (ocr_office_images: DOCX and PPTX images)
_DISTRIBUTIONS = {"tesseract": "tesserocr", "rapidocr": "rapidocr-onnxruntime"}


def settings_key(options: ParseOptions) -> str:
    """What of the OCR set-up can change a scanned page's reading: the engine and its installed
    version ("absent": scans stay ``needs_ocr``), the resolution and the model folder. It is part
    of the parser's name in records (``Document.parser``), so the chunk set, the ids and the chunk
    store tell a reading under one set-up from another (or from none: the extra installed later)."""
    from importlib.metadata import PackageNotFoundError, version

    distribution = _DISTRIBUTIONS.get(options.ocr_engine)
    try:
        found = version(distribution) if distribution else "off"
    except PackageNotFoundError:
        found = "absent"
    folder = f" {options.ocr_tessdata}" if options.ocr_tessdata and options.ocr_engine == "tesseract" else ""
    return f"ocr {options.ocr_engine}/{found} {options.ocr_dpi}dpi{folder}"


def reads_by_ocr(name: str, options: ParseOptions) -> bool:
    """Whether the parser ``name`` reads anything by OCR under ``options``."""
    return name in FORMATS or (name in ON_REQUEST and options.ocr_office_images)


def parser_name(name: str, version: str, options: ParseOptions) -> str:
    """``Document.parser`` of a format OCR reads: its name and version and the OCR set-up (the
    office parser's only when its images are read by OCR: ``images`` then ends it)."""
    if not reads_by_ocr(name, options):
        return f"{name} {version}"
    return f"{name} {version} {settings_key(options)}" + (" images" if name in ON_REQUEST else "")


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
