"""ParseOptions: the one reader of the PARSEGATE_* variables (from_env, which the command line
calls), and what a worker rebuilds from its settings frame."""

from __future__ import annotations

from dataclasses import asdict

import orjson
import pytest

from parsegate.parsers.options import DEFAULTS, ParseOptions


def test_from_env_reads_each_variable_and_leaves_the_rest_at_their_defaults() -> None:
    environ = {
        "PARSEGATE_PDF_PASSWORD": "s3cret",
        "PARSEGATE_PDF_MAX_PAGES": "12",
        "PARSEGATE_MAX_INFLATED_MB": "0.5",
        "PARSEGATE_MAX_HTML_MB": "",  # empty: not set
        "HOME": "/root",
    }
    assert ParseOptions.from_env(environ) == ParseOptions(password="s3cret", pdf_max_pages=12, max_inflated_mb=0.5)
    assert ParseOptions.from_env({}) == DEFAULTS
    assert DEFAULTS.max_html_mb == 200.0 and DEFAULTS.pdf_max_pages == 2000 and DEFAULTS.password is None


def test_a_limit_that_is_not_a_number_is_refused_by_its_name() -> None:
    with pytest.raises(ValueError, match=r"PARSEGATE_SOFFICE_SECONDS='soon': expected a number"):
        ParseOptions.from_env({"PARSEGATE_SOFFICE_SECONDS": "soon"})


def test_an_integer_limit_stays_an_integer() -> None:
    options = ParseOptions.from_env({"PARSEGATE_MAX_IMAGE_PIXELS": "1e6", "PARSEGATE_PDF_MAX_SECONDS": "2"})
    assert (options.max_image_pixels, type(options.max_image_pixels)) == (1_000_000, int)
    assert (options.pdf_max_seconds, type(options.pdf_max_seconds)) == (2.0, float)


def test_the_options_travel_to_a_worker_as_json_and_come_back_equal() -> None:
    options = ParseOptions(password="pw", pdf_max_pages=3, max_image_pixels=10)
    assert ParseOptions(**orjson.loads(orjson.dumps(asdict(options)))) == options


def test_the_ocr_settings_are_read_and_an_unknown_engine_is_refused_by_name() -> None:
    environ = {"PARSEGATE_OCR_ENGINE": "rapidocr", "PARSEGATE_OCR_DPI": "200", "PARSEGATE_OCR_TESSDATA": "/opt/td"}
    assert ParseOptions.from_env(environ) == ParseOptions(ocr_engine="rapidocr", ocr_dpi=200, ocr_tessdata="/opt/td")
    assert (DEFAULTS.ocr_engine, DEFAULTS.ocr_dpi, DEFAULTS.ocr_tessdata) == ("tesseract", 300, None)
    with pytest.raises(ValueError, match=r"PARSEGATE_OCR_ENGINE='easyocr': expected one of tesseract, rapidocr, off"):
        ParseOptions.from_env({"PARSEGATE_OCR_ENGINE": "easyocr"})
