"""Scores of one question's retrieved chunks against its evidence.

Token-level recall, precision and IoU follow the token-wise evaluation of chunking for
retrieval: evidence and retrieved chunks become sets of token positions in the document
(a token belongs to a character range when it starts inside it). Recall and the intersection
use the union of what was retrieved; precision's and IoU's denominators count every retrieved
token, repeats from overlapping chunks included, because those repeats cost context all the
same.

The complete-evidence hit asks more than overlap: every span of the question lies whole in
one retrieved chunk (with the context it names). The keyword hit asks only that some
retrieved chunk overlaps some evidence; the gap between the two is evidence retrieved in
pieces.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Interval = tuple[int, int]


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, disjoint union of half-open intervals (touching ones joined)."""
    out: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def length(intervals: Iterable[Interval]) -> int:
    return sum(end - start for start, end in merge(intervals))


def overlap(a: Iterable[Interval], b: Iterable[Interval]) -> int:
    """Size of the intersection of two unions of intervals."""
    left, right = merge(a), merge(b)
    i = j = total = 0
    while i < len(left) and j < len(right):
        start, end = max(left[i][0], right[j][0]), min(left[i][1], right[j][1])
        total += max(0, end - start)
        if left[i][1] < right[j][1]:
            i += 1
        else:
            j += 1
    return total


@dataclass(frozen=True)
class TokenScores:
    recall: float
    precision: float
    iou: float


def token_scores(evidence: Sequence[Interval], retrieved: Sequence[Interval], elsewhere: int = 0) -> TokenScores:
    """Evidence and retrieved token intervals of the evidence's document; ``elsewhere``: tokens
    retrieved from other documents (they cost context and can hold none of this evidence)."""
    wanted = length(evidence)
    if wanted == 0:
        raise ValueError("a question without evidence tokens has no token scores")
    shared = overlap(evidence, retrieved)
    spent = sum(max(0, end - start) for start, end in retrieved) + elsewhere  # repeats counted
    return TokenScores(
        recall=shared / wanted,
        precision=shared / spent if spent else 0.0,
        iou=shared / (wanted + spent - shared),
    )


def keyword_hit(evidence: Sequence[Interval], retrieved: Sequence[Interval]) -> bool:
    """Some retrieved chunk shares at least one character with some evidence span."""
    return any(min(e[1], r[1]) > max(e[0], r[0]) for e in evidence for r in retrieved)


def share(flags: Iterable[bool]) -> float | None:
    values = list(flags)
    return sum(values) / len(values) if values else None


def mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return sum(items) / len(items) if items else None
