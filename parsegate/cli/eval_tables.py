"""The comparison as one table in the terminal (the JSON is parsegate.evaluation.report)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from parsegate.evaluation.report import split_spans
from parsegate.evaluation.runner import Result, Settings
from parsegate.evaluation.sizing import FITS, Sizing


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
        "parents",
        "mean tok",
        "max tok",
        "over budget",
        "overhead",
        "stored overhead",
        "embedded / source tok",
        "chunking s",
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
                str(s["parents"]) if first else "",
                f"{s['mean_tokens']:.1f}" if first else "",
                str(s["max_tokens"]) if first else "",
                str(s["over_budget"]) if first else "",
                f"{s['overhead']:.3f}" if first else "",
                f"{s['stored_overhead']:.3f}" if first else "",
                f"{s['embed_ratio']:.3f}" if first else "",
                f"{s['seconds']:.2f}" if first else "",
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


def print_results(results: list[Result], settings: Settings, console: Console, show_split: bool = True) -> None:
    console.print(table(results, settings))
    console.print(
        "spans whole: evidence spans lying whole in one chunk that carries their context; complete hit: every span of "
        "the question whole in one of the top-k chunks; keyword hit: some top-k chunk overlaps some evidence; "
        "overhead: indexed source characters / source characters (overlap raises it); stored overhead: the same with "
        "the parents a parent-child index stores but does not embed; mean/max tok: of the indexed chunks; embedded / "
        "source tok: tokens of every indexed embed_text (context prefixes, special tokens) / tokens of the source; "
        "complete after assembly: after each configuration's expansion (parent-child: to the parent); chunking s: "
        "seconds to chunk the corpus, in this run.",
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


def print_sizing(sizing: Sizing, console: Console) -> None:
    """--spans: what the questions need, what each configuration delivers, and the choice."""
    total = sum(sizing.distribution().values()) or 1
    kinds = Table(title="minimum sufficient evidence per question", title_justify="left")
    for col in ("evidence", "questions", "share"):
        kinds.add_column(col, justify="left" if col == "evidence" else "right")
    for name, n in sizing.distribution().items():
        kinds.add_row(name, str(n), _pct(n / total))
    console.print(kinds)
    fits = Table(title="where each question's evidence fits", title_justify="left")
    for col in ("configuration", *FITS, "overhead", "stored overhead", "needs more, by evidence"):
        fits.add_column(col, justify="left" if col in ("configuration", "needs more, by evidence") else "right")
    overheads = {(o.configuration, o.expand): o.overhead for o in sizing.options}
    for name in sizing.fits:
        shares = sizing.shares(name)
        more = ", ".join(f"{c}: {row['needs more']}" for c, row in sizing.by_class(name).items() if row["needs more"])
        stored = overheads.get((name, "parent"))
        fits.add_row(
            name,
            *(_pct(shares[f]) for f in FITS),
            _num(overheads[(name, "none")]),
            _num(stored) if stored is not None else "–",
            more or "–",
        )
    console.print(fits)
    chosen = sizing.recommendation()
    target = _pct(sizing.target)
    if chosen is None:
        best = sizing.best()
        console.print(
            f"no configuration delivers {target} of the questions' evidence"
            + (f"; the most: {best.configuration}, expansion {best.expand}: {_pct(best.covered)}" if best else ""),
            highlight=False,
        )
        return
    policy = "retrieve chunks as they are" if chosen.expand == "none" else "retrieve children, expand to the parent"
    console.print(
        f"recommended for {target} of the questions: {chosen.configuration} — {policy}; delivers "
        f"{_pct(chosen.covered)} at an index overhead of {chosen.overhead:.3f} (smallest unit that reaches the "
        "target, then the lowest overhead)",
        highlight=False,
    )
