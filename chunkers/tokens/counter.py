"""Token budgets, counted with a real tokenizer on exactly the string that is embedded.

A ``Counter`` answers: how many tokens a string costs as the embedder sees it (special
tokens included), how many each of many strings costs without special tokens, and —
the one pass the chunker makes over a document — every token's character offsets
(``index``), from which index.py reads the count of any span.

A tokenizer is *additive* when the count of a text cut at a pre-token boundary is the
sum of its pieces' counts. The chunker then reads counts off the one pass instead of
tokenizing again; ``HFCounter`` proves it for the file actually loaded — its normalizer,
pre-tokenizer and model by type, then by measuring spans of a probe text full of the
characters that break it (control characters the normalizer drops, added tokens,
special-token strings, CJK, over-long words) against counts of the spans alone.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import json
import re
from array import array
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import orjson
from tokenizers import Tokenizer

from parsegate.chunkers.tokens.index import CharIndex, OffsetIndex, SpanIndex, WordIndex, blocks
from parsegate.chunkers.tokens.wordpieces import WordPieces

DEFAULT_TOKENIZER = "all-MiniLM-L6-v2"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Shipped as package data (Apache-2.0, see its NOTICE): budgets need no 88 MB model package.
_DEFAULT_FILES = Path(__file__).parents[1] / "data" / DEFAULT_TOKENIZER  # chunkers/data/
_FALLBACK_MAX = 512
_MAX_UNKNOWN_RUNS = 200_000  # distinct runs whose unknown characters are remembered
# The probes' verdicts (additive, counted word by word) for the tokenizer files parsegate ships,
# by fingerprint (a hash of the file's bytes): measuring them took about 7 ms of every worker's
# and every command's start. tests/chunkers/test_tokens.py measures them again and fails on a stale entry.
PROVEN: dict[str, tuple[bool, bool]] = {"all-MiniLM-L6-v2@sha256:be50c3628f2bf5bb": (True, True)}
_PROBE = (
    "The fee (EUR 3.50) is waived\u2014except on Sundays; see https://x.example/a?b=1.\n\n"
    'lower-case text. no capitals here, e.g. this one… "Quoted!" [MASK] [CLS] [SEP] [UNK] <s> </s>\n'
    "tab\tseparated\x0bvertical\x0cform\x1cfile\x1dgroup\x1erecord\x1funit\x85next\u2028line\u00a0nbsp "
    "Ünïcödé naïve café ﬁnance ½ ① 東京都は日本の首都です。カタカナ ひらがな 한국어 עברית العربية "
    "émoji 🙂👍🏽 " + "x" * 120 + " a|b|c 1,234,567.89 — – - _under_score_ $100 50% #tag @user\r\nend"
)


class TokenizerUnavailable(Exception):
    pass


class Counter(Protocol):
    name: str
    fingerprint: str  # changes when counting would change
    default_max: int
    model_max: int | None  # the embedding model's declared maximum sequence length, when known

    @property
    def specials(self) -> int:
        """Tokens the embedder adds around any text."""
        ...

    @property
    def additive(self) -> bool:
        """True when counts read off the one pass are exact at pre-token boundaries (see above)."""
        ...

    def count(self, text: str) -> int:
        """Tokens of ``text`` as embedded, special tokens included."""
        ...

    def count_many(self, texts: list[str]) -> list[int]:
        """Tokens of each text without special tokens."""
        ...

    def count_embedded(self, texts: list[str]) -> list[int]:
        """Tokens of each text as embedded, special tokens included (one batch)."""
        ...

    def index(self, text: str) -> SpanIndex:
        """The one pass over a document: every token with its offsets."""
        ...

    def unknown_chars(self, texts: list[str]) -> list[int] | None:
        """Characters of each text the tokenizer reads as its unknown token (a 200 KB base64 blob
        is one [UNK]); None when it has no unknown token."""
        ...


class HFCounter:
    """Any Hugging Face ``tokenizer.json``, loaded with ``tokenizers`` (no torch, no network).

    Its name, fingerprint (a hash of the file's bytes), maximum and special-token count are read
    off the file; the tokenizer itself is built, and proved additive, on first count. A run that
    parses nothing (an unchanged re-run) never needs it: building it and the probes took about
    50 ms of such a run."""

    def __init__(self, path: Path, name: str, default_max: int | None = None) -> None:
        self._raw = path.read_bytes()
        self.name = name
        self.fingerprint = f"{name}@sha256:{hashlib.sha256(self._raw).hexdigest()[:16]}"
        self.spec: dict[str, object] = _file_spec(self._raw)
        self.model_max = _declared_max(path, self.spec)
        self.default_max = default_max or self.model_max or _FALLBACK_MAX
        self._additive = False  # what _offsets assumes; True while the probe measures it
        self._probed: tuple[bool, WordPieces | None] | None = None
        # Built on first use and kept.
        self._tokenizer: Tokenizer | None = None
        self._specials: int | None = None
        self._unknown: dict[str, int] = {}  # run -> its characters inside unknown tokens

    @property
    def tokenizer(self) -> Tokenizer:
        if self._tokenizer is None:
            self._tokenizer = _file_tokenizer(self._raw)
        return self._tokenizer

    @property
    def specials(self) -> int:
        if self._specials is None:
            declared = _declared_specials(self.spec)
            self._specials = (
                declared if declared is not None else len(self.tokenizer.encode("", add_special_tokens=True).ids)
            )
        return self._specials

    @property
    def additive(self) -> bool:
        return self._probe()[0]

    @property
    def words(self) -> WordPieces | None:
        return self._probe()[1]

    def _probe(self) -> tuple[bool, WordPieces | None]:
        if self._probed is None:
            known = PROVEN.get(self.fingerprint)
            self._probed = self._measure() if known is None else self._proven(*known)
        return self._probed

    def _measure(self) -> tuple[bool, WordPieces | None]:
        additive = _splits_at_whitespace(self.spec) and self._probe_additive(self.spec)
        self._additive = additive
        words = self._probe_words(self.spec) if additive and _plain_wordpiece(self.spec) else None
        return additive, words

    def _proven(self, additive: bool, by_words: bool) -> tuple[bool, WordPieces | None]:
        self._additive = additive
        return additive, WordPieces(
            self.tokenizer, _special_strings(self.spec), *_file_whole_words(self._raw)
        ) if by_words else None

    def count(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=True).ids)

    def count_many(self, texts: list[str]) -> list[int]:
        if not texts:
            return []
        words = self.words
        if words is not None and all(words.usable(t) for t in texts):
            return words.count(texts)
        # encode_batch_fast skips offsets, which counting does not need.
        return [len(e) for e in self.tokenizer.encode_batch_fast(texts, add_special_tokens=False)]

    def count_embedded(self, texts: list[str]) -> list[int]:
        # A count needs the length alone: encode_batch_fast computes no offsets, and len() of an
        # encoding builds no list of ids. Faster than encode() one by one for small batches too
        # (88 documents of 1-8 chunks: 0.23 s against 0.31 s of CPU).
        return [len(e) for e in self.tokenizer.encode_batch_fast(texts, add_special_tokens=True)]

    def unknown_chars(self, texts: list[str]) -> list[int] | None:
        model = self.spec.get("model")
        unk = model.get("unk_token") if isinstance(model, dict) else None
        unk_id = self.tokenizer.token_to_id(unk) if isinstance(unk, str) else None
        if unk_id is None:
            return None
        longest = model.get("max_input_chars_per_word") if isinstance(model, dict) else None
        limit = longest if isinstance(longest, int) else 100
        out = [0] * len(texts)
        # Only a text with a word longer than the model takes, or a character beyond ASCII, can
        # hold an unknown token: most texts are not encoded again.
        maybe = [i for i, t in enumerate(texts) if not t.isascii() or _long_word(t, limit)]
        words = self.words
        by_runs: list[int] = []
        whole: list[int] = []
        for i in maybe:
            (by_runs if words is not None and words.usable(texts[i]) else whole).append(i)
        if by_runs:
            # Read run by run (WordPiece reads each run of non-space characters alone, as the
            # counts do): only the runs that can hold one, each distinct run once.
            runs = {i: [r for r in texts[i].split() if not r.isascii() or len(r) > limit] for i in by_runs}
            cache = self._unknown_runs(sorted({r for rs in runs.values() for r in rs}), unk_id)
            for i, rs in runs.items():
                out[i] = sum(map(cache.__getitem__, rs))
        encodings = self.tokenizer.encode_batch([texts[i] for i in whole], add_special_tokens=False)
        for i, encoding in zip(whole, encodings, strict=True):
            pairs = zip(encoding.ids, encoding.offsets, strict=True)
            out[i] = sum(end - start for token, (start, end) in pairs if token == unk_id)
        return out

    def _unknown_runs(self, runs: list[str], unk_id: int) -> dict[str, int]:
        """The characters of each run inside unknown tokens, remembered: the runs not seen yet are
        encoded once, a space apart (a space ends a pre-token: each is read as alone)."""
        cache = self._unknown
        missing = [r for r in runs if r not in cache]
        if not missing:
            return cache
        if len(cache) + len(missing) > _MAX_UNKNOWN_RUNS:
            cache.clear()
            missing = runs
        starts = list(itertools.accumulate((len(r) + 1 for r in missing), initial=0))
        found = dict.fromkeys(missing, 0)
        encoding = self.tokenizer.encode(" ".join(missing), add_special_tokens=False)
        for token, (start, end) in zip(encoding.ids, encoding.offsets, strict=True):
            if token == unk_id:
                found[missing[bisect.bisect_right(starts, start) - 1]] += end - start
        cache.update(found)
        return cache

    def index(self, text: str) -> SpanIndex:
        if self.words is not None and self.words.usable(text):
            return self.words.index(text, lambda a, b: self._token_starts(text, a, b))
        return self._offsets(text)

    def _token_starts(self, text: str, start: int, end: int) -> list[int]:
        offsets = self.tokenizer.encode(text[start:end], add_special_tokens=False).offsets
        return [start + s for s, _ in offsets]

    def _offsets(self, text: str) -> OffsetIndex:
        pieces = blocks(text)
        encodings = self.tokenizer.encode_batch([text[s:e] for s, e in pieces], add_special_tokens=False)
        starts: array[int] = array("q")
        ends: array[int] = array("q")
        for (base, _), encoding in zip(pieces, encodings, strict=True):
            for start, end in encoding.offsets:
                starts.append(base + start)
                ends.append(base + end)
        return OffsetIndex(text, starts, ends, self._additive)

    def _probe_additive(self, spec: dict[str, object]) -> bool:
        """Measure, on a text made to break it, that every span between exact offsets costs
        what the one pass says (the strings of the file's own added tokens included)."""
        added = spec.get("added_tokens")
        extra = [t["content"] for t in added if isinstance(t, dict)] if isinstance(added, list) else []
        probe = _PROBE + " " + " ".join(f"x{t}y {t}" for t in extra if isinstance(t, str))
        self._additive = True
        index = self._offsets(probe)
        cuts = [i for i in range(len(probe) + 1) if index.exact(i)]
        spans = [(a, b) for a, b in zip(cuts, cuts[7:], strict=False)] + [(0, c) for c in cuts[1::5]]
        texts = [probe[a:b] for a, b in spans]
        direct = [len(e.ids) for e in self.tokenizer.encode_batch_fast(texts, add_special_tokens=False)]
        return all(index.count(a, b) == n for (a, b), n in zip(spans, direct, strict=True))

    def _probe_words(self, spec: dict[str, object]) -> WordPieces | None:
        """Word-by-word counting, if it gives the tokenizer's own counts on the probe text."""
        words = WordPieces(self.tokenizer, _special_strings(spec), *_file_whole_words(self._raw))
        probe = _CONTROL.sub(" ", _PROBE)
        probe = "".join(ch if words.usable(ch) else " " for ch in probe)
        for special in words.special_strings:
            probe = probe.replace(special, " ")
        if not words.usable(probe):
            return None
        index = self._offsets(probe)
        cuts = [i for i in range(len(probe) + 1) if index.exact(i)]
        by_words = words.index(probe, lambda a, b: [])
        spans = list(zip(cuts, cuts[5:], strict=False)) + [(0, c) for c in cuts[1::5]]
        agree = all(by_words.count(a, b) == index.count(a, b) for a, b in spans)
        direct = [len(e.ids) for e in self.tokenizer.encode_batch_fast([probe], add_special_tokens=False)]
        return words if agree and words.count([probe]) == direct else None


class CharCounter:
    name = "chars"
    fingerprint = "chars"
    default_max = 1024
    model_max: int | None = None
    specials = 0
    additive = True  # every character counts, the whitespace between units too

    def count(self, text: str) -> int:
        return len(text)

    def count_many(self, texts: list[str]) -> list[int]:
        return [len(t) for t in texts]

    def count_embedded(self, texts: list[str]) -> list[int]:
        return [len(t) for t in texts]

    def unknown_chars(self, texts: list[str]) -> list[int] | None:
        return None  # characters are never unknown

    def index(self, text: str) -> CharIndex:
        return CharIndex(text)


class WordCounter:
    name = "words"
    fingerprint = "words"
    default_max = 200
    model_max: int | None = None
    specials = 0
    additive = True

    def count(self, text: str) -> int:
        return len(text.split())

    def count_many(self, texts: list[str]) -> list[int]:
        return [len(t.split()) for t in texts]

    def count_embedded(self, texts: list[str]) -> list[int]:
        return self.count_many(texts)

    def unknown_chars(self, texts: list[str]) -> list[int] | None:
        return None  # words are never unknown

    def index(self, text: str) -> WordIndex:
        return WordIndex(text)


def _long_word(text: str, limit: int) -> bool:
    """A run of non-space characters longer than a WordPiece model reads as a word (100)."""
    return any(len(word) > limit for word in text.split()) if len(text) > limit else False


def _special_strings(spec: dict[str, object]) -> list[str]:
    added = spec.get("added_tokens")
    tokens = added if isinstance(added, list) else []
    return [t["content"] for t in tokens if isinstance(t, dict) and isinstance(t.get("content"), str)]


def _splits_at_whitespace(spec: dict[str, object]) -> bool:
    """BERT-style tokenizers (WordPiece over BertPreTokenizer, per-character normalizers) never
    let a token span whitespace, so their counts add up over whitespace-joined pieces."""
    model = spec.get("model")
    pre = spec.get("pre_tokenizer")
    norm = spec.get("normalizer")
    return (
        isinstance(model, dict)
        and model.get("type") == "WordPiece"
        and isinstance(pre, dict)
        and pre.get("type") == "BertPreTokenizer"
        and (norm is None or (isinstance(norm, dict) and norm.get("type") in ("BertNormalizer", "Lowercase")))
    )


def _whole_words(spec: dict[str, object]) -> tuple[frozenset[str] | None, bool]:
    """The WordPiece vocabulary's strings, and whether the normalizer lower-cases (BERT's by
    default, Lowercase always, none never): for words the vocabulary holds whole (wordpieces.py)."""
    model = spec.get("model")
    vocab = model.get("vocab") if isinstance(model, dict) else None
    norm = spec.get("normalizer")
    lower = isinstance(norm, dict) and (norm.get("type") == "Lowercase" or norm.get("lowercase", True) is not False)
    return (frozenset(vocab) if isinstance(vocab, dict) else None), lower


def _plain_wordpiece(spec: dict[str, object]) -> bool:
    """No added token that text could contain except the special ones (those strings are looked
    for in each text, which then goes to the tokenizer itself)."""
    added = spec.get("added_tokens")
    tokens = added if isinstance(added, list) else []
    return all(isinstance(t, dict) and t.get("special") for t in tokens)


def _spec(raw: bytes) -> dict[str, object]:
    try:
        spec = orjson.loads(raw)  # a fifth of the time of json's, for the 700 KB default
    except orjson.JSONDecodeError:
        spec = json.loads(raw)  # NaN and friends, which Python's json reads
    if not isinstance(spec, dict):
        raise ValueError("a tokenizer.json holds a JSON object")
    return spec


def _declared_specials(spec: dict[str, object]) -> int | None:
    """The special tokens a single text gets, when the file's post-processor says so plainly
    (BERT's, or a template of special tokens around the text); None: ask the tokenizer."""
    post = spec.get("post_processor")
    if isinstance(post, dict) and post.get("type") == "BertProcessing":
        return 2
    if not isinstance(post, dict) or post.get("type") != "TemplateProcessing":
        return None
    single, table = post.get("single"), post.get("special_tokens")
    if not isinstance(single, list) or not isinstance(table, dict):
        return None
    count = 0
    for piece in single:
        special = piece.get("SpecialToken") if isinstance(piece, dict) else None
        entry = table.get(special.get("id")) if isinstance(special, dict) else None
        if isinstance(special, dict):
            if not isinstance(entry, dict) or not isinstance(entry.get("ids"), list):
                return None
            count += len(entry["ids"])
    return count


def _declared_max(path: Path, spec: dict[str, object]) -> int | None:
    """The model's maximum sequence length, from sentence-transformers' config beside the file."""
    st_config = path.parent / "sentence_bert_config.json"
    if st_config.exists():
        value = json.loads(st_config.read_text()).get("max_seq_length")
        if isinstance(value, int):
            return value
    truncation = spec.get("truncation")
    if isinstance(truncation, dict) and isinstance(truncation.get("max_length"), int):
        return int(truncation["max_length"])
    return None


def default_tokenizer_path() -> Path:
    """all-MiniLM-L6-v2's tokenizer.json, shipped inside parsegate (its folder's
    sentence_bert_config.json gives the model's maximum, 256)."""
    path = _DEFAULT_FILES / "tokenizer.json"
    if not path.is_file():  # a broken install, not a user error: say what is missing
        raise TokenizerUnavailable(
            f"the default tokenizer ({DEFAULT_TOKENIZER}) is missing from this installation ({path}): "
            "reinstall parsegate, or pass --tokenizer PATH/TO/tokenizer.json|chars|words"
        )
    return path


# What a tokenizer file holds, read once per process: the parsed file, the tokenizer built from
# it, its vocabulary's whole words. Immutable, and the same for every counter of that file. What
# a counter learns from the text it counts (its word and run counts) is its own: a Chunker's
# counter starts cold (load_counter builds a new one each call).
@lru_cache(maxsize=8)
def _file_spec(raw: bytes) -> dict[str, object]:
    return _spec(raw)


@lru_cache(maxsize=8)
def _file_tokenizer(raw: bytes) -> Tokenizer:
    tokenizer = Tokenizer.from_str(raw.decode("utf-8"))
    # The file may carry padding and truncation for training; a budget needs neither.
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


@lru_cache(maxsize=8)
def _file_whole_words(raw: bytes) -> tuple[frozenset[str] | None, bool]:
    return _whole_words(_file_spec(raw))


def load_counter(spec: str = DEFAULT_TOKENIZER) -> Counter:
    """A new counter: ``all-MiniLM-L6-v2`` (default), ``chars``, ``words``, ``openai:cl100k_base``
    or ``openai:o200k_base`` (the openai extra), or a path to a ``tokenizer.json``. Each call gives
    a counter of its own, whose word cache starts empty."""
    from parsegate.chunkers.tokens.openai import MissingEncoding, OpenAICounter, encoding_name

    try:
        openai = encoding_name(spec)
        if openai is not None:
            return OpenAICounter(openai)
    except MissingEncoding as exc:
        raise TokenizerUnavailable(str(exc)) from None
    if spec == "chars":
        return CharCounter()
    if spec == "words":
        return WordCounter()
    if spec == DEFAULT_TOKENIZER:
        return HFCounter(default_tokenizer_path(), DEFAULT_TOKENIZER)
    path = Path(spec)
    if path.is_dir():
        path = path / "tokenizer.json"
    if not path.is_file():
        raise TokenizerUnavailable(
            f"tokenizer '{spec}' is neither chars, words, {DEFAULT_TOKENIZER}, openai:cl100k_base, "
            "openai:o200k_base nor a tokenizer.json file"
        )
    try:
        counter = HFCounter(path, path.parent.name or path.name)
        counter.count_many(["probe"])  # a file a user names is built now: a malformed one is refused here
        return counter
    except Exception as exc:  # tokenizers raises bare Exceptions on malformed files
        raise TokenizerUnavailable(f"cannot load tokenizer from {path}: {exc}") from None
