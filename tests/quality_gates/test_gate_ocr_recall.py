"""OCR recall: a page read by OCR is read again by the other engine (the gate's own reading,
from the source bytes), and that reading's text is looked for in the chunks. A clean scan passes;
a parser that lost every other line of its OCR reading fails ``min_ocr_recall`` alone, its lost
lines listed with their boxes; without the other engine the check is not measured and says what to
install, never passed."""

from __future__ import annotations

import io
import sys
from collections import Counter

import pytest

from parsegate import api
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.record import Chunk
from parsegate.parsers import image, pdf
from parsegate.parsers.model import Document
from parsegate.parsers.ocr import Reading
from parsegate.parsers.pdf import ocr as pdf_ocr
from parsegate.quality_gates.checks.ocr_recall import grams
from parsegate.quality_gates.references import ocr
from parsegate.quality_gates.verdict import Verdict
from tests.conftest import IN_CI
from tests.parsers.test_ocr import _tesseract, scanned


def _rapidocr() -> None:
    """The second reading of a Tesseract page is RapidOCR's: CI installs it (dev.sh test)."""
    _tesseract()
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("rapidocr-onnxruntime is missing in CI: dev.sh test installs the ocr-rapidocr extra")
        pytest.skip("rapidocr-onnxruntime is not installed (pip install 'parsegate[ocr-rapidocr]')")


def _gate(doc: Document, data: bytes) -> tuple[list[Chunk], Verdict]:
    chunks = Chunker(ChunkConfig(max_tokens=128)).chunk(doc)
    return chunks, api.gate(doc, chunks, source=data, max_tokens=128)


