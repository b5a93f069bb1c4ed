"""Metrics: one extraction (extract.py's record) against one truth (truth.py's JSON).

- order: 1 − normalized Levenshtein distance between the truth's body word sequence and the
  tool's (rapidfuzz, on word lists). Footnotes, whose place the engine chooses, are cut out of the
  tool's sequence where they occur whole, and are not in the truth's sequence.
- words: bag-of-words precision, recall, F1 of the body (footnotes included).
- headings: a predicted heading counts when its text, section number dropped and normalized,
  matches a truth heading not yet matched; recall, precision, and level accuracy (matched headings
  whose level equals the truth level after the most common shift, since a parser may call the
  title level 0 or 1).
- tables: cells as (row, column, text); truth and predicted tables paired by shared cell texts,
  rows aligned by dynamic programming (a missing row does not shift every row after it), columns
  by position. Counted per table style; cells of predicted tables that pair with no truth table
  count against precision overall.
- furniture leaked: of the running-header and footer strings printed on the pages, the share
  found in the tool's body word sequence beyond what the truth body itself holds.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from benchmarks.suites.pdf_structure.textnorm import words

_SECTION_NUMBER = re.compile(r"^\s*(\d+(\.\d+)*\.?|[A-Z]\.|[IVXLC]+\.)\s+")


def body_words(texts: list[str]) -> list[str]:
    return [w for t in texts for w in words(t)]


def order_similarity(truth: list[str], predicted: list[str]) -> float:
    """1 − Levenshtein distance over words / the longer sequence's length (rapidfuzz, in C)."""
    from rapidfuzz.distance import Levenshtein  # the bench extra: imported here, so the rest runs without it

    if not truth and not predicted:
        return 1.0
    return 1.0 - Levenshtein.normalized_distance(truth, predicted)


def cut_floating(predicted: list[str], floating: list[list[str]]) -> list[str]:
    """The predicted sequence without each floating block where it occurs whole (first occurrence)."""
    out = list(predicted)
    for block in floating:
        at = _find(out, block)
        if at >= 0:
            del out[at : at + len(block)]
    return out


def _find(seq: list[str], sub: list[str]) -> int:
    if not sub:
        return -1
    first = sub[0]
    for i, w in enumerate(seq):
        if w == first and seq[i : i + len(sub)] == sub:
            return i
    return -1


def prf(tp: float, n_pred: float, n_truth: float) -> dict[str, float | None]:
    p = tp / n_pred if n_pred else None
    r = tp / n_truth if n_truth else None
    f = 2 * p * r / (p + r) if p and r else (0.0 if n_pred or n_truth else None)
    return {"precision": p, "recall": r, "f1": f}


def words_counts(truth: list[str], predicted: list[str]) -> tuple[int, int, int]:
    """(shared words, predicted words, truth words), as bags."""
    tp = sum((Counter(truth) & Counter(predicted)).values())
    return tp, len(predicted), len(truth)


def heading_key(text: str) -> str:
    return " ".join(words(_SECTION_NUMBER.sub("", text)))


def heading_counts(truth: list[dict[str, Any]], predicted: list[dict[str, Any]]) -> dict[str, Any]:
    """Matched headings, predicted, truth, and matched (truth level, predicted level) pairs."""
    open_keys: dict[str, list[int]] = {}
    for h in truth:
        open_keys.setdefault(" ".join(words(h["text"])), []).append(h["level"])
    pairs: list[tuple[int, int | None]] = []
    for h in predicted:
        levels = open_keys.get(heading_key(h["text"]))
        if levels:
            pairs.append((levels.pop(0), h.get("level")))
    return {"matched": len(pairs), "predicted": len(predicted), "truth": len(truth), "level_pairs": pairs}


def level_accuracy(pairs: list[tuple[int, int | None]]) -> float | None:
    shifts = Counter(p - t for t, p in pairs if p is not None)
    if not pairs:
        return None
    best = shifts.most_common(1)[0][0] if shifts else 0
    return sum(1 for t, p in pairs if p is not None and p - t == best) / len(pairs)


