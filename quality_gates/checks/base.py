"""What a check is: its definition (``Definition``), the document it measures (``Subject``), and
the ledger its faults go into (``Faults``).

Each check is a module of this package with a ``CHECK`` at its foot: the metric the report and
run.json name it by, its threshold (a field of ``Thresholds``: which way it points, its default),
its label, the formats it applies to, whether it needs the source, and its functions: ``measure``
(the document and its chunks → the check's own small facts), and ``parts`` (a share: numerator and
denominator of its facts) or ``value`` (a count). Everything else (``Thresholds``, the report's
rows, which metrics are not measured, how a run adds documents up) is derived from the table of
checks in ``checks/__init__.py``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.chunkers.tokens.counter import Counter as TokenCounter
    from parsegate.parsers.model import Document, Element
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.references import Reference
    from parsegate.quality_gates.thresholds import Thresholds
    from parsegate.quality_gates.verdict import Check

F = TypeVar("F")
Value = float | int | None
Direction = Literal[">=", "<="]
# The tokenizer a chunk names (its fingerprint) → a loaded counter, or None when unknown.
Tokenizers = Callable[[str], "TokenCounter | None"]
MAX_FAULTS = 40  # chunks or spans listed per check (the counts are always exact)


@dataclass(frozen=True)
class Limit:
    """A field of ``Thresholds``: its name says its direction (``min_…`` is ≥, ``max_…`` is ≤);
    ``None`` as the default means the check is off unless a threshold is given."""

    name: str
    default: float | int | tuple[str, ...] | None
    kind: type[float] | type[int] | type[tuple[str, ...]] = float

    @property
    def direction(self) -> Direction:
        return ">=" if self.name.startswith("min_") else "<="

    @property
    def optional(self) -> bool:
        """It can be switched off (``none``/``off``): it has no default."""
        return self.default is None

    @property
    def off_by_default(self) -> bool:
        return self.default is None or self.default == ()

    def passes(self, value: float | int, bound: float | int) -> bool:
        return value >= bound if self.direction == ">=" else value <= bound


@dataclass(frozen=True)
class Definition(Generic[F]):
    """One check, as the table of checks holds it."""

    name: str  # the check's module
    metric: str | None  # its key in metrics (verdicts, report.json); None: no metric (warnings)
    label: str | None  # as the report shows it
    limit: Limit | None = None  # its threshold; None: informational only
    params: tuple[Limit, ...] = ()  # other fields of Thresholds it reads (short chunks' token count)
    facts: type[F] | None = None  # its own facts, saved in run.json under their field names
    measure: Callable[[Subject], F] | None = None
    # A share: (numerator, denominator) of the facts; the value is their ratio, a run's is the
    # ratio of their sums over the documents where the numerator was measured.
    parts: Callable[[DocFacts, Thresholds], tuple[int | None, int | None]] | None = None
    # A count: its value, and (default: the sum of the measured values) a run's.
    value: Callable[[DocFacts, Thresholds], Value] | None = None
    total: Callable[[list[DocFacts], Thresholds], Value] | None = None
    faults: str | None = None  # its key in the facts' faults
    faults_of: Callable[[DocFacts, Thresholds], list[dict[str, Any]]] | None = None  # computed instead
    # Checks that judge otherwise than value against threshold (warnings: one check per code).
    judge: Callable[[DocFacts, Thresholds], list[Check]] | None = None
    formats: frozenset[str] | None = None  # the formats it can have a value for; None: any
    needs_source: bool | frozenset[str] = False  # not measured without the source (for these formats)
    # Measured against an independent signal: a value of None then means "not measured", not
    # "does not apply" (``applies`` says when it does not).
    independent: bool = False
    applies: Callable[[DocFacts], bool] | None = None
    stored: str | None = None  # the facts field whose absence from a saved run leaves it not measured
    run_level: bool = False  # also judged over a whole run (the same text embedded from two files)
    # A run-level check's faults when the run fails it: the documents and chunks at fault, by
    # document id and chunk index (the runner adds the chunk ids from the outputs).
    run_faults: Callable[[list[DocFacts]], list[dict[str, Any]]] | None = None

    def __post_init__(self) -> None:
        if (self.parts is None) == (self.value is None) and self.metric is not None:
            raise ValueError(f"check {self.name}: give parts (a share) or value (a count)")

    @property
    def share(self) -> bool:
        return self.parts is not None

    def of(self, facts: DocFacts, thresholds: Thresholds) -> Value:
        """This check's metric for one document."""
        if self.parts is not None:
            return share(*self.parts(facts, thresholds))
        return None if self.value is None else self.value(facts, thresholds)


