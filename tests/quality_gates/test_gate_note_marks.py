"""The gate on a note's mark set small and raised in a sentence: PDFium's text runs it into the
word before it ("suitable1") and breaks its line there; the parser reads "suitable 1 for most
uses" as one line. Recall and localization count the words run together as found."""

from __future__ import annotations

from pathlib import Path

import parsegate
from tests.pdf_samples import one_page


def test_a_note_mark_the_text_layer_runs_into_its_word_is_found(tmp_path: Path) -> None:
    source = tmp_path / "note.pdf"
    source.write_bytes(
        one_page([
            (72, 700, 10, b"Rates set by the board are suitable"),
            (228.5, 704, 6, b"1"),
            (234, 700, 10, b"for most uses of the fund."),
            (72, 686, 10, b"The second line of the paragraph goes on here."),
            (72, 100, 8, b"1 A note at the foot."),
        ])
    )  # fmt: skip
    doc = parsegate.parse(source)
    assert doc.text.startswith("Rates set by the board are suitable 1 for most uses of the fund. The second line")
    chunks = parsegate.chunk(doc, max_tokens=256)
    verdict = parsegate.gate(doc, chunks, source=source, max_tokens=256)
    values = {c.metric: c.value for c in verdict.checks}
    assert values["extraction_recall"] == 1.0 and values["localization"] == 1.0 and verdict.passed
