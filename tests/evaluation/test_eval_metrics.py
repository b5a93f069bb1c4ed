"""Evidence metrics on hand-made cases whose answers are known by construction."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from parsegate.chunkers.record import Chunk
from parsegate.chunkers.tokens.index import CharIndex
from parsegate.evaluation.configs import Configuration, build, parse_spec
from parsegate.evaluation.corpus import Corpus, EvalDoc
from parsegate.evaluation.metrics import keyword_hit, length, merge, overlap, token_scores
from parsegate.evaluation.runner import Settings, evaluate
from parsegate.golden.evidence import Question, SpanRef, locate, locate_all
from parsegate.golden.placement import NO_CONTEXT, NOT_FOUND, SPLIT, WHOLE, place
from parsegate.parsers.model import Document

# 0         1         2         3         4         5         6         7         8         9
# 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789
TEXT = (
    "Meals are capped at 45 EUR a day. "  # 0-34
    "Client dinners are exempt. "  # 34-61
    "Taxis need a receipt. "  # 61-83
    "Trains are booked centrally."  # 83-111
)
RULE = "Meals are capped at 45 EUR a day. Client dinners are exempt."  # 0-60: crosses the cut at 40


def chunk(start: int, end: int, embed_prefix: str = "", doc_id: str = "policy.txt") -> Chunk:
    text = TEXT[start:end]
    return Chunk(
        id=f"c{start}-{end}",
        doc_id=doc_id,
        doc_version="v1",
        chunk_set="cs-test",
        start=start,
        end=end,
        text=text,
        embed_text=f"{embed_prefix}\n\n{text}" if embed_prefix else text,
        tokens=end - start,
        tokenizer="chars",
        section_path=[],
        kinds=["text"],
    )


def test_interval_arithmetic() -> None:
    assert merge([(5, 9), (0, 3), (3, 4), (8, 12)]) == [(0, 4), (5, 12)]
    assert length([(0, 10), (5, 15)]) == 15
    assert overlap([(0, 10), (20, 30)], [(5, 25)]) == 10


def test_token_scores_count_overlapping_retrieval_once_in_recall_and_twice_in_cost() -> None:
    scores = token_scores([(10, 20)], [(0, 15), (12, 30)])
    assert scores.recall == 1.0  # the union of the two holds all 10 evidence tokens
    assert scores.precision == pytest.approx(10 / 33)  # 15 + 18 tokens retrieved, overlap paid twice
    assert scores.iou == pytest.approx(10 / 33)
    assert token_scores([(10, 20)], [(0, 15)], elsewhere=7).precision == pytest.approx(5 / 22)
    half = token_scores([(10, 20)], [(15, 40)])
    assert (half.recall, half.precision, half.iou) == (0.5, 0.2, pytest.approx(5 / 30))


def test_keyword_hit_needs_a_shared_character() -> None:
    assert keyword_hit([(10, 20)], [(19, 30)])
    assert not keyword_hit([(10, 20)], [(20, 30)])  # touching is not overlapping


def test_placement_whole_split_context_and_missing() -> None:
    chunks = [chunk(0, 40), chunk(41, 83, embed_prefix="Expense Policy")]
    split = place(locate(TEXT, SpanRef(quote=RULE)), chunks)
    assert (split.status, split.span, split.pieces) == (SPLIT, (0, 60), ((0, 40), (41, 83)))
    assert split.reason() == "span [0-60] is split across chunks [0-40] and [41-83] (cut at 40)"
    whole = place(locate(TEXT, SpanRef(quote="Taxis need a receipt.", context=("Expense Policy",))), chunks)
    assert (whole.status, whole.chunk) == (WHOLE, (41, 83))
    lacking = place(locate(TEXT, SpanRef(quote="Meals are capped", context=("Expense Policy",))), chunks)
    assert (lacking.status, lacking.missing) == (NO_CONTEXT, ("Expense Policy",))
    assert place(locate(TEXT, SpanRef(quote="Bikes")), chunks).status == NOT_FOUND


def test_a_repeated_quote_is_whole_if_any_occurrence_is() -> None:
    text = "Keep it. Keep it."
    loc = locate(text, SpanRef(quote="Keep it."))
    assert loc.ranges == ((0, 8), (9, 17))
    pieces = [chunk(0, 5), chunk(5, 17)]  # the first copy is cut, the second is whole
    assert place(loc, pieces).status == WHOLE
    assert locate(text, SpanRef(quote="Keep it.", occurrence=1)).ranges == ((0, 8),)


class Fixed:
    """A retriever whose ranking is given: chunk i scores ``order[i]``."""

    name = "fixed-ranking"

    def __init__(self, order: list[float]) -> None:
        self.order = order

    def scores(self, queries: list[str], texts: list[str]) -> Any:
        return np.array([self.order] * len(queries), dtype=float)


def corpus_of(*questions: Question) -> Corpus:
    doc = Document("policy.txt", "v1", "text", TEXT, [])
    corpus = Corpus({"policy": EvalDoc("policy", doc, CharIndex(TEXT), len(TEXT))}, list(questions))
    corpus.located = {q.id: locate_all(TEXT, q) for q in questions}
    return corpus


def configuration(chunks: list[Chunk]) -> Configuration:
    return Configuration("hand-made", "hand-made", 64, "two chunks cut inside the rule", lambda doc: chunks)


def test_a_split_span_is_a_keyword_hit_but_not_a_complete_hit() -> None:
    rule = Question("policy#1", "Are client dinners capped?", "policy", (SpanRef(quote=RULE),))
    chunks = [chunk(0, 40), chunk(41, 83), chunk(84, 111)]
    corpus = corpus_of(rule)
    # top-1 is the first half of the rule only
    result = evaluate(corpus, configuration(chunks), [Fixed([3, 2, 1])], Settings(k=1))
    (row,) = result.retrieved["fixed-ranking"]
    assert (row.keyword, row.complete, row.complete_after) == (True, False, False)
    assert row.scores is not None
    assert (row.scores.recall, row.scores.precision, row.scores.iou) == (40 / 60, 1.0, 40 / 60)
    summary = result.summary()
    assert (summary["spans_whole"], summary["questions_whole"]) == (0.0, 0.0)
    assert summary["retrieval"]["fixed-ranking"]["keyword"] == 1.0
    assert summary["retrieval"]["fixed-ranking"]["complete"] == 0.0
    # top-2 brings both halves: still not complete, but assembly joins the touching pair
    result = evaluate(corpus, configuration(chunks), [Fixed([3, 2, 1])], Settings(k=2))
    (row,) = result.retrieved["fixed-ranking"]
    assert (row.keyword, row.complete, row.complete_after) == (True, False, True)
    assert row.scores is not None and row.scores.recall == 59 / 60  # the space at 40 is in no chunk
    assert row.passages[0].start == 0 and row.passages[0].end == 83


def test_a_chunk_holding_the_whole_rule_is_a_complete_hit() -> None:
    rule = Question("policy#1", "Are client dinners capped?", "policy", (SpanRef(quote=RULE),))
    taxis = Question("policy#2", "Do taxis need a receipt?", "policy", (SpanRef(quote="Taxis need a receipt."),))
    chunks = [chunk(0, 61), chunk(61, 111)]
    result = evaluate(corpus_of(rule, taxis), configuration(chunks), [Fixed([2, 1])], Settings(k=1))
    rows = result.retrieved["fixed-ranking"]
    assert [(r.complete, r.keyword) for r in rows] == [(True, True), (False, False)]
    assert rows[0].scores is not None and rows[0].scores.precision == pytest.approx(60 / 61)
    assert result.summary()["spans_whole"] == 1.0
    assert result.stats.chunks == 2 and result.stats.overhead == pytest.approx(111 / 111)


def test_configuration_specs() -> None:
    assert parse_spec("structural:overlap=1,min_tokens=16") == ("structural", {"overlap": "1", "min_tokens": "16"})
    config = build("fixed", 128)
    assert (config.name, config.description) == ("fixed@128", "parsegate fixed (384 chars, overlap 38)")
    assert build("structural:min_tokens=16", 128).name == "structural:min_tokens=16@128"
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        build("structural:colour=red", 128)
    with pytest.raises(ValueError, match="unknown configuration 'magic'"):
        build("magic", 128)


def test_a_span_running_past_the_only_chunk_says_which_part_no_chunk_holds() -> None:
    # a baseline that indexes no heading: the quote starts in text no chunk holds
    partial = place(locate(TEXT, SpanRef(quote=RULE)), [chunk(34, 83)])
    assert partial.status == SPLIT
    assert partial.reason() == "span [0-60] is only partly in chunk [34-83]: [0-34] is in no chunk"


def test_scope_corpus_lets_another_document_crowd_out_the_evidence() -> None:
    rule = Question("policy#1", "Are client dinners capped?", "policy", (SpanRef(quote=RULE),))
    corpus = corpus_of(rule)
    other = Document("other.txt", "v1", "text", "Client dinners are capped elsewhere.", [])
    corpus.docs["other"] = EvalDoc("other", other, CharIndex(other.text), len(other.text))
    theirs = Chunk("o1", "other.txt", "v1", "cs-test", 0, 36, other.text, other.text, 36, "chars", [], ["text"])

    def segment(doc: Document) -> list[Chunk]:
        return [chunk(0, 61)] if doc.doc_id == "policy.txt" else [theirs]

    config = Configuration("two docs", "two docs", 64, "", segment)
    wide = evaluate(corpus, config, [Fixed([1, 2])], Settings(k=1, scope="corpus")).retrieved["fixed-ranking"][0]
    assert [h.id for h in wide.hits] == ["o1"] and not wide.keyword
    assert wide.scores is not None and (wide.scores.recall, wide.scores.precision) == (0.0, 0.0)
    narrow = evaluate(corpus, config, [Fixed([1, 2])], Settings(k=1, scope="document")).retrieved["fixed-ranking"][0]
    assert [h.id for h in narrow.hits] == ["c0-61"] and narrow.complete