def share(part: int | None, whole: int | None) -> float | None:
    return None if part is None or not whole else round(part / whole, 6)


class Faults:
    """Per check, the chunks and source spans at fault (at most ``MAX_FAULTS`` each), in the order
    found; a check with none has no entry."""

    def __init__(self) -> None:
        self.lists: dict[str, list[dict[str, Any]]] = {}

    def add(self, check: str, **where: Any) -> None:
        listed = self.lists.setdefault(check, [])
        if len(listed) < MAX_FAULTS:
            listed.append(where)

    def chunk(self, check: str, chunk: Chunk, why: str) -> None:
        self.add(check, chunk=chunk.id, start=chunk.start, end=chunk.end, why=why)


@dataclass
class Subject:
    """One document under measurement: what every check's ``measure`` reads (the state, in
    markdown-it's terms). Steps several checks share (the token counts, the reference) are
    computed on first use, once."""

    doc: Document
    chunks: Sequence[Chunk]
    budget: int
    budgets: list[int]  # per chunk: parent-child's parents are counted against their own budget
    parents: frozenset[str]  # ids of the chunks others name as their parent
    tokenizers: Tokenizers
    source: bytes | None
    password: str | None = None  # the PDF password the document was parsed with
    expensive: bool = True  # in the gate's sample: docling's export is taken (quality_gates/sample.py)
    faults: Faults = field(default_factory=Faults)
    opened: bool = False
    shared: dict[str, Any] = field(default_factory=dict)  # other steps several checks read, by name

    @cached_property
    def reference(self) -> Reference | None:
        """The independent view of the source (quality_gates.references), opened once."""
        from parsegate.quality_gates.references import open_reference  # markdown-it, PDFium, docling

        self.opened = True
        return open_reference(self.doc.format, self.source, self.doc.doc_id, self.password, self.expensive)

    @cached_property
    def counts(self) -> Counts:
        from parsegate.quality_gates.checks.counts import count_tokens

        return count_tokens(self.chunks, self.tokenizers)

    @cached_property
    def text_words(self) -> list[list[str]]:
        """Each chunk's text as the gate's words (quality_gates/words.py), folded once."""
        from parsegate.quality_gates.words import words

        return [words(c.text) for c in self.chunks]

    @cached_property
    def code(self) -> list[Chunk]:
        """The chunks naming a language, parents aside (they overlap their children by design)."""
        return [c for c in self.chunks if c.language and c.id not in self.parents]

    def close(self) -> None:
        if self.opened and self.reference is not None:
            self.reference.close()


@dataclass(frozen=True)
class Counts:
    """Every embed_text counted for real with the tokenizer its chunk names, and every text."""

    embedded: list[int | None]  # None: the chunk names a tokenizer that is not at hand
    text: list[int]  # tokens of the text alone (0 where unknown)
    counters: list[TokenCounter | None]
    unknown: list[int]  # chunks naming an unknown tokenizer, grouped by tokenizer


def overlapping(starts: list[int], elements: list[Element], start: int, end: int) -> list[Element]:
    """The elements (sorted by start, ``starts`` theirs) that overlap [start, end)."""
    i = max(0, bisect.bisect_right(starts, start) - 1)
    out = []
    while i < len(elements) and elements[i].start < end:
        if elements[i].end > start:
            out.append(elements[i])
        i += 1
    return out
