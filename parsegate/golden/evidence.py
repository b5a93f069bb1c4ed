"""Questions and their minimum sufficient evidence, and where that evidence lies in a text.

Evidence is given as quoted source text (``evidence.json``: it survives re-chunking and
re-parsing as long as the words stay), or as character offsets into a named document (a CSV).
A span may name context it needs from elsewhere in the document (a table header, a class
header, a list's lead-in, a speaker): the span counts as delivered only when the chunk that
holds it also carries that context, in its text or in the context its ``embed_text`` adds.

``evidence.json`` is a list of items::

    {"question": "How fast must a P3 incident be acknowledged?",
     "evidence": [{"quote": "| P3 | 4 hours | 5 business days | No |",
                   "context": ["| Severity | Acknowledge within | Resolve within | Status page |"]}],
     "pattern": "table row + header",
     "expected_failure": "why it fails today (optional; never a way to bless a failure)"}

``evidence`` may also be one string, or a list of strings and span objects; the older
``needs_context`` key applies to every string span of its item. A question the document cannot
answer has ``"answerable": false`` and no evidence.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EVIDENCE_FILE = "evidence.json"


class EvidenceError(ValueError):
    """An evidence file or question that cannot be used, with where and why."""


@dataclass(frozen=True)
class SpanRef:
    """One piece of evidence: a quote (or offsets) plus the context it needs."""

    quote: str | None = None
    start: int | None = None
    end: int | None = None
    context: tuple[str, ...] = ()
    occurrence: int | None = None  # 1-based, for a quote that occurs more than once

    def to_json(self) -> str | dict[str, Any]:
        if self.quote is not None and not self.context and self.occurrence is None:
            return self.quote
        out: dict[str, Any] = (
            {"quote": self.quote} if self.quote is not None else {"start": self.start, "end": self.end}
        )
        if self.context:
            out["context"] = list(self.context)
        if self.occurrence is not None:
            out["occurrence"] = self.occurrence
        return out


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    document: str  # the key of the document it asks about
    spans: tuple[SpanRef, ...]
    expected_failure: str | None = None
    pattern: str | None = None
    answerable: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.text}
        if not self.answerable:
            out["answerable"] = False
            return out
        out["evidence"] = [s.to_json() for s in self.spans]
        if self.pattern:
            out["pattern"] = self.pattern
        if self.expected_failure:
            out["expected_failure"] = self.expected_failure
        return out


@dataclass(frozen=True)
class Located:
    """A span resolved against a document's text: every place it occurs (any one of them
    answers the question), or none when the text no longer holds it."""

    ref: SpanRef
    ranges: tuple[tuple[int, int], ...]
    context: tuple[str, ...] = field(default=())

    @property
    def found(self) -> bool:
        return bool(self.ranges)

    @property
    def first(self) -> tuple[int, int] | None:
        return self.ranges[0] if self.ranges else None


# -- reading -----------------------------------------------------------------------------


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(s, str) and s for s in items):
        raise EvidenceError(f"{where}: context must be a non-empty string or a list of them")
    return tuple(items)


def _span(raw: Any, shared_context: tuple[str, ...], where: str) -> SpanRef:
    if isinstance(raw, str):
        if not raw:
            raise EvidenceError(f"{where}: an empty quote")
        return SpanRef(quote=raw, context=shared_context)
    if not isinstance(raw, dict):
        raise EvidenceError(f"{where}: a span is a quoted string or an object with 'quote' (or 'start' and 'end')")
    context = shared_context + _strings(raw.get("context"), where)
    occurrence = raw.get("occurrence")
    if occurrence is not None and (type(occurrence) is not int or occurrence < 1):
        raise EvidenceError(f"{where}: 'occurrence' must be a positive integer")
    if isinstance(raw.get("quote"), str) and raw["quote"]:
        return SpanRef(quote=raw["quote"], context=context, occurrence=occurrence)
    start, end = raw.get("start"), raw.get("end")
    if type(start) is int and type(end) is int and 0 <= start < end:
        return SpanRef(start=start, end=end, context=context)
    raise EvidenceError(f"{where}: a span needs a non-empty 'quote', or integer offsets 0 <= 'start' < 'end'")


def question_from_json(raw: Any, document: str, qid: str, where: str) -> Question:
    if not isinstance(raw, dict) or not isinstance(raw.get("question"), str) or not raw["question"].strip():
        raise EvidenceError(f"{where}: each item needs a 'question' string")
    answerable = raw.get("answerable", True)
    if answerable is False:
        return Question(qid, raw["question"], document, (), answerable=False)
    evidence = raw.get("evidence")
    items = [evidence] if isinstance(evidence, str | dict) else evidence
    if not isinstance(items, list) or not items:
        raise EvidenceError(f"{where}: 'evidence' is missing (use \"answerable\": false for questions without any)")
    shared = _strings(raw.get("needs_context"), where)
    spans = tuple(_span(item, shared, f"{where}, evidence {k + 1}") for k, item in enumerate(items))
    failure = raw.get("expected_failure")
    if failure is not None and (not isinstance(failure, str) or not failure.strip()):
        raise EvidenceError(f"{where}: 'expected_failure' must say why the evidence fails today")
    pattern = raw.get("pattern")
    return Question(qid, raw["question"], document, spans, failure, pattern if isinstance(pattern, str) else None)


def load_evidence(path: Path, document: str) -> list[Question]:
    """The questions of one ``evidence.json``, ids ``<document>#<n>`` (1-based, in file order)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EvidenceError(f"{path}: cannot read: {exc}") from None
    if not isinstance(raw, list):
        raise EvidenceError(f"{path}: expected a JSON list of questions")
    return [
        question_from_json(item, document, f"{document}#{n + 1}", f"{path}: item {n + 1}") for n, item in enumerate(raw)
    ]


