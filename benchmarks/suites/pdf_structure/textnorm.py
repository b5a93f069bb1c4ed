"""One normalization for both sides of every comparison: the truth and what a tool extracted.

Layout engines change text on the way to the page (ligatures, curly quotes, hyphenation at line
ends, Arabic presentation forms); text layers add their own marks (PDFium writes U+FFFE for a
hyphen at a line end). Both sides go through ``words()``, so none of that counts as
an error, and nothing else is forgiven.
"""

from __future__ import annotations

import re
import unicodedata

_QUOTES = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‚": "'",
        "‛": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "‟": '"',
        "–": "-",
        "—": "-",
        "‐": "-",
        "\u0002": "-",
    }
)
# A hyphen inside a word joins it into one word, on both sides. An engine breaks a line at an
# author's hyphen ("sub-dependencies") and at one it inserts ("some-how") alike, and PDFium writes
# both as U+FFFE, often with no line break after it: the two cannot be told apart from the text
# layer, so no side keeps either. A soft hyphen (U+00AD) is invisible by definition.
_JOINER = re.compile(r"(?<=\w)[-\ufffe\u00ad][ \t]*(?:\r?\n[ \t]*)?(?=\w)")
_WORD = re.compile(r"\w+")


def normalize(text: str) -> str:
    """NFKC (ligatures, presentation forms), ASCII quotes and dashes, hyphenated words joined,
    no combining marks, casefolded."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = _JOINER.sub("", text).replace("\ufffe", "").replace("\u00ad", "")
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")  # Arabic harakat, stray accents
    return text.casefold()


def words(text: str) -> list[str]:
    """The word sequence of a text: runs of letters and digits, after ``normalize``."""
    return _WORD.findall(normalize(text))
