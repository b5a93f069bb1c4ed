"""The gate's words (quality_gates/words.py), as an independent extraction and the chunks are
compared."""

from __future__ import annotations

from parsegate.quality_gates.words import words


def test_an_accent_is_the_same_word_however_the_text_encodes_it() -> None:
    # PDFium's text of a TeX-made PDF keeps the accent a glyph of its own, before or after its
    # letter ("universit¨at", "M´etro", "Fran¸cois"); the PDF parser composes it ("universität",
    # NFC), pdftotext decomposes it ("universita\u0308t"). The PDF parser's accents made every
    # such word "not inside its boxes" (localization) and lost from the page (recall).
    layer = words("Wirtschaftsuniversit\u00a8at Wien, Paris M\u00b4etro, Fran\u00b8cois, Ji\u02c7r\u00b4\u0131")
    composed = words("Wirtschaftsuniversität Wien, Paris Métro, François, Jiří")
    decomposed = words("Wirtschaftsuniversita\u0308t Wien, Paris Me\u0301tro, Franc\u0327ois, Jir\u030ci\u0301")
    assert layer == composed == decomposed == ["wirtschaftsuniversitat", "wien", "paris", "metro", "francois", "jiri"]
