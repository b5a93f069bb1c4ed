"""Parser options: what a caller may set for one parse (a PDF password, page, time and size
limits), in ``ParseOptions``, passed explicitly: ``registry.parse_data(data, path, doc_id,
options)`` hands them to the parser (``parse(data, doc_id, options)``), which hands the limits
on to the step that checks them; a worker process gets them in its settings frame.

The environment is read in one place, ``ParseOptions.from_env(environ)``, which the command
line calls once; nothing under parsers/ reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class ParseOptions:
    """Options for one parse; each default is the limit a run has when nothing is set."""

    password: str | None = None  # PARSEGATE_PDF_PASSWORD: opens encrypted PDFs
    pdf_max_pages: int = 2000  # PARSEGATE_PDF_MAX_PAGES
    pdf_max_seconds: float = 300.0  # PARSEGATE_PDF_MAX_SECONDS, checked between pages
    max_inflated_mb: float = 200.0  # PARSEGATE_MAX_INFLATED_MB: zip members, PDF streams
    max_image_pixels: int = 100_000_000  # PARSEGATE_MAX_IMAGE_PIXELS, per image
    max_html_mb: float = 200.0  # PARSEGATE_MAX_HTML_MB: our own HTML pass reads tens of MB/s; it bounds memory
    soffice_seconds: float = 120.0  # PARSEGATE_SOFFICE_SECONDS: LibreOffice conversions
    # OCR of pages without a text layer and of image files (parsers/ocr/): "tesseract", "rapidocr", "off"
    ocr_engine: str = "tesseract"  # PARSEGATE_OCR_ENGINE
    ocr_dpi: int = 300  # PARSEGATE_OCR_DPI: a PDF page is rendered at this resolution for OCR
    ocr_tessdata: str | None = None  # PARSEGATE_OCR_TESSDATA: the folder of eng.traineddata (default: Debian's)
    # PARSEGATE_OCR_OFFICE_IMAGES: the raster images inside DOCX and PPTX files read by OCR too
    ocr_office_images: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> ParseOptions:
        """The options the ``PARSEGATE_*`` variables of ``environ`` set (an empty one sets
        nothing), the defaults for the rest. ValueError, naming the variable, for a limit that
        is not a number."""
        given: dict[str, str | int | float | bool] = {}
        for variable, name in ENVIRONMENT.items():
            value = environ.get(variable, "")
            if value and name in _FLAGS:
                given[name] = _flag(variable, value)
            elif value:
                given[name] = value if name in _TEXTS else _number(variable, value, _KINDS[name])
        if given.get("ocr_engine", "tesseract") not in OCR_ENGINES:
            raise ValueError(f"PARSEGATE_OCR_ENGINE={given['ocr_engine']!r}: expected one of {', '.join(OCR_ENGINES)}")
        return replace(DEFAULTS, **given)  # type: ignore[arg-type]


# Each option's variable in the environment (the command line's names for them).
ENVIRONMENT = {
    "PARSEGATE_PDF_PASSWORD": "password",
    "PARSEGATE_PDF_MAX_PAGES": "pdf_max_pages",
    "PARSEGATE_PDF_MAX_SECONDS": "pdf_max_seconds",
    "PARSEGATE_MAX_INFLATED_MB": "max_inflated_mb",
    "PARSEGATE_MAX_IMAGE_PIXELS": "max_image_pixels",
    "PARSEGATE_MAX_HTML_MB": "max_html_mb",
    "PARSEGATE_SOFFICE_SECONDS": "soffice_seconds",
    "PARSEGATE_OCR_ENGINE": "ocr_engine",
    "PARSEGATE_OCR_DPI": "ocr_dpi",
    "PARSEGATE_OCR_TESSDATA": "ocr_tessdata",
    "PARSEGATE_OCR_OFFICE_IMAGES": "ocr_office_images",
}
OCR_ENGINES = ("tesseract", "rapidocr", "off")
_TEXTS = {"password", "ocr_engine", "ocr_tessdata"}
_FLAGS = {"ocr_office_images"}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
assert set(ENVIRONMENT.values()) == {f.name for f in fields(ParseOptions)}
_KINDS = {f.name: int if f.type == "int" else float for f in fields(ParseOptions)}

DEFAULTS = ParseOptions()


def _number(variable: str, value: str, kind: type[int] | type[float]) -> int | float:
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{variable}={value!r}: expected a number") from None
    return int(number) if kind is int else number


def _flag(variable: str, value: str) -> bool:
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ValueError(f"{variable}={value!r}: expected one of {', '.join(_TRUE + _FALSE)}")
