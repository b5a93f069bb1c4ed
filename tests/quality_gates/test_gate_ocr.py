"""The gate on OCR text: a scan read with low confidence is quarantined by min_ocr_confidence
alone; a clean scan passes the gate with the defaults; each chunk names its OCR confidence."""

from __future__ import annotations

from parsegate import api
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.record import Chunk
from parsegate.parsers import pdf
from parsegate.parsers.options import ParseOptions
from parsegate.quality_gates.verdict import Verdict
from tests.parsers.test_ocr import _tesseract, scanned


def _verdict(data: bytes, **thresholds: float) -> tuple[list[Chunk], Verdict]:
    doc = pdf.parse(data, "scan.pdf")
    chunks = Chunker(ChunkConfig(max_tokens=128)).chunk(doc)
    return chunks, api.gate(doc, chunks, source=data, max_tokens=128, thresholds=thresholds)


def test_a_clean_scan_passes_the_gate_and_its_chunks_carry_their_confidence() -> None:
    _tesseract()
    chunks, verdict = _verdict(scanned("footnote", 200))
    assert verdict.passed, [c for c in verdict.checks if not c.passed]
    for chunk in chunks:
        ocr = chunk.metadata["ocr"]
        assert ocr["engine"].startswith("tesseract ") and list(ocr["pages"]) == ["1"]
        assert 0.9 <= ocr["confidence"] <= 1.0
    assert verdict.metrics["ocr_confidence"] == min(c.metadata["ocr"]["confidence"] for c in chunks)
    assert "localization" in verdict.not_measured  # no text layer to check the boxes against


def test_a_low_confidence_scan_fails_min_ocr_confidence_alone() -> None:
    _tesseract()
    # 60 dpi: Tesseract still reads the page, but misreads its small type ("calibeated ever mani").
    # (The second reading finds that too: OCR recall is set aside here, tests/quality_gates/test_report_ocr.py.)
    chunks, verdict = _verdict(scanned("footnote", 60), min_ocr_recall=0.0)
    failed = [c for c in verdict.checks if not c.passed]
    assert [c.check for c in failed] == ["min_ocr_confidence"]
    low = [i for i, c in enumerate(chunks) if c.metadata["ocr"]["confidence"] < 0.7]
    assert low and [f["chunk_index"] for f in failed[0].faults] == low
    assert failed[0].value == min(c.metadata["ocr"]["confidence"] for c in chunks) < 0.7


def test_a_scan_left_unread_fails_min_chunks_and_is_not_passed_as_empty() -> None:
    data = scanned("footnote", 72)
    doc = pdf.parse(data, "scan.pdf", ParseOptions(ocr_engine="off"))  # no OCR: needs_ocr
    assert doc.text == "" and [w.code for w in doc.warnings] == ["needs_ocr"]
    verdict = api.gate(doc, [], source=data, max_tokens=128)
    assert [(c.check, c.value) for c in verdict.checks if not c.passed] == [("min_chunks", 0)]


def test_a_page_image_with_no_word_in_it_warns_ocr_empty_and_fails() -> None:
    _tesseract()
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (600, 800), 255).save(out, "PDF", resolution=72)  # a blank scanned page
    doc = pdf.parse(out.getvalue(), "blank.pdf")
    assert [(w.code, w.location) for w in doc.warnings] == [("ocr_empty", "page 1")]
    verdict = api.gate(doc, [], source=out.getvalue(), max_tokens=128)
    assert [(c.check, c.value) for c in verdict.checks if not c.passed] == [("min_chunks", 0)]
