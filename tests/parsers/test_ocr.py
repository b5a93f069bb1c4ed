"""OCR: pages without a text layer read back by Tesseract. The fixtures are our own golden PDFs
rendered to images by PDFium at 200 dpi and rebuilt as image-only PDFs by Pillow, so the text they
must give is the born-digital document's, exactly."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from parsegate.parsers import ocr, pdf
from parsegate.parsers.model import Document
from parsegate.parsers.ocr.tesseract import TESSDATA
from parsegate.parsers.options import ParseOptions
from tests.conftest import GOLDEN, IN_CI

DPI = 200


def _tesseract() -> None:
    try:
        import tesserocr  # noqa: F401
    except ImportError:
        pytest.skip("the ocr extra is not installed")
    if not any((Path(folder) / "eng.traineddata").is_file() for folder in TESSDATA):
        if IN_CI:
            pytest.fail("Tesseract's English model is missing in CI: dev.sh installs tesseract-ocr-eng")
        pytest.skip("Tesseract's English model (Debian's tesseract-ocr-eng) is not installed")


def scanned(case: str, dpi: int = DPI) -> bytes:
    """The golden PDF ``case`` as an image-only PDF: each page rendered in grey at ``dpi``."""
    import pypdfium2

    source = pypdfium2.PdfDocument((GOLDEN / "pdf" / case / "input.pdf").read_bytes())
    try:
        images = [page.render(scale=dpi / 72, grayscale=True).to_pil() for page in source]
    finally:
        source.close()
    out = io.BytesIO()
    images[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return out.getvalue()


def _born(case: str) -> Document:
    return pdf.parse((GOLDEN / "pdf" / case / "input.pdf").read_bytes(), "born.pdf")


@pytest.mark.parametrize("case", ["footnote", "banded-table", "unruled-table"])
def test_scanned_page_reads_back_the_born_digital_text_and_structure(case: str) -> None:
    _tesseract()
    doc = pdf.parse(scanned(case), "scan.pdf")
    born = _born(case)
    assert doc.text == born.text  # every word, in order, with the same paragraph and row breaks
    assert [e.kind for e in doc.elements] == [e.kind for e in born.elements]
    assert [w.code for w in doc.warnings] == []
    for element in doc.elements:
        assert element.page == 1 and element.bbox is not None
        assert 0.9 <= element.data.ocr_confidence <= 1.0  # type: ignore[operator]
    ocr_meta = doc.metadata["ocr"]
    assert ocr_meta["engine"].startswith("tesseract ") and ocr_meta["dpi"] == 300
    assert list(ocr_meta["pages"]) == ["1"] and 0.9 <= ocr_meta["pages"]["1"] <= 1.0


def test_footnote_scan_keeps_boxes_on_the_page_and_its_heading() -> None:
    _tesseract()
    doc = pdf.parse(scanned("footnote"), "scan.pdf")
    heading = doc.elements[0]
    assert (heading.kind, doc.text[heading.start : heading.end]) == ("heading", "Calibration Note")
    born = {doc.text[e.start : e.end]: e.bbox for e in _born("footnote").elements}
    for element in doc.elements:  # the OCR boxes sit where PDFium's glyph boxes are, within 3 pt
        expected = born[doc.text[element.start : element.end]]
        assert expected is not None and element.bbox is not None
        assert max(abs(a - b) for a, b in zip(element.bbox, expected, strict=True)) <= 3.0


def test_ocr_off_keeps_the_scan_as_needs_ocr() -> None:
    doc = pdf.parse(scanned("footnote", 72), "scan.pdf", ParseOptions(ocr_engine="off"))
    assert [(w.code, w.location) for w in doc.warnings] == [("needs_ocr", "page 1")]
    assert "OCR is off" in doc.warnings[0].message and doc.text == ""


def test_without_the_ocr_extra_the_scan_stays_needs_ocr_naming_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tesserocr", None)  # import tesserocr raises ImportError
    monkeypatch.setattr(ocr, "_loaded", {})
    doc = pdf.parse(scanned("footnote", 72), "scan.pdf")
    assert [(w.code, w.location) for w in doc.warnings] == [("needs_ocr", "page 1")]
    assert "pip install 'parsegate[ocr]'" in doc.warnings[0].message and doc.text == ""
