"""Words, as the gate compares them between an independent extraction and the chunks.

Both sides go through the same normalization: Unicode compatibility folding (ligatures such as
"ﬁ" become "fi"), case folding, and a word hyphenated at a line end joined again ("exam-\\nple"),
which is how a text layer differs from the text a reader sees. Punctuation separates words, so
table pipes, Markdown markup and list bullets never count as words.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator

_WORD = re.compile(r"\w+")
_HYPHENATED = re.compile(r"(?<=\w)-[ \t]*\r?\n[ \t]*(?=[a-zà-ÿ])")


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", _HYPHENATED.sub("", text)).casefold()


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def bag(text: str) -> Counter[str]:
    return Counter(words(text))


def located(text: str) -> Iterator[tuple[str, int, int]]:
    """Each word of ``text`` with its span in ``text`` itself (no hyphen joining: the spans
    must stay exact; NFKC folding is applied word by word)."""
    for m in _WORD.finditer(text):
        yield unicodedata.normalize("NFKC", m.group(0)).casefold(), m.start(), m.end()
