"""Document → chunks. ``chunk_document`` is the one entry point; strategies are named."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from parsegate.chunkers.fixed import fixed
from parsegate.chunkers.ids import chunk_set_id
from parsegate.chunkers.parent_child import default_parent_tokens, parent_child
from parsegate.chunkers.record import SCHEMA, Chunk
from parsegate.chunkers.recursive import recursive
from parsegate.chunkers.semantic import SEMANTIC, Detector, make_detector, semantic
from parsegate.chunkers.similarity import Shift
from parsegate.chunkers.strategies import NAMES
from parsegate.chunkers.strategies import STRATEGIES as TABLE
from parsegate.chunkers.structural.context import ContextBuilder
from parsegate.chunkers.structural.finalize import Draft, finalize
from parsegate.chunkers.structural.packing import Options
from parsegate.chunkers.structural.strategy import structural
from parsegate.chunkers.tokens.counter import DEFAULT_TOKENIZER, Counter, load_counter
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.model import Document

__version__ = "0.1.0"
# Bumped whenever chunks can change for the same elements (tests/test_versions.py checks it
# against the golden outputs); it names every chunk set, so changed code never reuses ids.
OUTPUT_VERSION = 32
STRATEGIES = NAMES  # chunkers/strategies.py: what each is and which settings it reads
# Strategies built on the structural steps (units, packing, budgeted context prefixes).
STRUCTURED = frozenset(s.name for s in TABLE if s.structured)
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
    parent_tokens: int | None = None  # parent-child: the parents' budget; None: 4 × the tokenizer's limit
    semantic_window: int = 3  # semantic-*: sentences compared on each side of a gap
    semantic_threshold: float | None = None  # semantic-*: a similarity at or below it is a shift (None: default)
    semantic_percentile: float = 10.0  # semantic-embedding: ... and in the document's lowest this many percent
    semantic_model: str = "all-MiniLM-L6-v2"  # semantic-embedding: sentence-transformers model (name or folder)

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
        extra: dict[str, object] = {}
        if self.strategy == "parent-child":
            extra["parent_tokens"] = _parent_tokens(self, counter, max_tokens)
        if self.strategy in SEMANTIC:
            if self.overlap:
                raise ConfigError(f"{self.strategy} takes no --overlap: it would carry one topic over the shift")
            try:
                detector = make_detector(self.strategy, self.semantic_model)
                extra["semantic_threshold"] = detector.check(
                    self.semantic_window, self.semantic_threshold, self.semantic_percentile
                )
            except ValueError as exc:  # bad settings, or the embed extra is not installed
                raise ConfigError(str(exc)) from None
        return ChunkConfig(**{**asdict(self), "max_tokens": max_tokens, **extra})


def _parent_tokens(config: ChunkConfig, counter: Counter, max_tokens: int) -> int:
    if config.overlap:
        raise ConfigError("parent-child takes no --overlap: a child's parent already holds the sentences around it")
    parent = config.parent_tokens or default_parent_tokens(counter.default_max)
    if parent <= max_tokens:
        raise ConfigError(f"--parent-tokens {parent} must be above --max-tokens {max_tokens} (the children's budget)")
    return parent


class Chunker:
    """A configured chunker: load the tokenizer once, chunk many documents."""

    def __init__(self, config: ChunkConfig | None = None) -> None:
        base = config or ChunkConfig()
        self.counter = load_counter(base.tokenizer)
        self.config = base.resolved(self.counter)
        assert self.config.max_tokens is not None
        self.max_tokens: int = self.config.max_tokens
        self._chunk_sets: dict[str, str] = {}
        self.detector: Detector | None = None
        cfg = self.config
        self.shift = Shift(cfg.semantic_window, cfg.semantic_threshold or 0.0, cfg.semantic_percentile)
        if cfg.strategy in SEMANTIC:
            self.detector = make_detector(cfg.strategy, cfg.semantic_model)

    def over_model_max(self) -> int | None:
        """The tokenizer model's maximum sequence length when ``max_tokens`` is above it (the
        embedding model would truncate such chunks), else None."""
        model_max = self.counter.model_max
        return model_max if model_max is not None and self.max_tokens > model_max else None

    def chunk_set(self, parser: str) -> str:
        if parser not in self._chunk_sets:
            self._chunk_sets[parser] = self._chunk_set(parser)
        return self._chunk_sets[parser]

    def _chunk_set(self, parser: str) -> str:
        settings = asdict(self.config)
        settings.pop("tokenizer")
        if self.config.strategy != "fixed":
            settings.pop("fixed_size"), settings.pop("fixed_overlap")
        if self.config.strategy not in STRUCTURED:
            settings.pop("context_share")
        if self.config.strategy != "parent-child":
            settings.pop("parent_tokens")
        for key in ("semantic_window", "semantic_threshold", "semantic_percentile", "semantic_model"):
            settings.pop(key)
        if self.detector is not None:  # what it compares, with which threshold, and the model's own files
            settings.update(self.detector.settings(self.shift))
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
        share = self.config.context_share if self.config.strategy in STRUCTURED else 0.5
        return ContextBuilder(self.counter, doc.title, self.max_tokens, share)

    def drafts(self, doc: Document, builder: ContextBuilder, index: SpanIndex) -> list[Draft]:
        cfg = self.config
        if cfg.strategy == "fixed":
            return fixed(doc, cfg.fixed_size, cfg.fixed_overlap)
        if cfg.strategy == "recursive":
            return recursive(doc, self.counter, self.max_tokens)
        opts = Options(self.max_tokens, cfg.min_tokens, cfg.overlap, cfg.context_share)
        if self.detector is not None:
            return semantic(doc, self.counter, index, builder, opts, self.detector, self.shift)
        return structural(doc, self.counter, index, builder, opts)

    def chunk(self, doc: Document) -> list[Chunk]:
        builder = self.builder(doc)
        index = self.counter.index(doc.text)
        if self.config.strategy == "parent-child":
            assert self.config.parent_tokens is not None
            opts = Options(self.max_tokens, self.config.min_tokens, 0, self.config.context_share)
            parents = ContextBuilder(self.counter, doc.title, self.config.parent_tokens, self.config.context_share)
            return parent_child(
                doc, self.counter, index, builder, parents, opts, self.config.parent_tokens, self.chunk_set(doc.parser)
            )
        drafts = self.drafts(doc, builder, index)
        return finalize(doc, drafts, self.counter, self.max_tokens, self.chunk_set(doc.parser), builder, index)


def chunk_document(doc: Document, config: ChunkConfig | None = None) -> list[Chunk]:
    return Chunker(config).chunk(doc)


__all__ = ["STRATEGIES", "Chunk", "ChunkConfig", "Chunker", "ConfigError", "chunk_document"]
