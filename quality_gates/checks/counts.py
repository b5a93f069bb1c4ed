"""The token counts several checks read (short chunks, budget compliance, largest chunk, token
counts exact, context share): every embed_text counted for real, in one batch per tokenizer, with
the tokenizer its chunk names, and every text alone. The chunk's own ``tokens`` is only compared
with these counts, never trusted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks.base import Counts, Tokenizers

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.chunkers.tokens.counter import Counter as TokenCounter


def resolver(tokenizers: TokenCounter | Tokenizers) -> Tokenizers:
    """A counter stands for the one tokenizer it is; a function finds one by its name."""
    if callable(tokenizers) and not hasattr(tokenizers, "fingerprint"):
        return tokenizers
    counter: TokenCounter = tokenizers  # type: ignore[assignment]
    return lambda name: counter if name == counter.fingerprint else None


def count_tokens(chunks: Sequence[Chunk], tokenizers: Tokenizers) -> Counts:
    """Tokens of each embed_text as embedded (the budget's count) and of its text alone (for
    short chunks): two batches per tokenizer, no offsets (reading offsets back costs more than
    counting)."""
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        groups.setdefault(c.tokenizer or "", []).append(i)
    embedded: list[int | None] = [None] * len(chunks)
    text = [0] * len(chunks)
    unknown: list[int] = []
    for name, indices in groups.items():
        counter = tokenizers(name)
        if counter is None:
            unknown.extend(indices)
            continue
        counts = counter.count_embedded([chunks[i].embed_text for i in indices])
        texts = counter.count_many([chunks[i].text for i in indices])
        for i, n, t in zip(indices, counts, texts, strict=True):
            embedded[i] = n
            text[i] = t
    counters = [tokenizers(c.tokenizer or "") for c in chunks]
    return Counts(embedded, text, counters, unknown)