def _cells(rows: list[list[str]]) -> list[list[str]]:
    return [[" ".join(words(c)) for c in row] for row in rows]


def table_counts(truth: list[dict[str, Any]], predicted: list[list[list[str]]]) -> dict[str, Any]:
    """Per truth table: style, matched cells, predicted cells paired with it, truth cells; plus
    the cells of predicted tables paired with no truth table."""
    t_rows = [_cells(t["rows"]) for t in truth]
    p_rows = [_cells(p) for p in predicted]
    pairs = _pair_tables(t_rows, p_rows)
    out = []
    for i, t in enumerate(truth):
        j = pairs.get(i)
        matched = _aligned_matches(t_rows[i], p_rows[j]) if j is not None else 0
        n_pred = _count(p_rows[j]) if j is not None else 0
        out.append(
            {
                "style": t["style"],
                "page_break": len(t.get("pages", [])) > 1,
                "matched": matched,
                "predicted": n_pred,
                "truth": _count(t_rows[i]),
            }
        )
    unpaired = sum(_count(p) for j, p in enumerate(p_rows) if j not in pairs.values())
    return {"tables": out, "unpaired_cells": unpaired}


def _count(rows: list[list[str]]) -> int:
    return sum(1 for row in rows for c in row if c)


def _pair_tables(truth: list[list[list[str]]], predicted: list[list[list[str]]]) -> dict[int, int]:
    """Greedy pairing by shared cell texts, best pairs first; a table pairs once."""
    bags_t = [Counter(c for row in t for c in row if c) for t in truth]
    bags_p = [Counter(c for row in p for c in row if c) for p in predicted]
    scored = sorted(
        ((sum((bt & bp).values()), i, j) for i, bt in enumerate(bags_t) for j, bp in enumerate(bags_p)), reverse=True
    )
    pairs: dict[int, int] = {}
    for shared, i, j in scored:
        if shared and i not in pairs and j not in pairs.values():
            pairs[i] = j
    return pairs


def _aligned_matches(truth: list[list[str]], predicted: list[list[str]]) -> int:
    """Most (row, column, text) matches over monotone row alignments (an LCS over rows)."""
    n, m = len(truth), len(predicted)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            same = sum(1 for a, b in zip(truth[i - 1], predicted[j - 1], strict=False) if a and a == b)
            best[i][j] = max(best[i - 1][j], best[i][j - 1], best[i - 1][j - 1] + same)
    return best[n][m]


def furniture_counts(furniture: list[str], truth_body: list[str], predicted_body: list[str]) -> tuple[int, int]:
    """(furniture strings found in the tool's body beyond the truth's own, furniture strings)."""
    wanted = Counter(tuple(words(s)) for s in furniture if words(s))
    hay_t, hay_p = f" {' '.join(truth_body)} ", f" {' '.join(predicted_body)} "
    leaked = 0
    for key, k in wanted.items():
        needle = f" {' '.join(key)} "
        leaked += max(0, min(k, hay_p.count(needle) - hay_t.count(needle)))
    return leaked, sum(wanted.values())


def score_document(truth: dict[str, Any], record: dict[str, Any], structure: bool) -> dict[str, Any]:
    """All metrics of one tool on one document. ``structure``: the tool reports headings and tables."""
    body = body_words(record.get("body", []))
    floating = [words(t) for t in truth["floating"]]
    flow = cut_floating(body, floating)
    out: dict[str, Any] = {
        "order": order_similarity(truth["words"], flow),
        "words": words_counts(truth["words"] + [w for f in floating for w in f], body),
        # A folio's number in a footnote's text ("let's say, 1 week") is the note's, not a leak.
        "furniture": furniture_counts(truth["furniture"], truth["words"] + [w for f in floating for w in f], body),
        "error": record.get("error"),
    }
    if structure:
        out["headings"] = heading_counts(truth["headings"], record.get("headings", []))
        out["tables"] = table_counts(truth["tables"], record.get("tables", []))
    return out
