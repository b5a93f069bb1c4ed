"""The one tokenizer pass: a document's tokens with their character offsets.

Every token count the chunker needs — a unit's, a candidate chunk's, a window's — is
read off this index by prefix sums: a span holds the tokens that start inside it. The
count is *exact* (what the tokenizer gives the span on its own) when both ends of the
span fall where no token straddles them and where the pre-tokenizer splits anyway
(whitespace, punctuation, CJK ideographs), for a tokenizer whose additivity was proven
when it was loaded (tokens/counter.py). Elsewhere the count is an estimate, and the span is
measured on its own before anything is promised about it.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import Protocol

_BLOCK = 16_384  # characters per piece of the one pass (cut at line ends), encoded in parallel
_WORD = re.compile(r"\S+")
_PLAIN_SPACE = " \t\n\r"  # (whitespace no normalizer deletes)


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
    document is split into words by a regular expression that mirrors BERT's, and each distinct
    word is counted once (wordpieces.py caches them across documents). A token never spans a
    space: prefix sums over the runs of non-space characters give the count of a span whose ends
    fall between runs (every span the chunker asks about, as a rule); an end inside a run takes
    that run's words one by one.

    A span's count is the difference of its ends' positions (the tokens before each), and each
    position is remembered: the chunker asks about the same few offsets, the ends of its units,
    over and over (a unit's end when it is measured, when a chunk reaches it, when a chunk is cut
    there, when the chunk is drafted), and a look-up costs a quarter of the two bisections."""

    def __init__(
        self, text: str, starts: list[int], ends: list[int], cumulative: list[int], words: WordsOf, offsets: OffsetsOf
    ) -> None:
        self.text = text
        self.starts = starts  # of each run
        self.ends = ends
        self.cumulative = cumulative  # tokens before each run; one more entry at the end
        self.words = words
        self.offsets = offsets
        self._runs: dict[int, tuple[list[int], list[int]]] = {}  # run → its words' starts and tokens
        self._positions: dict[int, int] = {}  # offset → tokens before it, as asked

    def count(self, start: int, end: int) -> int:
        positions = self._positions
        before_start = positions.get(start)
        if before_start is None:
            before_start = self._position(start)
        before_end = positions.get(end)
        if before_end is None:
            before_end = self._position(end)
        return before_end - before_start

    def _position(self, offset: int) -> int:
        """Tokens before ``offset`` (remembered): those of the runs that start before it, less
        the words of the run it falls inside that start at or after it."""
        run = bisect_left(self.starts, offset)
        n = self.cumulative[run]
        if run and offset < self.ends[run - 1]:
            n -= self._tokens_from(run - 1, offset)
        self._positions[offset] = n
        return n

    def exact(self, offset: int) -> bool:
        text = self.text
        if offset <= 0 or offset >= len(text):
            return True
        before, after = text[offset - 1], text[offset]
        # _splits' first answer asked of both sides before either is asked in full: nearly every
        # offset asked about (a chunk's end, after punctuation as often as not) has plain
        # whitespace on one side, and then no character needs its category looked up.
        return before in _PLAIN_SPACE or after in _PLAIN_SPACE or _splits(before) or _splits(after)

    def windows(self, start: int, end: int, limit: int) -> list[int]:
        """Between words where they fit; inside a word only when it alone is over the limit
        (then from the tokenizer's own offsets for that stretch)."""
        starts, counts = self._words_in(start, end)
        if any(n > limit for n in counts):
            return _balanced(self.offsets(start, end), start, limit)
        total = sum(counts)
        target = -(-total // -(-total // max(1, limit)))
        cuts: list[int] = []
        held = 0
        for word_start, n in zip(starts, counts, strict=True):
            if held and (held + n > limit or held >= target) and word_start > start:
                cuts.append(word_start)
                held = 0
            held += n
        return cuts

    def _run_words(self, run: int) -> tuple[list[int], list[int]]:
        """Starts (in the text) and tokens of one run's words."""
        found = self._runs.get(run)
        if found is None:
            base = self.starts[run]
            starts, counts = self.words(self.text[base : self.ends[run]])
            found = self._runs[run] = ([base + s for s in starts], counts)
        return found

    def _tokens_from(self, run: int, offset: int) -> int:
        """Tokens of the words of a run that start at or after ``offset``."""
        starts, counts = self._run_words(run)
        return sum(counts[bisect_left(starts, offset) :])

    def _words_in(self, start: int, end: int) -> tuple[list[int], list[int]]:
        """Starts and tokens of the words that start in [start, end)."""
        starts: list[int] = []
        counts: list[int] = []
        for run in range(max(0, bisect_right(self.starts, start) - 1), bisect_left(self.starts, end)):
            for word_start, n in zip(*self._run_words(run), strict=True):
                if start <= word_start < end:
                    starts.append(word_start)
                    counts.append(n)
        return starts, counts


OffsetsOf = Callable[[int, int], list[int]]
WordsOf = Callable[[str], tuple[list[int], list[int]]]  # a run → its words' starts (in it) and tokens


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
    # The two answers nearly every offset asked about gets (a chunk ends before a line break,
    # after a letter), before the general rule below, which they agree with.
    if ch in _PLAIN_SPACE:
        return True
    if ch.isascii() and ch.isalnum():
        return False
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
    return code >= _CJK_FROM and any(lo <= code <= hi for lo, hi in _CJK_RANGES)


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
_CJK_FROM = min(lo for lo, _ in _CJK_RANGES)
