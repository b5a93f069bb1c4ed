"""report.html for documents the gate quarantined on OCR: the page image of each low-confidence
chunk (a scanned PDF's page, an image file's frame) is in the page with that chunk's boxes marked,
and the lines a second OCR reading found in no chunk too, so that a person can read what the
engine could not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.quality_gates.report.pages import Marks, _chosen, page_images
from tests.conftest import GOLDEN
from tests.parsers.test_ocr import scanned
from tests.quality_gates.test_gate_ocr_recall import _rapidocr
from tests.quality_gates.test_report_html import CHROMIUM_FLAGS, chromium


def _details(out: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    html = (out / "report.html").read_text()
    start = html.index('id="data">') + len('id="data">')
    return json.loads(html[start : html.index("</script>", start)])["details"]  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def low_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A footnote page scanned at 60 dpi, as a PDF and as a PNG: Tesseract reads it with low
    confidence (0.41 and 0.37) and the gate quarantines both."""
    _rapidocr()
    import pypdfium2

    root = tmp_path_factory.mktemp("scans")
    (root / "low.pdf").write_bytes(scanned("footnote", 60))
    source = pypdfium2.PdfDocument((GOLDEN / "pdf" / "footnote" / "input.pdf").read_bytes())
    try:
        source[0].render(scale=60 / 72, grayscale=True).to_pil().save(root / "low.png", dpi=(60, 60))
    finally:
        source.close()
    out = tmp_path_factory.mktemp("scans-out")
    result = CliRunner().invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--max-tokens", "128"])
    assert result.exit_code == 1, result.output
    return out


@pytest.mark.parametrize("doc_id", ["low.pdf", "low.png"])
def test_a_low_confidence_chunk_is_drawn_on_its_page_image(low_run: Path, doc_id: str) -> None:
    report = json.loads((low_run / "report.json").read_text())
    (document,) = [d for d in report["documents"] if d["doc_id"] == doc_id]
    failed = {c["check"]: c for c in document["failed_checks"]}
    low = failed["min_ocr_confidence"]["faults"]
    assert [f["chunk_index"] for f in low] == [0]
    (page,) = _details(low_run)[doc_id]["pages"]
    assert page["page"] == 1 and page["image"].startswith("data:image/jpeg;base64,")
    chunk_boxes = [b["box"] for b in page["boxes"] if b["chunk"] == 0]
    # Every box of the low chunk is marked, with the gate's reason, inside the drawn page.
    assert [b["box"] for b in page["low"]] == chunk_boxes and chunk_boxes
    assert {b["why"] for b in page["low"]} == {low[0]["why"]}
    for x0, y0, x1, y1 in chunk_boxes:
        assert 0 <= x0 < x1 <= page["width"] and 0 <= y0 < y1 <= page["height"]
    # The second reading's lines in no chunk (OCR recall failed too: Tesseract's reading is poor).
    recall = failed["min_ocr_recall"]["faults"][0]
    assert [b["text"] for b in page["ocr_lost"]] == recall["lines"] and recall["lines"]
    assert document["ocr_second_reading"].startswith("rapidocr-onnxruntime ")
    assert report["ocr_second_reading"] == {"pages": 2, "read_again": 2, "unread": 0, "why_unread": {}}


def test_the_report_page_shows_the_low_chunk_on_its_page(low_run: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_FLAGS[1:9])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto((low_run / "report.html").as_uri())
            page.wait_for_selector("body[data-ready=yes]")
            page.locator('tr.doc[data-doc="low.pdf"]').click()
            drawn = page.locator("#pdf-page-1")
            assert drawn.locator("img").get_attribute("src").startswith("data:image/jpeg;base64,")
            assert drawn.locator(".pbox.low.low-0").count() == 4  # the chunk's four boxes
            assert "OCR confidence 0.410 (under 0.7)" in (drawn.locator(".pbox.low").first.get_attribute("title") or "")
            assert drawn.locator(".pbox.ocr-lost").count() == 4
            page.locator("#detail ul.faults li a.go", has_text="on the page").click()
            assert "flash" in (drawn.locator(".pbox.low-0").first.get_attribute("class") or "")
            assert errors == []
        finally:
            browser.close()


def test_the_pages_of_marks_are_drawn_first_then_the_first_pages() -> None:
    assert _chosen(list(range(1, 21)), {17}, 3) == [1, 2, 17]
    assert _chosen(list(range(1, 21)), set(), 3) == [1, 2, 3]
    assert _chosen([1, 2], {5}, 8) == [1, 2]


def test_a_lost_line_of_the_second_reading_is_drawn_where_it_is() -> None:
    data = scanned("footnote", 72)
    fault = {"page": 1, "boxes": [[36.0, 72.0, 180.0, 90.0]], "lines": ["the shared log"]}
    (page,) = page_images(data, [], [], [], 8, marks=Marks({}, [fault]))
    scale = page["width"] / 595.28  # A4 drawn 560 pixels wide
    ((x0, y0, x1, y1),) = [b["box"] for b in page["ocr_lost"]]
    assert [b["text"] for b in page["ocr_lost"]] == ["the shared log"]
    assert abs(x0 - 36 * scale) <= 1 and abs(y0 - 72 * scale) <= 1 and abs(x1 - 180 * scale) <= 1
    assert abs(y1 - 90 * scale) <= 1
