"""Image files (PNG, JPEG, TIFF) read by OCR into the PDF parser's structure: the golden banded
table rendered to a PNG reads back as the born-digital PDF's text; a TIFF's frames are pages."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image

from parsegate.parsers import image, ocr, pdf
from parsegate.parsers.model import ParseError
from parsegate.parsers.registry import parse_data
from tests.conftest import GOLDEN
from tests.parsers.test_ocr import _tesseract


def _pages(case: str, dpi: int) -> list[Image.Image]:
    import pypdfium2

    source = pypdfium2.PdfDocument((GOLDEN / "pdf" / case / "input.pdf").read_bytes())
    try:
        return [page.render(scale=dpi / 72, grayscale=True).to_pil() for page in source]
    finally:
        source.close()


def _encoded(images: list[Image.Image], kind: str, dpi: int) -> bytes:
    out = io.BytesIO()
    images[0].save(out, kind, dpi=(dpi, dpi), save_all=len(images) > 1, append_images=images[1:])
    return out.getvalue()


def test_a_png_reads_back_as_the_born_digital_page() -> None:
    _tesseract()
    data = _encoded(_pages("banded-table", 200), "PNG", 200)
    doc = parse_data(data, Path("table.png"), "table.png")
    born = pdf.parse((GOLDEN / "pdf" / "banded-table" / "input.pdf").read_bytes(), "born.pdf")
    assert (doc.format, doc.text) == ("image", born.text)
    assert [e.kind for e in doc.elements] == [e.kind for e in born.elements]
    assert doc.metadata["image"] == {"format": "PNG", "size": [1654, 2339], "dpi": 200}
    assert doc.metadata["ocr"]["dpi"] == 200
    # Boxes in points, as the PDF's: each inside the born-digital one (a row's there spans its band
    # of colour, OCR's only its ink), within 3 pt.
    for element, expected in zip(doc.elements, born.elements, strict=True):
        assert element.page == 1 and element.bbox is not None and expected.bbox is not None
        x0, top, x1, bottom = element.bbox
        assert x0 >= expected.bbox[0] - 3 and top >= expected.bbox[1] - 3
        assert x1 <= expected.bbox[2] + 3 and bottom <= expected.bbox[3] + 3


def test_a_tiff_frame_is_a_page() -> None:
    _tesseract()
    data = _encoded(_pages("footnote", 150) * 2, "TIFF", 150)
    doc = image.parse(data, "two.tiff")
    assert doc.metadata["pages"] == 2 and list(doc.metadata["ocr"]["pages"]) == ["1", "2"]
    assert doc.text.count("Calibration Note") == 2
    assert {e.page for e in doc.elements} == {1, 2}


def test_bytes_that_are_no_image_are_malformed() -> None:
    with pytest.raises(ParseError) as info:
        image.parse(b"not an image at all", "x.png")
    assert info.value.code == "malformed"


def test_without_the_ocr_engine_an_image_is_needs_ocr_naming_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tesserocr", None)
    monkeypatch.setattr(ocr, "_loaded", {})
    with pytest.raises(ParseError) as info:
        image.parse(_encoded(_pages("footnote", 72), "PNG", 72), "x.png")
    assert info.value.code == "needs_ocr" and "pip install 'parsegate[ocr]'" in info.value.message
