"""Text coverage: the share of the parser's body text (non-whitespace characters outside
furniture and front matter) that lies inside some chunk; the gaps are the faults (offsets into
the parser's text, which is the file for text formats). Trusts the parser's text: extraction
recall is the check against the source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.parsers.model import NON_BODY_KINDS
from parsegate.quality_gates.checks.base import Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "text_coverage"
_WHITESPACE = " \t\n\r\x0b\x0c\x85\xa0\u2028\u2029\u3000"


@dataclass(frozen=True)
class CoverageFacts:
    body_chars: int = 0  # non-whitespace characters of Document.text outside furniture and front matter
    covered_chars: int = 0


def _nonspace(text: str) -> int:
    return len(text) - sum(text.count(c) for c in _WHITESPACE)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def measure(s: Subject) -> CoverageFacts:
    text = s.doc.text
    excluded = _merge([(e.start, e.end) for e in s.doc.elements if e.kind in NON_BODY_KINDS])
    body = _nonspace(text) - sum(_nonspace(text[a:b]) for a, b in excluded)
    claimed = _merge(excluded + [(max(0, c.start), min(len(text), c.end)) for c in s.chunks])
    gaps, cursor = [], 0
    for a, b in claimed:
        if a > cursor:
            gaps.append((cursor, a))
        cursor = max(cursor, b)
    gaps.append((cursor, len(text)))
    uncovered = sum(_nonspace(text[a:b]) for a, b in gaps if b > a)
    for a, b in gaps:
        if text[a:b].strip():
            s.faults.add(FAULTS, start=a, end=b, text=text[a:b].strip()[:200])
    return CoverageFacts(body, body - uncovered)


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(CoverageFacts)
    return own.covered_chars, own.body_chars


CHECK = Definition(
    name="text_coverage",
    metric="text_coverage",
    label="text coverage (parser's text)",
    limit=Limit("min_text_coverage", 0.99),
    facts=CoverageFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    stored="covered_chars",
)
