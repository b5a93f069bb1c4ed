"""Text normalization for the text we build from PDFium's glyphs."""

from __future__ import annotations

import unicodedata


def normalize(text: str) -> str:
    """Ligatures (ﬁ → fi) and odd whitespace folded; the text is ours to normalize."""
    return " ".join(unicodedata.normalize("NFKC", text).split())
