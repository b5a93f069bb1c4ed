"""The comparison as one table in the terminal (the JSON is parsegate.evaluation.report)."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from parsegate.evaluation.report import split_spans
from parsegate.evaluation.runner import Result, Settings
from parsegate.evaluation.sizing import FITS, Sizing


def _pct(value: float | None) -> str:
    if value is None:
        return "–"
    return "100%" if value == 1 else f"{100 * value:.1f}%"


def _num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def tables(results: list[Result], settings: Settings) -> tuple[Table, Table]:
    """Two tables that fit 80 columns: what each configuration's chunks are (and how much evidence
    they keep whole), then what retrieval finds in them; the configuration's name whole in both."""
    chunks = Table(title="evidence evaluation · chunks", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1))
    chunks.add_column("configuration", no_wrap=True)
    for col in ("chunks", "mean", "max", "ovh", "spans", "qs"):
        chunks.add_column(col, justify="right", no_wrap=True)
    title = f"retrieval · top-{settings.k} from the {settings.scope} · assembly: {settings.expand or 'per config'}"
    found = Table(
        title=title + (f", budget {settings.budget}" if settings.budget else ""),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
    )
    found.add_column("configuration", no_wrap=True)
    found.add_column("ret", no_wrap=True)
    for col in ("rec", "prec", "IoU", "hit", "kw", "asm"):
        found.add_column(col, justify="right", no_wrap=True)
    for r in results:
        s = r.summary()
        chunks.add_row(
            s["configuration"],
            str(s["chunks"]),
            f"{s['mean_tokens']:.0f}",
            str(s["max_tokens"]),
            f"{s['overhead']:.2f}",
            _pct(s["spans_whole"]),
            _pct(s["questions_whole"]),
        )
        for name, m in (s["retrieval"] or {}).items():
            found.add_row(
                s["configuration"],
                name,
                _num(m.get("recall"), 2),
                _num(m.get("precision"), 2),
                _num(m.get("iou"), 2),
                _pct(m.get("complete")),
                _pct(m.get("keyword")),
                _pct(m.get("complete_after_assembly")),
            )
    return chunks, found


def _notes(results: list[Result]) -> list[str]:
    """What the narrow table leaves out, where it is not zero: parents stored, chunks over budget."""
    notes = []
    for r in results:
        s = r.summary()
        if s["parents"]:
            notes.append(
                f"{s['configuration']}: {s['parents']} parents stored, overhead with them {s['stored_overhead']:.2f}"
            )
        if s["over_budget"]:
            notes.append(f"{s['configuration']}: {s['over_budget']} chunks over budget")
    return notes


def print_results(results: list[Result], settings: Settings, console: Console, show_split: bool = True) -> None:
    for shown in tables(results, settings):
        console.print(shown)
    for note in _notes(results):
        console.print(note, highlight=False, soft_wrap=True)
    console.print(
        "chunks, mean/max: indexed chunks and their tokens; ovh: indexed source characters / source characters "
        "(overlap raises it); spans: evidence spans lying whole in one chunk that carries their context; qs: "
        "questions whose every span does; ret: retriever; rec, prec, IoU: token recall, precision and IoU of the "
        "top-k; hit: every span of the question whole in one of the top-k chunks; kw: some top-k chunk overlaps "
        "some evidence; asm: hit after each configuration's assembly (parent-child: to the parent). --json has "
        "every figure unrounded, embedded/source tokens and chunking seconds too.",
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
