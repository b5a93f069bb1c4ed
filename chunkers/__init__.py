"""Document → chunks. ``chunk_document`` is the one entry point; strategies are named."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from chunkers.budget import DEFAULT_TOKENIZER, Counter, load_counter
from chunkers.chunk import SCHEMA, Chunk, chunk_set_id
from chunkers.context import ContextBuilder
from chunkers.fixed import fixed
from chunkers.packing import Options
from chunkers.records import Draft, finalize
from chunkers.recursive import recursive
from chunkers.structural import structural
from chunkers.tokens import SpanIndex
from parsers.model import Document

__version__ = "0.1.0"
# Bumped whenever chunks can change for the same elements (tests/test_versions.py checks it
# against the golden outputs); it names every chunk set, so changed code never reuses ids.
OUTPUT_VERSION = 6
STRATEGIES = ("structural", "recursive", "fixed")
_MIN_CONTENT_TOKENS = 8


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class ChunkConfig:
    strategy: str = "structural"
    tokenizer: str = DEFAULT_TOKENIZER
    max_tokens: int | None = None  # None: the tokenizer's model maximum
    min_tokens: int = 0
    overlap: int = 0  # sentences (structural)
    fixed_size: int = 1000  # characters (fixed)
    fixed_overlap: int = 100  # characters (fixed)
    context_share: float = 0.2  # of max_tokens, at most, for the context prefix (structural)

    def resolved(self, counter: Counter) -> ChunkConfig:
        max_tokens = self.max_tokens or counter.default_max
        if self.strategy not in STRATEGIES:
            raise ConfigError(f"unknown strategy '{self.strategy}'; choose one of {', '.join(STRATEGIES)}")
        if max_tokens < counter.specials + _MIN_CONTENT_TOKENS:
            raise ConfigError(
                f"--max-tokens {max_tokens} leaves no room: {counter.name} adds {counter.specials} special tokens"
                f" and a chunk needs at least {_MIN_CONTENT_TOKENS} more"
            )
        if self.min_tokens < 0 or self.overlap < 0:
            raise ConfigError("--min-tokens and --overlap cannot be negative")
        if not 0 <= self.context_share <= 0.5:
            raise ConfigError(f"--context-share {self.context_share} must be between 0 and 0.5")
        if self.min_tokens >= max_tokens:
            raise ConfigError(f"--min-tokens {self.min_tokens} must be below --max-tokens {max_tokens}")
        return ChunkConfig(**{**asdict(self), "max_tokens": max_tokens})


class Chunker:
    """A configured chunker: load the tokenizer once, chunk many documents."""

    def __init__(self, config: ChunkConfig | None = None) -> None:
        base = config or ChunkConfig()
        self.counter = load_counter(base.tokenizer)
        self.config = base.resolved(self.counter)
        assert self.config.max_tokens is not None
        self.max_tokens: int = self.config.max_tokens
        self._chunk_sets: dict[str, str] = {}

    def chunk_set(self, parser: str) -> str:
        if parser not in self._chunk_sets:
            self._chunk_sets[parser] = self._chunk_set(parser)
        return self._chunk_sets[parser]

    def _chunk_set(self, parser: str) -> str:
        settings = asdict(self.config)
        settings.pop("tokenizer")
        if self.config.strategy != "fixed":
            settings.pop("fixed_size"), settings.pop("fixed_overlap")
        if self.config.strategy != "structural":
            settings.pop("context_share")
        return chunk_set_id(
            {
                "schema": SCHEMA,
                "parser": parser,
                "chunker": f"parsegate-chunkers/{__version__}+{OUTPUT_VERSION}",
                "settings": settings,
                "tokenizer": self.counter.fingerprint,
            }
        )

    def builder(self, doc: Document) -> ContextBuilder:
        # The baselines keep the breadcrumb of their sections, within half the budget as before.
        share = self.config.context_share if self.config.strategy == "structural" else 0.5
        return ContextBuilder(self.counter, doc.title, self.max_tokens, share)

    def drafts(self, doc: Document, builder: ContextBuilder, index: SpanIndex) -> list[Draft]:
        cfg = self.config
        if cfg.strategy == "fixed":
            return fixed(doc, cfg.fixed_size, cfg.fixed_overlap)
        if cfg.strategy == "recursive":
            return recursive(doc, self.counter, self.max_tokens)
        opts = Options(self.max_tokens, cfg.min_tokens, cfg.overlap, cfg.context_share)
        return structural(doc, self.counter, index, builder, opts)

    def chunk(self, doc: Document) -> list[Chunk]:
        builder = self.builder(doc)
        index = self.counter.index(doc.text)
        drafts = self.drafts(doc, builder, index)
        return finalize(doc, drafts, self.counter, self.max_tokens, self.chunk_set(doc.parser), builder, index)


def chunk_document(doc: Document, config: ChunkConfig | None = None) -> list[Chunk]:
    return Chunker(config).chunk(doc)


__all__ = ["STRATEGIES", "Chunk", "ChunkConfig", "Chunker", "ConfigError", "chunk_document"]
