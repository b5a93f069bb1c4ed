"""Each question's evidence before (the expected chunks) and after (today's chunks).

A question passes when every one of its spans lies whole in one chunk that carries the
context the span names. A question marked ``expected_failure`` is expected to fail: it is
reported every time, never counted as passing, and when it starts to pass the check fails
too, so that the mark is removed and the pass is kept (strict, like pytest's strict xfail).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parsegate.golden.evidence import Question, SpanRef, locate
from parsegate.golden.placement import ChunkLike, Placement, place, whole_in_text

OK = "ok"  # whole now (and it was, or there was nothing to compare with)
GAINED = "gained"  # whole now, split before
LOST = "lost"  # whole before, not now: a regression
FAILING = "failing"  # not whole now, and not before either
XFAIL = "xfail"  # marked expected_failure, and still failing
XPASS = "xpass"  # marked expected_failure, but passing now: remove the mark
UNANSWERABLE = "unanswerable"  # the document cannot answer it; nothing to place

FAILED = frozenset({LOST, FAILING, XPASS})


@dataclass(frozen=True)
class TextChunk:
    """An expected chunk record seen as a chunk (offsets into the text it was made from)."""

    start: int
    end: int
    text: str
    embed_text: str


@dataclass
class SpanCheck:
    index: int  # 1-based within the question
    ref: SpanRef
    before: bool | None  # whole in the expected chunks; None where there are none
    after: Placement


@dataclass
class QuestionCheck:
    question: Question
    spans: list[SpanCheck]
    status: str

    @property
    def failed(self) -> bool:
        return self.status in FAILED

    def to_dicts(self, case: str) -> list[dict[str, Any]]:
        """One entry per span, naming case, question, span and reason (the JSON output)."""
        if not self.spans:
            return [
                {"case": case, "question_id": self.question.id, "question": self.question.text, "status": self.status}
            ]
        out = []
        for s in self.spans:
            out.append(
                {
                    "case": case,
                    "question_id": self.question.id,
                    "question": self.question.text,
                    "status": self.status,
                    "span_index": s.index,
                    "quote": s.ref.quote,
                    "context": list(s.ref.context),
                    "span": list(s.after.span) if s.after.span else None,
                    "whole_before": s.before,
                    "whole_after": s.after.whole,
                    "placement": s.after.status,
                    "chunk": list(s.after.chunk) if s.after.chunk else None,
                    "pieces": [list(p) for p in s.after.pieces],
                    "reason": s.after.reason(),
                    "expected_failure": self.question.expected_failure,
                }
            )
        return out


def _before(ref: SpanRef, expected: Sequence[ChunkLike] | None, old_text: str | None) -> bool | None:
    if expected is None:
        return None
    if ref.quote is not None:
        return whole_in_text(ref.quote, ref.context, expected)
    if old_text is None:
        return None
    return place(locate(old_text, ref), expected).whole


def _status(question: Question, spans: list[SpanCheck]) -> str:
    if not question.answerable:
        return UNANSWERABLE
    whole_now = all(s.after.whole for s in spans)
    if question.expected_failure:
        return XPASS if whole_now else XFAIL
    if whole_now:
        return GAINED if any(s.before is False for s in spans) else OK
    return LOST if any(s.before and not s.after.whole for s in spans) else FAILING


def check_question(
    question: Question,
    text: str,
    chunks: Sequence[ChunkLike],
    expected: Sequence[ChunkLike] | None,
    old_text: str | None = None,
) -> QuestionCheck:
    spans = [
        SpanCheck(k + 1, ref, _before(ref, expected, old_text), place(locate(text, ref), chunks))
        for k, ref in enumerate(question.spans)
    ]
    return QuestionCheck(question, spans, _status(question, spans))


def expected_chunks(records: list[dict[str, Any]]) -> list[TextChunk]:
    return [
        TextChunk(int(r["start"]), int(r["end"]), str(r["text"]), str(r.get("embed_text", r["text"]))) for r in records
    ]
