"""Token counts for a plain BERT WordPiece tokenizer, one word at a time, remembered.

WordPiece splits each pre-token (a run of word characters, or one punctuation mark or CJK
ideograph) on its own, so a text's count is the sum of its words' counts, and a word's
count never changes. A corpus repeats its words: each distinct word is tokenized once
(in batches) and looked up ever after. The split below mirrors BERT's normalizer and
pre-tokenizer (whitespace, punctuation, CJK ideographs); a text holding control characters
that Python calls whitespace but the normalizer deletes, or the strings of special tokens,
goes to the tokenizer itself instead. budget.py checks the whole scheme against the tokenizer
on a probe text when it loads the file, and records.py checks a sample of every document.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Any

from parsegate.chunkers.tokens import is_cjk

# BERT's punctuation in ASCII (33-47, 58-64, 91-96, 123-126); beyond ASCII, category P*.
_ASCII_PUNCTUATION = r"!-/:-@\[-`{-~"
# One group around the whole word: findall gives the words, split the words and the gaps between.
_ASCII_WORDS = re.compile(rf"([^\s{_ASCII_PUNCTUATION}]+|[{_ASCII_PUNCTUATION}])")
_MAX_PATTERNS = 256
# Control characters that Python's regex calls whitespace but BERT's normalizer deletes, so that
# they join their neighbours into one word instead of separating them. (Every other control or
# format character is deleted too, but the regex already keeps it inside its word.)
_JOINING_SPACE = re.compile(r"[\x0b\x0c\x1c-\x1f\x85]")
_MAX_CACHED = 400_000  # distinct words remembered; the cache starts over past this


class WordPieces:
    def __init__(self, tokenizer: Any, special_strings: list[str]) -> None:
        self.tokenizer = tokenizer
        self.special_strings = [s for s in special_strings if s]
        self.cache: dict[str, int] = {}
        self.patterns: dict[str, re.Pattern[str]] = {}

    def usable(self, text: str) -> bool:
        """Can this text be counted word by word?"""
        return not _JOINING_SPACE.search(text) and not any(s in text for s in self.special_strings)

    def split(self, text: str) -> tuple[list[int], list[int]]:
        """Word starts, and tokens before each word (one more entry: the text's total)."""
        # [gap, word, gap, word, …, gap]: words and offsets come out of C loops (a Python loop over
        # the matches, with a start() and a group() call for each word, took twice as long).
        parts = self._pattern(text).split(text)
        words = parts[1::2]
        offsets = list(itertools.accumulate(map(len, parts), initial=0))  # where each part starts
        self._learn(words)
        cache = self.cache
        return offsets[1:-1:2], list(itertools.accumulate(map(cache.__getitem__, words), initial=0))

    def count(self, texts: list[str]) -> list[int]:
        split = [self._pattern(t).findall(t) for t in texts]
        self._learn([w for words in split for w in words])
        cache = self.cache
        return [sum(map(cache.__getitem__, words)) for words in split]

    def _pattern(self, text: str) -> re.Pattern[str]:
        """The word pattern for this text: ASCII punctuation, plus the punctuation marks and CJK
        ideographs beyond ASCII that this text holds (a class of a few characters matches far
        faster than one of all of Unicode's)."""
        if text.isascii():
            return _ASCII_WORDS
        own = "".join(sorted(ch for ch in set(text) if not ch.isascii() and _separate(ch)))
        if not own:
            return _ASCII_WORDS
        pattern = self.patterns.get(own)
        if pattern is None:
            if len(self.patterns) >= _MAX_PATTERNS:
                self.patterns.clear()
            marks = _ASCII_PUNCTUATION + re.escape(own)
            pattern = self.patterns[own] = re.compile(rf"([^\s{marks}]+|[{marks}])")
        return pattern

    def _learn(self, words: list[str]) -> None:
        missing = list(set(words).difference(self.cache))
        if not missing:
            return
        if len(self.cache) + len(missing) > _MAX_CACHED:
            self.cache.clear()  # starting over: every word of this text is looked up next
            missing = list(set(words))
        encodings = self.tokenizer.encode_batch_fast(missing, add_special_tokens=False)
        self.cache.update(zip(missing, (len(e.ids) for e in encodings), strict=True))


def _separate(ch: str) -> bool:
    """A character BERT always makes a word of its own: punctuation, or a CJK ideograph."""
    return unicodedata.category(ch).startswith("P") or is_cjk(ch)
