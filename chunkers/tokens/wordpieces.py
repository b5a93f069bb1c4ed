"""Token counts for a plain BERT WordPiece tokenizer, one word at a time, remembered.

WordPiece splits each pre-token (a run of word characters, or one punctuation mark or CJK
ideograph) on its own, so a text's count is the sum of its words' counts, and a word's
count never changes. A corpus repeats its words: each distinct word is tokenized once
(in batches) and looked up ever after. The split below mirrors BERT's normalizer and
pre-tokenizer (whitespace, punctuation, CJK ideographs); a text holding control characters
that Python calls whitespace but the normalizer deletes, or the strings of special tokens,
goes to the tokenizer itself instead. counter.py checks the whole scheme against the tokenizer
on a probe text when it loads the file, and finalize.py checks a sample of every document.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from parsegate.chunkers.tokens.index import OffsetsOf, WordPieceIndex, is_cjk

# BERT's punctuation in ASCII (33-47, 58-64, 91-96, 123-126); beyond ASCII, category P*.
_ASCII_PUNCTUATION = r"!-/:-@\[-`{-~"
# One group around the whole word: findall gives the words, split the words and the gaps between.
_ASCII_WORDS = re.compile(rf"([^\s{_ASCII_PUNCTUATION}]+|[{_ASCII_PUNCTUATION}])")
_MAX_PATTERNS = 256
# Control characters that Python's regex calls whitespace but BERT's normalizer deletes, so that
# they join their neighbours into one word instead of separating them. (Every other control or
# format character is deleted too, but the regex already keeps it inside its word.) Looked for
# one by one: a search per character is several times as fast as a regex class over the text.
_JOINING_SPACE = "\x0b\x0c\x1c\x1d\x1e\x1f\x85"
_MAX_CACHED = 400_000  # distinct words (and runs) remembered; a cache starts over past this
# After each new run, in the one text of them all that is split into words (_run_counts): a word of
# its own between spaces (BERT's normalizer deletes it, a control character: 0 tokens).
_RUN_END = "\x00"
_RUN_SEPARATOR = f" {_RUN_END} "
_SPACES = re.compile(r"(\s+)")  # what str.split() splits at, kept
# A byte table that makes a text's gaps its words: the ASCII spaces become "x", every other byte
# (a UTF-8 byte beyond ASCII included) a space, so bytes.split() hands back the gaps.
_GAPS_AS_WORDS = bytes(0x78 if b in b" \t\n\r" else 0x20 for b in range(256))


class WordPieces:
    """Counts by runs of non-space characters ("foo.bar(x)," is one run of six words): a token never
    spans a space, so a run's count is the sum of its words', and a text's the sum of its runs'.
    Runs repeat as words do, and a text has fewer runs than words: both are remembered."""

    def __init__(
        self, tokenizer: Any, special_strings: list[str], whole: frozenset[str] | None = None, lower: bool = True
    ) -> None:
        """``whole``: the vocabulary's strings, and ``lower``: whether the normalizer lower-cases
        (see _learn_whole); without them every new word goes to the tokenizer."""
        self.tokenizer = tokenizer
        self.special_strings = [s for s in special_strings if s]
        self.whole = whole
        self.lower = lower
        # One search for them all: the text is read once, not once per special string.
        alternatives = "|".join(map(re.escape, self.special_strings))
        self._specials = re.compile(alternatives) if alternatives else None
        self.cache: dict[str, int] = {}  # word → tokens
        self.runs: dict[str, int] = {}  # run → tokens (the sum of its words')
        self.patterns: dict[str, re.Pattern[str]] = {}

    def usable(self, text: str) -> bool:
        """Can this text be counted word by word?"""
        if any(ch in text for ch in _JOINING_SPACE):
            return False
        return self._specials is None or self._specials.search(text) is None

    def index(self, text: str, offsets: OffsetsOf) -> WordPieceIndex:
        """The one pass over a document (``offsets``: the tokenizer's own token starts in a span,
        for a word alone over a window's limit)."""
        return WordPieceIndex(text, *self.split(text), self.words, offsets)

    def split(self, text: str) -> tuple[list[int], list[int], list[int]]:
        """Starts and ends of the text's runs, and tokens before each run (one more entry: the
        text's total)."""
        # Runs and offsets come out of C loops, no Python code per run or word.
        runs, lengths = _runs_and_lengths(text)
        offsets = list(itertools.accumulate(lengths, initial=0))  # where each run and gap starts
        self._learn_runs(runs)
        counts = self.runs
        return offsets[:-1:2], offsets[1::2], list(itertools.accumulate(map(counts.__getitem__, runs), initial=0))

    def words(self, run: str) -> tuple[list[int], list[int]]:
        """Starts of a run's words (in the run), and their tokens."""
        parts = self._pattern(run).split(run)  # [gap, word, gap, …, gap], the gaps empty
        words = parts[1::2]
        self._learn(words)
        cache = self.cache
        return list(itertools.accumulate(map(len, parts), initial=0))[1:-1:2], [cache[w] for w in words]

    def count(self, texts: list[str]) -> list[int]:
        split = [t.split() for t in texts]
        self._learn_runs([run for runs in split for run in runs])
        counts = self.runs
        return [sum(map(counts.__getitem__, runs)) for runs in split]

    def _learn_runs(self, runs: list[str]) -> None:
        missing = _missing(self.runs, runs)
        if not missing:
            return
        text = _RUN_SEPARATOR.join(missing) + _RUN_SEPARATOR  # each run, then its mark
        # One pattern for them all: it splits a run as any pattern made for a text holding it
        # would (the marks, ASCII and no punctuation, add nothing to it).
        pattern = self._pattern(text)
        if text.count(_RUN_END) > len(missing):  # a run holds the mark: it could not tell runs apart
            split = [pattern.findall(run) for run in missing]
            self._learn([w for words in split for w in words])
            cache = self.cache
            counts: Iterable[int] = (sum(map(cache.__getitem__, words)) for words in split)
        else:
            counts = self._run_counts(pattern.findall(text))
        self.runs.update(zip(missing, counts, strict=True))

    def _run_counts(self, words: list[str]) -> list[int]:
        """The runs' counts, from the words of them all with a mark after each run, a word of its
        own: each run's count is the running total at its mark less that at the mark before, and
        less the mark's own count (0 where the normalizer deletes it, as BERT's does). A split of
        each run alone cost twice the time on a first pass over a corpus (24k new runs in the
        fastapi docs)."""
        self._learn(words)  # the mark's count too, like any word's
        cache = self.cache
        totals = list(itertools.accumulate(map(cache.__getitem__, words)))
        ends = [totals[i] for i in itertools.compress(range(len(words)), map(_RUN_END.__eq__, words))]
        mark = cache[_RUN_END]
        return [b - a - mark for a, b in itertools.pairwise([0, *ends])]

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
        missing = _missing(self.cache, words)
        if missing and self.whole is not None:
            missing = self._learn_whole(missing)
        if not missing:
            return
        self.cache.update(zip(missing, self._tokens_of(missing), strict=True))

    def _tokens_of(self, words: list[str]) -> list[int]:
        """Each word's tokens, from one encoding of them all a space apart: a space ends a
        pre-token, so each word is tokenized as alone, and its tokens are those whose offsets
        start inside it (none, for a word the normalizer deletes). A batch of one encoding per
        word cost about 1.7x as much: an Encoding object each."""
        text = " ".join(words)
        if self._specials is not None and self._specials.search(text):  # a special string across words
            return [len(e.ids) for e in self.tokenizer.encode_batch_fast(words, add_special_tokens=False)]
        starts = [start for start, _ in self.tokenizer.encode(text, add_special_tokens=False).offsets]
        firsts = [bisect.bisect_left(starts, at) for at in itertools.accumulate((len(w) + 1 for w in words), initial=0)]
        return [b - a for a, b in itertools.pairwise(firsts)]

    def _learn_whole(self, words: list[str]) -> list[str]:
        """Learn the words the vocabulary holds whole, and give back the others. An ASCII word of
        letters and digits is one pre-token that the normalizer at most lower-cases, and
        WordPiece's longest match from its start is then the whole word: one token. Read off the
        vocabulary, such a word costs no tokenizer call (a chunker's first pass over a corpus
        spent a sixth of its time tokenizing new words one by one; about two in five of them are
        whole words of the vocabulary)."""
        whole, lower, cache = self.whole, self.lower, self.cache
        assert whole is not None
        rest: list[str] = []
        for word in words:
            if word.isascii() and word.isalnum() and (word.lower() if lower else word) in whole:
                cache[word] = 1
            else:
                rest.append(word)
        return rest


def _runs_and_lengths(text: str) -> tuple[list[str], list[int]]:
    """What ``_SPACES.split(text)`` says, [run, gap, run, …, run] (the first and last run empty
    where the text starts or ends with a space): the runs, and the lengths of runs and gaps.

    str.split() finds the runs three to four times as fast as the regular expression, and the gaps are
    found as the words of the text's bytes with spaces and the rest swapped (_GAPS_AS_WORDS).
    That holds when every space in the text is an ASCII space, tab or line end, which their
    lengths tell: only then do runs and ASCII gaps add up to the whole text. Else (a no-break
    space, say), the regular expression splits it."""
    runs = text.split()
    gaps = list(map(len, text.encode("utf-8", "surrogatepass").translate(_GAPS_AS_WORDS).split()))
    run_lengths = list(map(len, runs))
    if not text or sum(run_lengths) + sum(gaps) != len(text):
        parts = _SPACES.split(text)
        return parts[::2], list(map(len, parts))
    if text[0] in " \t\n\r":  # an empty run before the first gap
        runs.insert(0, "")
        run_lengths.insert(0, 0)
    if text[-1] in " \t\n\r":  # and after the last
        runs.append("")
        run_lengths.append(0)
    lengths = [0] * (len(run_lengths) + len(gaps))
    lengths[::2], lengths[1::2] = run_lengths, gaps  # (a ValueError, were they not interleaved)
    return runs, lengths


def _missing(cache: dict[str, int], keys: list[str]) -> list[str]:
    """The keys ``cache`` lacks; past its size limit it starts over, and then lacks them all (every
    key of this text is looked up right after)."""
    missing = list(set(keys).difference(cache))
    if missing and len(cache) + len(missing) > _MAX_CACHED:
        cache.clear()
        missing = list(set(keys))
    return missing


def _separate(ch: str) -> bool:
    """A character BERT always makes a word of its own: punctuation, or a CJK ideograph."""
    return unicodedata.category(ch).startswith("P") or is_cjk(ch)
