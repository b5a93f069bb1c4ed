"""TeX sets an accent as a glyph of its own (OT1 Computer Modern: ´ ¨ ˇ ˆ ˜ ¸), before the letter
it is drawn over. Read in stream order the accent stood left of its letter's box, so the line was
cut there ("Paris M´" … "etro"), its halves filed as separate lines and the accents kept loose
(issue 35: 67 loose accents in the chunks of twelve Debian manuals, pdftotext 16). An accent is
composed with the letter it sits on, by position, and the text NFC-normalised ("Jiří", never
"Jiřı́" with a dotless i)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import parsegate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pdf" / "accents.pdf"  # accents.tex beside it


def test_tex_accents_compose_with_the_letter_they_sit_on() -> None:
    doc = parsegate.parse(FIXTURE)
    assert doc.text == (
        "The first line of the Paris Métro is opened. François Pinard wrote it at the "
        "Wirtschaftsuniversität Wien with Jiří Kosek, Timothée and Hans-Bernhard Bröker; a "
        "naïve rôle for El Niño."
    )
    assert unicodedata.is_normalized("NFC", doc.text)
    assert [(e.kind, e.start, e.end) for e in doc.elements] == [("paragraph", 0, len(doc.text))]
