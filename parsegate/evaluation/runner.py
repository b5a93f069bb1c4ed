"""One configuration over one corpus: chunk, place the evidence, retrieve, assemble, score."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from parsegate.chunkers.record import Chunk
from parsegate.evaluation.assemble import Passage, assemble
from parsegate.evaluation.configs import Configuration
from parsegate.evaluation.corpus import Corpus
from parsegate.evaluation.metrics import Interval, TokenScores, keyword_hit, mean, overlap, share, token_scores
from parsegate.evaluation.retrieval import Retriever, top_k
from parsegate.golden.evidence import Located, Question
from parsegate.golden.placement import ChunkLike, Placement, place


@dataclass(frozen=True)
class Settings:
    k: int = 3
    scope: str = "corpus"  # retrieve from every document's chunks, or only the question's document
    expand: str | None = None  # assembly expansion; None: the configuration's own
    budget: int | None = None  # assembly's context budget in tokens; None: no cap


@dataclass
class ChunkStats:
    chunks: int  # every record, parents included
    mean_tokens: float  # of the indexed chunks (what the retriever sees)
    max_tokens: int
    over_budget: int  # indexed chunks over the budget, parents over theirs
    overhead: float  # indexed source chars / source chars (overlap raises it)
    embedded_tokens: int  # tokens of every indexed embed_text (context prefixes and special tokens included)
    embed_ratio: float  # embedded tokens / tokens of the source: what the index costs to embed
    seconds: float
    parents: int = 0  # records another record names as its parent (parent-child): stored, not indexed
    stored_overhead: float = 0.0  # every record's source chars / source chars: what the index stores


@dataclass
class Retrieved:
    question: Question
    retriever: str
    hits: list[Chunk]
    complete: bool
    keyword: bool
    complete_after: bool
    scores: TokenScores | None  # None when the evidence is not in the text (an expected failure)
    passages: list[Passage] = field(default_factory=list)


@dataclass
class Result:
    configuration: Configuration
    stats: ChunkStats
    chunks: dict[str, list[Chunk]]  # by document key
    placements: dict[str, list[Placement]]  # by question id
    retrieved: dict[str, list[Retrieved]]  # by retriever name

    def spans(self) -> list[Placement]:
        return [p for ps in self.placements.values() for p in ps]

    def summary(self) -> dict[str, Any]:
        spans = self.spans()
        out: dict[str, Any] = {
            "configuration": self.configuration.name,
            "description": self.configuration.description,
            "max_tokens": self.configuration.max_tokens,
            **self.stats.__dict__,
            "spans": len(spans),
            "spans_whole": share(p.whole for p in spans),
            "questions": len(self.placements),
            "questions_whole": share(all(p.whole for p in ps) for ps in self.placements.values()),
            "retrieval": {},
        }
        for name, rows in self.retrieved.items():
            scored = [r.scores for r in rows if r.scores is not None]
            out["retrieval"][name] = {
                "recall": mean(s.recall for s in scored),
                "precision": mean(s.precision for s in scored),
                "iou": mean(s.iou for s in scored),
                "complete": share(r.complete for r in rows),
                "keyword": share(r.keyword for r in rows),
                "complete_after_assembly": share(r.complete_after for r in rows),
            }
        return out


def chunk_corpus(corpus: Corpus, config: Configuration) -> tuple[dict[str, list[Chunk]], ChunkStats]:
    clock = time.perf_counter()
    chunks = {key: config.segment(d.doc) for key, d in corpus.docs.items()}
    seconds = time.perf_counter() - clock
    every = [c for cs in chunks.values() for c in cs]
    indexed = [c for c in every if config.indexed(c)]
    parents = [c for c in every if not config.indexed(c)]
    tokens = [c.tokens for c in indexed]
    source = corpus.source_chars() or 1
    stats = ChunkStats(
        chunks=len(every),
        mean_tokens=sum(tokens) / len(tokens) if tokens else 0.0,
        max_tokens=max(tokens, default=0),
        over_budget=sum(t > config.max_tokens for t in tokens)
        + sum(c.tokens > (config.parent_tokens or config.max_tokens) for c in parents),
        overhead=sum(c.end - c.start for c in indexed) / source,
        embedded_tokens=sum(tokens),
        embed_ratio=sum(tokens) / max(1, sum(d.tokens for d in corpus.docs.values())),
        seconds=seconds,
        parents=len(parents),
        stored_overhead=sum(c.end - c.start for c in every) / source,
    )
    return chunks, stats


def _best_occurrence(span: Located, hits: list[ChunkLike]) -> Interval | None:
    if not span.ranges:
        return None
    ranges = [(h.start, h.end) for h in hits]
    return max(span.ranges, key=lambda r: overlap([r], ranges))


def score_question(
    corpus: Corpus, q: Question, hits: list[Chunk], chunks: list[Chunk], settings: Settings, expand: str
) -> tuple[bool, bool, bool, TokenScores | None, list[Passage]]:
    located = corpus.located[q.id]
    doc = corpus.docs[q.document]
    own = [h for h in hits if h.doc_id == doc.doc.doc_id and h.doc_version == doc.doc.version]
    complete = all(place(s, own).whole for s in located)
    ranges = [r for s in located for r in s.ranges]
    keyword = keyword_hit(ranges, [(h.start, h.end) for h in own])
    texts = {d.doc.doc_id: d.doc.text for d in corpus.docs.values()}
    assembly = assemble(hits, chunks=chunks, texts=texts, expand=expand, budget=settings.budget)
    passages = [p for p in assembly.passages if p.doc_id == doc.doc.doc_id]
    complete_after = all(place(s, passages).whole for s in located)
    chosen = [_best_occurrence(s, list(own)) for s in located]
    if any(c is None for c in chosen):
        return complete, keyword, complete_after, None, assembly.passages
    evidence = [doc.token_span(*c) for c in chosen if c is not None]
    retrieved = [doc.token_span(h.start, h.end) for h in own]
    own_ids = {h.id for h in own}
    by_doc_id = {d.doc.doc_id: d for d in corpus.docs.values()}
    elsewhere = 0
    for h in hits:
        if h.id not in own_ids:
            start, end = by_doc_id[h.doc_id].token_span(h.start, h.end)
            elsewhere += end - start
    scores = token_scores(evidence, retrieved, elsewhere)
    return complete, keyword, complete_after, scores, assembly.passages


def evaluate(
    corpus: Corpus, config: Configuration, retrievers: list[Retriever], settings: Settings | None = None
) -> Result:
    settings = settings or Settings()
    chunks, stats = chunk_corpus(corpus, config)
    # Evidence is whole when a chunk the retriever can return holds it (a parent is only reached through
    # a child: that is "complete after assembly").
    retrievable = {key: [c for c in cs if config.indexed(c)] for key, cs in chunks.items()}
    placements = {q.id: [place(s, retrievable[q.document]) for s in corpus.located[q.id]] for q in corpus.answerable}
    indexed = [c for key in corpus.docs for c in retrievable[key]]
    every = [c for cs in chunks.values() for c in cs]
    expand = settings.expand or config.expand
    questions = corpus.answerable
    retrieved: dict[str, list[Retrieved]] = {}
    for retriever in retrievers:
        matrix = retriever.scores([q.text for q in questions], [c.embed_text for c in indexed])
        rows = []
        for row, q in enumerate(questions):
            doc_id = corpus.docs[q.document].doc.doc_id
            allowed = [i for i, c in enumerate(indexed) if settings.scope == "corpus" or c.doc_id == doc_id]
            hits = [indexed[i] for i in top_k(matrix[row], allowed, settings.k)]
            complete, keyword, after, scores, passages = score_question(corpus, q, hits, every, settings, expand)
            rows.append(Retrieved(q, retriever.name, hits, complete, keyword, after, scores, passages))
        retrieved[retriever.name] = rows
    return Result(config, stats, chunks, placements, retrieved)
