"""The comparison as one table (terminal), and as JSON."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from parsegate.evaluation.placement import WHOLE
from parsegate.evaluation.runner import Result, Settings

SCHEMA = "parsegate.eval/1"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def table(results: list[Result], settings: Settings) -> Table:
    t = Table(
        title=f"evidence evaluation · top-{settings.k} from the {settings.scope} · assembly: "
        f"{settings.expand or 'per configuration'}" + (f", budget {settings.budget}" if settings.budget else ""),
        title_justify="left",
    )
    for col in (
        "configuration",
        "chunks",
        "mean tok",
        "max tok",
        "over budget",
        "overhead",
        "embedded / source tok",
        "spans whole",
        "questions whole",
        "retriever",
        "recall",
        "precision",
        "IoU",
        "complete hit",
        "keyword hit",
        "complete after assembly",
    ):
        t.add_column(col, justify="left" if col in ("configuration", "retriever") else "right")
    for r in results:
        s = r.summary()
        first = True
        for name, m in (s["retrieval"] or {"–": {}}).items():
            t.add_row(
                s["configuration"] if first else "",
                str(s["chunks"]) if first else "",
                f"{s['mean_tokens']:.1f}" if first else "",
                str(s["max_tokens"]) if first else "",
                str(s["over_budget"]) if first else "",
                f"{s['overhead']:.3f}" if first else "",
                f"{s['embed_ratio']:.3f}" if first else "",
                _pct(s["spans_whole"]) if first else "",
                _pct(s["questions_whole"]) if first else "",
                name,
                _num(m.get("recall")),
                _num(m.get("precision")),
                _num(m.get("iou")),
                _pct(m.get("complete")),
                _pct(m.get("keyword")),
                _pct(m.get("complete_after_assembly")),
            )
            first = False
    return t


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


def print_results(results: list[Result], settings: Settings, console: Console, show_split: bool = True) -> None:
    console.print(table(results, settings))
    console.print(
        "spans whole: evidence spans lying whole in one chunk that carries their context; complete hit: every span of "
        "the question whole in one of the top-k chunks; keyword hit: some top-k chunk overlaps some evidence; "
        "overhead: indexed source characters / source characters (overlap raises it); embedded / source tok: tokens "
        "of every embed_text (context prefixes, special tokens) / tokens of the source.",
        style="dim",
        highlight=False,
    )
    if not show_split:
        return
    for entry in split_spans(results):
        console.print(
            f"  {entry['configuration']}: {entry['question_id']} span {entry['span_index']}: {entry['reason']}",
            highlight=False,
            soft_wrap=True,
        )


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
