"""A parsegate chunker that starts cold, for every benchmark that times passes over a corpus.

parsegate's token counter learns the token count of each word and run it chunks, and it outlives
a Chunker (``load_counter`` is cached): a pass after the first would find every word of the corpus
known, a speed no corpus chunked once sees (on the fastapi docs 0.60 s a pass instead of 0.75 s).
A timed pass therefore gets a new counter, which reads the tokenizer file again.
"""

from __future__ import annotations

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.budget import load_counter
from parsegate.parsers import markdown

# Not part of any corpus measured: it loads what a chunker loads lazily, and teaches the counter
# nothing the timed pass will meet again but a few common words.
WARM_UP = b"# Warm up\n\nA short text to load what each tool loads lazily.\n"


def fresh_chunker(config: ChunkConfig) -> Chunker:
    """A new chunker on a new token counter (the caller warms it up)."""
    load_counter.cache_clear()
    return Chunker(config)


def cold_chunker(config: ChunkConfig, warm_up: bytes = WARM_UP) -> Chunker:
    """A new chunker on a new token counter, warmed up on ``warm_up``."""
    chunker = fresh_chunker(config)
    chunker.chunk(markdown.parse(warm_up, "warm-up.md"))
    return chunker
