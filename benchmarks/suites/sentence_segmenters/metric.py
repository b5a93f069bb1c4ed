"""Boundary precision, recall and F1.

A boundary is the offset where a sentence after the first one starts, after whitespace trimming:
so "A. B." has one boundary, at B, whatever whitespace a segmenter keeps on either side. Scores
are micro-averaged (boundaries summed over paragraphs, then divided).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, truth: frozenset[int], predicted: set[int]) -> None:
        self.tp += len(truth & predicted)
        self.fp += len(predicted - truth)
        self.fn += len(truth - predicted)

    def merge(self, other: Score) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    @property
    def precision(self) -> float:
        predicted = self.tp + self.fp
        return self.tp / predicted if predicted else 0.0

    @property
    def recall(self) -> float:
        true = self.tp + self.fn
        return self.tp / true if true else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


def predicted_boundaries(spans: list[tuple[int, int]]) -> set[int]:
    """Start offsets of every trimmed span after the first."""
    return {start for start, _ in spans[1:]}
