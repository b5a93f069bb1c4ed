"""A --password given for one PDF of a corpus must not lock the others out (issue 39): a PDF
encrypted with an owner password only opens with the empty password and refuses any other, so
every such file failed `wrong_password` once a password was given. The empty password is tried
first, then the one given, by the parser and by the gate's PDFium reading alike."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import parsegate
from parsegate.parsers.options import ParseOptions
from tests.conftest import corpus_dir

pytest.importorskip("pypdfium2")
OWNER_ONLY = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "owner-password-only.pdf"


def test_an_owner_password_pdf_opens_with_or_without_a_password_given() -> None:
    plain = parsegate.parse(OWNER_ONLY)
    given = parsegate.parse(OWNER_ONLY, options=ParseOptions(password="test"))
    assert given.text == plain.text and "Calibration" in plain.text


def test_one_password_for_a_corpus_opens_its_file_and_leaves_the_others_readable(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(OWNER_ONLY, corpus / "owner-only.pdf")
    shutil.copy(corpus_dir("pdf") / "password-example.pdf", corpus / "needs-test.pdf")
    result = parsegate.run(corpus, tmp_path / "out", options=ParseOptions(password="test"), use_store=False, workers=1)
    docs = {json.loads(line)["doc_id"] for line in result.chunks_path.read_text().splitlines()}
    quarantined = (tmp_path / "out" / "quarantine.jsonl").read_text()
    assert docs == {"owner-only.pdf", "needs-test.pdf"}, quarantined
