"""Parser options: what a caller may set for one parse (a PDF password, page, time and size
limits), in ``ParseOptions``.

The Python API passes them for the duration of a parse (``using``); the command line maps its
flags and the environment onto the same names (``PARSEGATE_PDF_PASSWORD``…), which worker
processes inherit. A parser asks ``setting(NAME)``: the options in force for this parse first,
then the environment.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class ParseOptions:
    """Options for one parse; ``None`` leaves a setting to the environment, else its default."""

    password: str | None = None  # PARSEGATE_PDF_PASSWORD: opens encrypted PDFs
    pdf_max_pages: int | None = None  # PARSEGATE_PDF_MAX_PAGES (2000)
    pdf_max_seconds: float | None = None  # PARSEGATE_PDF_MAX_SECONDS (300), checked between pages
    max_inflated_mb: float | None = None  # PARSEGATE_MAX_INFLATED_MB (200): zip members, PDF streams
    max_image_pixels: int | None = None  # PARSEGATE_MAX_IMAGE_PIXELS (100 million) per image
    max_html_mb: float | None = None  # PARSEGATE_MAX_HTML_MB
    soffice_seconds: float | None = None  # PARSEGATE_SOFFICE_SECONDS (120): LibreOffice conversions


ENVIRONMENT = {
    "PARSEGATE_PDF_PASSWORD": "password",
    "PARSEGATE_PDF_MAX_PAGES": "pdf_max_pages",
    "PARSEGATE_PDF_MAX_SECONDS": "pdf_max_seconds",
    "PARSEGATE_MAX_INFLATED_MB": "max_inflated_mb",
    "PARSEGATE_MAX_IMAGE_PIXELS": "max_image_pixels",
    "PARSEGATE_MAX_HTML_MB": "max_html_mb",
    "PARSEGATE_SOFFICE_SECONDS": "soffice_seconds",
}
assert set(ENVIRONMENT.values()) == {f.name for f in fields(ParseOptions)}

_current: ContextVar[ParseOptions | None] = ContextVar("parsegate_parse_options", default=None)


@contextmanager
def using(options: ParseOptions | None) -> Iterator[None]:
    """These options for every parse inside the block (this thread or task only)."""
    token = _current.set(options)
    try:
        yield
    finally:
        _current.reset(token)


def setting(name: str) -> str | None:
    """The value of the setting the environment calls ``name``: from the options in force, else
    from the environment; None when neither sets it."""
    options = _current.get()
    if options is not None:
        value = getattr(options, ENVIRONMENT[name])
        if value is not None:
            return str(value)
    return os.environ.get(name) or None


def number(name: str, default: float) -> float:
    """A numeric setting, or ``default`` when unset or not a number."""
    value = setting(name)
    try:
        return float(value) if value is not None else default
    except ValueError:
        return default
