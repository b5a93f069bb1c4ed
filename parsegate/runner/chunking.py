"""The chunker of a run or of one file, its configuration checked before any work: light to import
(``parsegate chunk`` and ``inspect`` load no run machinery for it)."""

from __future__ import annotations

from parsegate.chunkers import ChunkConfig, Chunker, ConfigError
from parsegate.chunkers.tokens.counter import TokenizerUnavailable
from parsegate.errors import CommandError


def make_chunker(config: ChunkConfig, allow_over_model_max: bool = False) -> Chunker:
    """The chunker, its tokenizer loaded; a bad configuration, a tokenizer that cannot be loaded or
    a budget over the model's maximum (unless allowed) is a CommandError."""
    try:
        chunker = Chunker(config)
    except (ConfigError, TokenizerUnavailable) as exc:
        raise CommandError(str(exc)) from None
    model_max = chunker.over_model_max()
    if model_max is not None and not allow_over_model_max:
        raise CommandError(
            f"--max-tokens {chunker.max_tokens} is above {chunker.counter.name}'s maximum sequence length "
            f"({model_max}): the embedding model would truncate such chunks. Use --allow-over-model-max "
            "if your embedder takes longer input."
        )
    return chunker
