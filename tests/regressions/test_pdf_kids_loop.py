"""A PDF whose page tree's /Kids holds the /Pages node itself (issue 39) ended as `internal_error
… please report`: the parser warned that the page cannot be read, then the gate's PDFium reading
loaded every page again and raised. The page PDFium cannot load is left out of the reading, as the
parser leaves it out of the document, with its `malformed` warning; the rest is chunked and gated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import parsegate
from tests.pdf_samples import assemble

pytest.importorskip("pypdfium2")


def _kids_loop() -> bytes:
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
        b"<< /Length 44 >>\nstream\nBT /F1 12 Tf 10 10 Td (Hello kids) Tj ET\nendstream",
    ]
    return assemble(objects)


def test_a_page_tree_that_holds_itself_is_read_as_far_as_it_goes(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "kids.pdf").write_bytes(_kids_loop())
    result = parsegate.run(corpus, tmp_path / "out", use_store=False, workers=1)
    assert (tmp_path / "out" / "quarantine.jsonl").read_text() == ""
    (record,) = [json.loads(line) for line in result.chunks_path.read_text().splitlines()]
    assert record["text"] == "Hello kids" and record["pages"] == [1]
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    (doc,) = run["files"]
    assert doc["status"] == "chunked" and [w["code"] for w in doc["warnings"]] == ["malformed"]
