"""The gate's own reading of which PDF characters may be hidden (references/pdf.py,
``PdfPage.hidden_words``): by render mode, by fill, and by a box off the page, character by
character where a text object reaches over the page's edge."""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("pypdfium2")
fpdf = pytest.importorskip("fpdf")

from parsegate.quality_gates.references.pdf import open_pdf  # noqa: E402


def _hidden(draw: str) -> Counter[str]:
    pdf = fpdf.FPDF(format="A4", unit="pt")  # 595 points wide
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.text(72, 100, "Seen words stay out.")
    pdf.text(72, 180, "More seen text.")
    if draw == "white":
        pdf.set_text_color(255, 255, 255)
        pdf.text(72, 140, "white ink")
    elif draw == "invisible":
        pdf.text_mode = "INVISIBLE"
        pdf.text(72, 140, "mode three")
    elif draw == "across the edge":
        # One text object from x=520 to beyond 595: the words past the edge are off the page.
        pdf.text(520, 140, "edgeword " + " ".join(f"gone{i}" for i in range(8)))
    elif draw == "off the page":
        pdf.text(700, 140, "far away")
    source = open_pdf(bytes(pdf.output()))
    assert source is not None
    try:
        return source.pages[1].hidden_words()
    finally:
        source.close()


def test_seen_text_is_not_hidden() -> None:
    assert _hidden("nothing") == Counter()


def test_white_and_invisible_text_is_hidden() -> None:
    assert _hidden("white") == Counter({"white": 1, "ink": 1})
    assert _hidden("invisible") == Counter({"mode": 1, "three": 1})


def test_off_the_page_is_hidden_character_by_character() -> None:
    assert _hidden("off the page") == Counter({"far": 1, "away": 1})
    # Watched failing with every character of an object reaching over the edge taken as on the
    # page (the object's bounds alone): the words past x=595 went missing.
    hidden = _hidden("across the edge")
    assert "edgeword" not in hidden
    assert "gone0" not in hidden  # starts at about x=573: on the page
    assert {"gone2", "gone7"} <= set(hidden)
