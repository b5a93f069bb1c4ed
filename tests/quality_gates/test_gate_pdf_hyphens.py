"""The gate on a word the PDF parser joins across a page break ("filesys-" at a page's foot,
"tems" at the next page's head: tests/fixtures/pdf/hyphen.tex). PDFium's text of the first
page's box ends the word with its hyphen mark; the chunk holds it whole. Read box by box the
word was "not inside its boxes" and the document failed localization (threshold 1.0)."""

from __future__ import annotations

from pathlib import Path

import parsegate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "hyphen.pdf"


def test_a_word_hyphenated_at_a_page_foot_and_held_whole_is_localized() -> None:
    doc = parsegate.parse(FIXTURE)
    chunks = parsegate.chunk(doc, max_tokens=256)
    assert any("filesystems" in c.text for c in chunks)
    verdict = parsegate.gate(doc, chunks, source=FIXTURE, max_tokens=256)
    localization = next(c for c in verdict.checks if c.metric == "localization")
    assert localization.value == 1.0 and verdict.passed
