"""A chunk store never hands a scanned page's reading made under one OCR set-up to a run under
another: the engine, its installed version and the resolution are part of the PDF and image
parsers' names (``Document.parser``), so of their chunk sets and ids. Before, a scan stored as
``needs_ocr`` with OCR off was reused as it was by a run with OCR on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.parsers.ocr import settings_key
from parsegate.parsers.options import ParseOptions
from tests.conftest import GOLDEN

pytest.importorskip("tesserocr")


def run(docs: Path, out: Path, store: Path, engine: str) -> tuple[dict, list[dict]]:
    result = CliRunner().invoke(
        app,
        ["run", str(docs), "--out", str(out), "--store", str(store), "--allow-failures"],
        env={"PARSEGATE_OCR_ENGINE": engine},
    )
    assert result.exit_code in (0, 1), result.output
    record = json.loads((out / "run.json").read_text())
    chunks = [json.loads(line) for line in (out / "chunks.jsonl").read_text().splitlines()]
    return record["store"], chunks


def test_a_scan_read_with_ocr_off_is_read_again_with_ocr_on(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(GOLDEN / "pdf" / "scanned-footnote" / "input.pdf", docs / "scan.pdf")
    store = tmp_path / "store.sqlite"
    first, chunks = run(docs, tmp_path / "off", store, "off")
    assert first["parsed"] == 1 and chunks == []  # needs_ocr: nothing read
    second, chunks = run(docs, tmp_path / "on", store, "tesseract")
    assert (second["parsed"], second["reused"]) == (1, 0)
    assert chunks and all(c["chunk_set"] == chunks[0]["chunk_set"] for c in chunks)
    third, _ = run(docs, tmp_path / "again", store, "tesseract")
    assert (third["parsed"], third["reused"]) == (0, 1)


def test_the_key_names_engine_version_and_resolution() -> None:
    on = settings_key(ParseOptions())
    assert on.startswith("ocr tesseract/") and on.endswith(" 300dpi") and "absent" not in on
    assert settings_key(ParseOptions(ocr_engine="off")) == "ocr off/off 300dpi"
    assert settings_key(ParseOptions(ocr_dpi=150)) != on
