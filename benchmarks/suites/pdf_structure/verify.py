"""Check a truth against the PDF it describes, independently of any parser under test.

Every word the truth says is on the pages (body, footnotes, figure labels, furniture) must be in
PDFium's raw text layer (``get_text_range()``) of that PDF, as often as the truth says; both sides
go through the same normalization (textnorm). A miss means the generator and the engine disagree
(the engine hyphenated, clipped, reordered or dropped text) and that generator must be fixed.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from benchmarks.suites.pdf_structure.textnorm import words


def pdfium_text(pdf_path: Path) -> list[str]:
    """The raw text layer, one string per page."""
    doc = pdfium.PdfDocument(pdf_path)
    try:
        pages = []
        for page in doc:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return pages
    finally:
        doc.close()


def truth_words(truth: dict[str, Any]) -> Counter[str]:
    texts = [*(b["text"] for b in truth["blocks"]), *truth["floating"], *truth["figure_labels"], *truth["furniture"]]
    return Counter(w for t in texts for w in words(t))


def check(truth: dict[str, Any], pdf_path: Path) -> tuple[Counter[str], Counter[str]]:
    """(truth words the text layer does not hold, right-to-left words it holds only in visual order).

    The second are text-layer defects, not truth errors: Chromium's PDFs of Arabic hold glyphs in
    visual order, which PDFium reads back reversed for some words, and Writer's lam-alef ligature
    comes back as alef-lam. The truth keeps the logical order; a parser has to restore it.
    """
    layer = Counter(words("\n".join(pdfium_text(pdf_path))))
    missing = truth_words(truth) - layer
    surplus = layer - truth_words(truth)
    visual: Counter[str] = Counter()
    for word, n in list(missing.items()):
        for variant in _visual_forms(word):
            take = min(n, surplus[variant])
            if take:
                visual[word] += take
                surplus[variant] -= take
                missing[word] -= take
                n -= take
    return +missing, visual


def _visual_forms(word: str) -> list[str]:
    if not any("\u0590" <= c <= "\u06ff" for c in word):
        return []
    swapped = _LAM_ALEF.sub(r"\1ل", word)
    return [word[::-1], swapped, swapped[::-1]]


_LAM_ALEF = re.compile("ل([اأإآ])")


def row_pages(rows: list[list[str]], pdf_path: Path) -> list[int]:
    """The 1-based page of each table row, where its words occur in a row on one page (0: not found)."""
    pages = [" " + " ".join(words(text)) + " " for text in pdfium_text(pdf_path)]
    out = []
    for row in rows:
        needle = " " + " ".join(w for cell in row for w in words(cell)) + " "
        out.append(next((n for n, page in enumerate(pages, 1) if needle in page), 0))
    return out
