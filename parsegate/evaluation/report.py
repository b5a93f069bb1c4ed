"""An evaluation's results as JSON (``parsegate eval --json``, the HTML page reads the same)."""

from __future__ import annotations

from typing import Any

from parsegate.evaluation.runner import Result, Settings
from parsegate.golden.placement import WHOLE

SCHEMA = "parsegate.eval/1"


def split_spans(results: list[Result]) -> list[dict[str, Any]]:
    """Every span that is not whole in one chunk, per configuration: what a chunker owner fixes."""
    out = []
    for r in results:
        for qid, placements in r.placements.items():
            for n, p in enumerate(placements, start=1):
                if p.status != WHOLE:
                    out.append(
                        {
                            "configuration": r.configuration.name,
                            "question_id": qid,
                            "span_index": n,
                            "status": p.status,
                            "span": list(p.span) if p.span else None,
                            "chunk": list(p.chunk) if p.chunk else None,
                            "pieces": [list(x) for x in p.pieces],
                            "reason": p.reason(),
                        }
                    )
    return out


def to_json(results: list[Result], settings: Settings, corpus_name: str) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "corpus": corpus_name,
        "settings": settings.__dict__,
        "configurations": [r.summary() for r in results],
        "not_whole": split_spans(results),
        "questions": [
            {
                "configuration": r.configuration.name,
                "retriever": name,
                "question_id": row.question.id,
                "complete": row.complete,
                "keyword": row.keyword,
                "complete_after_assembly": row.complete_after,
                "scores": row.scores.__dict__ if row.scores else None,
                "hits": [{"doc_id": h.doc_id, "start": h.start, "end": h.end, "id": h.id} for h in row.hits],
            }
            for r in results
            for name, rows in r.retrieved.items()
            for row in rows
        ],
    }
