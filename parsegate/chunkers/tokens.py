"""The one tokenizer pass: a document's tokens with their character offsets.

Every token count the chunker needs — a unit's, a candidate chunk's, a window's — is
read off this index by prefix sums: a span holds the tokens that start inside it. The
count is *exact* (what the tokenizer gives the span on its own) when both ends of the
span fall where no token straddles them and where the pre-tokenizer splits anyway
(whitespace, punctuation, CJK ideographs), for a tokenizer whose additivity was proven
when it was loaded (budget.py). Elsewhere the count is an estimate, and the span is
measured on its own before anything is promised about it.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from array import array
from collections.abc import Callable
from typing import Protocol

_BLOCK = 16_384  # characters per piece of the one pass (cut at line ends), encoded in parallel
_WORD = re.compile(r"\S+")


class SpanIndex(Protocol):
    def count(self, start: int, end: int) -> int:
        """Tokens of ``text[start:end]`` (no special tokens)."""
        ...

    def exact(self, offset: int) -> bool:
        """True where a span may end or start with its count staying exact."""
        ...

    def windows(self, start: int, end: int, limit: int) -> list[int]:
        """Offsets that cut ``text[start:end]`` into pieces of at most ``limit`` tokens,
        of balanced size, between tokens."""
        ...


class OffsetIndex:
    """Token offsets from a Hugging Face tokenizer, one pass over the whole text."""

    def __init__(self, text: str, starts: array[int], ends: array[int], additive: bool) -> None:
        self.text = text
        self.starts = starts
        self.ends = ends
        self.additive = additive

    def count(self, start: int, end: int) -> int:
        return bisect.bisect_left(self.starts, end) - bisect.bisect_left(self.starts, start)

    def exact(self, offset: int) -> bool:
        if not self.additive:
            return False
        text = self.text
        if offset <= 0 or offset >= len(text):
            return True
        i = bisect.bisect_left(self.starts, offset)
        if i > 0 and self.ends[i - 1] > offset:
            return False  # a token (a word the normalizer joined, an added token) straddles it
        return _splits(text[offset - 1]) or _splits(text[offset])

    def windows(self, start: int, end: int, limit: int) -> list[int]:
        lo, hi = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
        return _balanced([self.starts[i] for i in range(lo, hi)], start, limit)


class WordPieceIndex:
    """The same counts for a WordPiece tokenizer over BERT's pre-tokenizer, without running the
    tokenizer over the document: a WordPiece count depends on the pre-token (word) alone, so the
    document is split into pre-tokens by a regular expression that mirrors BERT's, and each
    distinct word is counted once (wordpieces.py caches them across documents). Prefix sums
    over the words give every span's count."""

    def __init__(self, text: str, starts: list[int], cumulative: list[int], offsets: OffsetsOf) -> None:
        self.text = text
        self.starts = starts
        self.cumulative = cumulative  # tokens before each word; one more entry at the end
        self.offsets = offsets

    def count(self, start: int, end: int) -> int:
        cum = self.cumulative
        return cum[bisect.bisect_left(self.starts, end)] - cum[bisect.bisect_left(self.starts, start)]

    def exact(self, offset: int) -> bool:
        text = self.text
        return offset <= 0 or offset >= len(text) or _splits(text[offset - 1]) or _splits(text[offset])

    def windows(self, start: int, end: int, limit: int) -> list[int]:
        """Between words where they fit; inside a word only when it alone is over the limit
        (then from the tokenizer's own offsets for that stretch)."""
        lo, hi = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
        cum = self.cumulative
        if any(cum[i + 1] - cum[i] > limit for i in range(lo, hi)):
            return _balanced(self.offsets(start, end), start, limit)
        total = cum[hi] - cum[lo]
        target = -(-total // -(-total // max(1, limit)))
        cuts: list[int] = []
        held = 0
        for i in range(lo, hi):
            n = cum[i + 1] - cum[i]
            if held and (held + n > limit or held >= target) and self.starts[i] > start:
                cuts.append(self.starts[i])
                held = 0
            held += n
        return cuts


OffsetsOf = Callable[[int, int], list[int]]


class CharIndex:
    """Characters as tokens: every count is exact."""

    def __init__(self, text: str) -> None:
        self.text = text

    def count(self, start: int, end: int) -> int:
        return max(0, end - start)

    def exact(self, offset: int) -> bool:
        return True

    def windows(self, start: int, end: int, limit: int) -> list[int]:
        n = end - start
        pieces = -(-n // max(1, limit))
        size = -(-n // max(1, pieces))
        return list(range(start + size, end, size))


class WordIndex:
    """Whitespace-separated words as tokens."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = array("q", (m.start() for m in _WORD.finditer(text)))

    def count(self, start: int, end: int) -> int:
        return bisect.bisect_left(self.starts, end) - bisect.bisect_left(self.starts, start)

    def exact(self, offset: int) -> bool:
        text = self.text
        return offset <= 0 or offset >= len(text) or text[offset - 1].isspace() or text[offset].isspace()

    def windows(self, start: int, end: int, limit: int) -> list[int]:
        lo, hi = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
        return _balanced([self.starts[i] for i in range(lo, hi)], start, limit)


def blocks(text: str, size: int = _BLOCK) -> list[tuple[int, int]]:
    """Cut ``text`` into pieces of about ``size`` characters, each ending at a line end
    (a line break is whitespace to every pre-tokenizer we accept as additive)."""
    out = []
    start = 0
    while start < len(text):
        cut = text.find("\n", start + size)
        end = len(text) if cut == -1 else cut + 1
        out.append((start, end))
        start = end
    return out


def _balanced(token_starts: list[int], start: int, limit: int) -> list[int]:
    """Cut before every ``size``-th token, ``size`` chosen so that the pieces come out even."""
    n = len(token_starts)
    limit = max(1, limit)
    if n <= limit:
        return []
    pieces = -(-n // limit)
    size = -(-n // pieces)
    return [token_starts[i] for i in range(size, n, size) if token_starts[i] > start]


def _splits(ch: str) -> bool:
    """Does a BERT-style pre-tokenizer always split next to this character? Not next to a
    control or format character: the normalizer deletes those, joining their neighbours."""
    category = unicodedata.category(ch)
    if category in ("Cc", "Cf", "Co", "Cn") and ch not in "\t\n\r":
        return False
    if ch.isspace():
        return True
    code = ord(ch)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    if is_cjk(ch):
        return True  # CJK ideographs are split one by one
    return category.startswith("P")


def is_cjk(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in _CJK_RANGES)


# The ranges BERT's normalizer puts spaces around (``_is_chinese_char``).
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