def dump_evidence(questions: list[Question]) -> str:
    return json.dumps([q.to_json() for q in questions], indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("question", "document", "start", "end")


def load_csv(path: Path) -> list[Question]:
    """Questions from a CSV with columns question, document, start, end (character offsets into
    the parsed document's text; for text formats that is the file itself) and optionally id and
    context. Rows with the same id (or, without ids, the same question and document) are the
    spans of one question."""
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise EvidenceError(f"{path}: cannot read: {exc}") from None
    missing = [c for c in CSV_COLUMNS if rows and c not in rows[0]]
    if not rows or missing:
        raise EvidenceError(f"{path}: needs the columns {', '.join(CSV_COLUMNS)} (missing: {', '.join(missing)})")
    grouped: dict[tuple[str, str], list[tuple[int, dict[str, str]]]] = {}
    for line, row in enumerate(rows, start=2):
        key = (row.get("id") or row["question"], row["document"])
        grouped.setdefault(key, []).append((line, row))
    questions = []
    for n, ((_, document), group) in enumerate(grouped.items()):
        spans = []
        for line, row in group:
            try:
                start, end = int(row["start"]), int(row["end"])
            except ValueError:
                raise EvidenceError(f"{path}: line {line}: start and end must be integers") from None
            if not 0 <= start < end:
                raise EvidenceError(f"{path}: line {line}: needs 0 <= start < end")
            context = (row["context"],) if row.get("context") else ()
            spans.append(SpanRef(start=start, end=end, context=context))
        qid = group[0][1].get("id") or f"{document}#{n + 1}"
        questions.append(Question(qid, group[0][1]["question"], document, tuple(spans)))
    return questions


# -- locating ----------------------------------------------------------------------------


def occurrences(text: str, quote: str) -> list[tuple[int, int]]:
    out = []
    at = text.find(quote)
    while at != -1:
        out.append((at, at + len(quote)))
        at = text.find(quote, at + 1)
    return out


def locate(text: str, ref: SpanRef) -> Located:
    """Where a span lies in ``text``. Offsets are taken as given (checked to lie inside);
    a quote is every place it occurs, or the one ``occurrence`` names."""
    if ref.quote is None:
        assert ref.start is not None and ref.end is not None
        if ref.end > len(text):
            return Located(ref, (), ref.context)
        return Located(ref, ((ref.start, ref.end),), ref.context)
    found = occurrences(text, ref.quote)
    if ref.occurrence is not None:
        found = found[ref.occurrence - 1 : ref.occurrence]
    return Located(ref, tuple(found), ref.context)


def locate_all(text: str, question: Question) -> list[Located]:
    return [locate(text, ref) for ref in question.spans]
