"""The table of checks, in order (markdown-it's rule table is the model: each check a small
module, ordered here once).

The order is the order of a document's metrics in verdicts, run.json and report.json (the count of
chunks, the shares, then the other counts), the order the checks measure a document in, and the
order of the terminal report's rows. ``Thresholds`` and a verdict's checks take it too, the checks
on by default first and those off by default after them. Adding a check is adding its module and
its line here: thresholds, the fault lists, what is not measured, a run's totals and the report's
rows follow.
"""

from __future__ import annotations

from typing import Any

from parsegate.quality_gates.checks import (
    budget,
    chunks,
    code_context,
    code_overlaps,
    code_parse,
    code_whole,
    context_share,
    duplicates,
    empty,
    furniture_share,
    headings,
    largest,
    localization,
    ocr_confidence,
    ocr_recall,
    overhead,
    recall,
    short,
    table_header,
    text_coverage,
    token_counts,
    unknown,
    warnings,
)
from parsegate.quality_gates.checks.base import Definition, Limit

CHECKS: tuple[Definition[Any], ...] = (
    chunks.CHECK,
    empty.CHECK,
    short.CHECK,
    headings.CHECK,
    table_header.CHECK,
    localization.CHECK,
    budget.CHECK,
    largest.CHECK,
    token_counts.CHECK,
    unknown.CHECK,
    duplicates.CHECK,
    overhead.CHECK,
    context_share.CHECK,
    text_coverage.CHECK,
    recall.CHECK,
    furniture_share.CHECK,
    code_whole.CHECK,
    code_context.CHECK,
    code_overlaps.CHECK,
    code_parse.CHECK,
    ocr_confidence.CHECK,
    ocr_recall.CHECK,
    warnings.CHECK,
)

# A document's metrics, by key: the count of chunks first, then the shares, then the other counts.
METRICS: tuple[Definition[Any], ...] = (
    chunks.CHECK,
    *(c for c in CHECKS if c.share),
    *(c for c in CHECKS if c.metric and not c.share and c is not chunks.CHECK),
)
# The checks a verdict judges, in its order: those on by default, then those off by default.
JUDGED: tuple[Definition[Any], ...] = (
    *(c for c in CHECKS if c.limit is not None and not c.limit.off_by_default),
    *(c for c in CHECKS if c.limit is not None and c.limit.off_by_default),
)
# Checks over a whole run (say, the same text embedded from four copies of a file).
RUN_LEVEL: tuple[Definition[Any], ...] = tuple(c for c in JUDGED if c.run_level)
# The fields of Thresholds, in order: each judged check's parameters, then its threshold.
LIMITS: tuple[Limit, ...] = tuple(limit for c in JUDGED for limit in (*c.params, c.limit) if limit is not None)
BY_METRIC: dict[str, Definition[Any]] = {c.metric: c for c in CHECKS if c.metric}
BY_LIMIT: dict[str, Definition[Any]] = {c.limit.name: c for c in CHECKS if c.limit is not None}

__all__ = ["BY_LIMIT", "BY_METRIC", "CHECKS", "JUDGED", "LIMITS", "METRICS", "RUN_LEVEL", "Definition", "Limit"]