def _halved(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser loses every other line its OCR engine read (the broken fixture)."""
    real = pdf_ocr.read_image

    def halved(image: object, options: object) -> Reading:
        reading = real(image, options)  # type: ignore[arg-type]
        return Reading(reading.lines[::2], reading.engine)

    monkeypatch.setattr(pdf_ocr, "read_image", halved)


def test_runs_of_letters_are_compared_so_glued_words_are_found() -> None:
    # RapidOCR runs English words together; the grams of both sides are those of the letters alone.
    assert grams("Calibrationfollows the") == grams("Calibration follows, the")
    assert grams("Gauges") == Counter({"gaug": 1, "auge": 1, "uges": 1})
    assert grams("1 a") == Counter()  # shorter than a gram: no evidence


def test_a_clean_scan_is_read_again_by_rapidocr_and_passes() -> None:
    _rapidocr()
    data = scanned("footnote", 200)
    _, verdict = _gate(pdf.parse(data, "scan.pdf"), data)
    assert verdict.passed, [c for c in verdict.checks if not c.passed]
    assert verdict.metrics["ocr_recall"] is not None and verdict.metrics["ocr_recall"] >= 0.97
    assert "ocr_recall" not in verdict.not_measured
    assert verdict.metrics["extraction_recall"] is None  # no text layer: nothing to measure it against


def test_a_parser_that_loses_every_other_ocr_line_fails_ocr_recall_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    _rapidocr()
    _halved(monkeypatch)
    data = scanned("footnote", 200)
    doc = pdf.parse(data, "scan.pdf")
    assert "Gauges are calibrated" not in doc.text and "shared log" in doc.text  # lines 2 and 4 are gone
    _, verdict = _gate(doc, data)
    failed = [c for c in verdict.checks if not c.passed]
    assert [c.check for c in failed] == ["min_ocr_recall"]
    assert failed[0].value is not None and failed[0].value < 0.6
    (fault,) = failed[0].faults
    assert fault["page"] == 1 and fault["count"] == 2 and len(fault["boxes"]) == 2
    # RapidOCR's reading of the two lost lines (its words run together), and nothing else.
    lost = fault["words"].replace(" ", "").lower()
    assert lost.startswith("gaugesarecalibratedeverymonth") and "/readingwithoutaninstrumentisnotaccepted" in lost
    assert "sharedlog" not in lost
    for x0, top, x1, bottom in fault["boxes"]:  # points of the page, inside it (A4: 595 x 842)
        assert 0 <= x0 < x1 <= 596 and 0 <= top < bottom <= 843


def test_an_image_file_is_read_again_frame_by_frame() -> None:
    _rapidocr()
    import pypdfium2

    from tests.conftest import GOLDEN

    source = pypdfium2.PdfDocument((GOLDEN / "pdf" / "footnote" / "input.pdf").read_bytes())
    try:
        picture = source[0].render(scale=200 / 72, grayscale=True).to_pil()
    finally:
        source.close()
    out = io.BytesIO()
    picture.save(out, "PNG", dpi=(200, 200))
    data = out.getvalue()
    _, verdict = _gate(image.parse(data, "scan.png"), data)
    assert verdict.passed and verdict.metrics["ocr_recall"] is not None and verdict.metrics["ocr_recall"] >= 0.97


def test_without_the_other_engine_ocr_recall_is_not_measured_and_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _tesseract()
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # import raises ImportError
    monkeypatch.setattr(ocr, "_READERS", {})
    data = scanned("footnote", 200)
    doc = pdf.parse(data, "scan.pdf")
    chunks = Chunker(ChunkConfig(max_tokens=128)).chunk(doc)
    from parsegate.chunkers.tokens.counter import load_counter
    from parsegate.quality_gates.checks.ocr_recall import OcrRecallFacts
    from parsegate.quality_gates.measure import measure
    from parsegate.quality_gates.report.build import ocr_pages

    facts = measure(doc, chunks, load_counter("all-MiniLM-L6-v2"), 128, source=data)
    assert facts.get(OcrRecallFacts) == OcrRecallFacts(
        None, None, "no second reading (rapidocr is not installed: pip install 'parsegate[ocr-rapidocr]')", 1, 1
    )
    verdict = api.gate(doc, chunks, source=data, max_tokens=128)
    assert "ocr_recall" in verdict.not_measured and verdict.metrics["ocr_recall"] is None
    counted = ocr_pages([facts])
    assert counted == {
        "pages": 1,
        "read_again": 0,
        "unread": 1,
        "why_unread": {"no second reading (rapidocr is not installed: pip install 'parsegate[ocr-rapidocr]')": 1},
    }
    from parsegate.quality_gates.report.rows import _ocr

    assert _ocr(counted) == (
        "1 of the 1 pages read by OCR have no second reading (no second reading (rapidocr is not installed: "
        "pip install 'parsegate[ocr-rapidocr]'): 1)"
    )


def test_a_document_outside_the_gate_sample_gets_no_second_reading() -> None:
    _tesseract()
    data = scanned("footnote", 200)
    doc = pdf.parse(data, "scan.pdf")
    chunks = Chunker(ChunkConfig(max_tokens=128)).chunk(doc)
    from parsegate.chunkers.tokens.counter import load_counter
    from parsegate.quality_gates.checks.ocr_recall import NOT_SAMPLED, OcrRecallFacts
    from parsegate.quality_gates.measure import measure

    facts = measure(doc, chunks, load_counter("all-MiniLM-L6-v2"), 128, source=data, sampled=False)
    assert facts.get(OcrRecallFacts) == OcrRecallFacts(None, None, NOT_SAMPLED, 1, 1)


def test_a_born_digital_pdf_has_no_ocr_recall_and_nothing_unmeasured() -> None:
    from tests.conftest import GOLDEN

    data = (GOLDEN / "pdf" / "footnote" / "input.pdf").read_bytes()
    _, verdict = _gate(pdf.parse(data, "born.pdf"), data)
    assert verdict.metrics["ocr_recall"] is None and "ocr_recall" not in verdict.not_measured


def test_an_engine_that_fails_leaves_ocr_recall_not_measured_with_its_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """onnxruntime out of the worker's address space raised std::bad_alloc as its own exception
    type, and the document failed as internal_error: the second reading is said to have failed."""
    _tesseract()

    class RuntimeException(Exception):  # onnxruntime's: not a RuntimeError
        pass

    def fails(*_: object) -> None:
        raise RuntimeException("[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : std::bad_alloc")

    monkeypatch.setattr(ocr, "read_pdf", fails)
    data = scanned("footnote", 200)
    doc = pdf.parse(data, "scan.pdf")
    chunks = Chunker(ChunkConfig(max_tokens=128)).chunk(doc)
    from parsegate.chunkers.tokens.counter import load_counter
    from parsegate.quality_gates.checks.ocr_recall import OcrRecallFacts
    from parsegate.quality_gates.measure import measure

    facts = measure(doc, chunks, load_counter("all-MiniLM-L6-v2"), 128, source=data).get(OcrRecallFacts)
    assert (facts.ocr_recall_grams, facts.ocr_pages_unread) == (None, 1)
    assert facts.ocr_second_reading is not None and facts.ocr_second_reading.startswith(
        "no second reading (the rapidocr engine failed: RuntimeException: [ONNXRuntimeError]"
    )
