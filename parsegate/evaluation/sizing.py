"""Unit sizing from annotated evidence (``parsegate eval --spans``).

Each question's minimum sufficient evidence is classified by the document's own structure (the
parsed elements, not any chunking): one sentence; several sentences of one paragraph (a list
item, a turn); one table row (with its header as context); one section (several elements under
one heading); several sections; a code definition with its context. Then, per configuration,
each question's evidence fits in one retrievable chunk, in one child plus its parent (a child
that holds some of it, expanded to the parent that holds all of it), or needs more. The
recommendation is the smallest unit (budget) whose best expansion policy covers the target
share of questions, at the lowest index overhead among those.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parsegate.chunkers.record import Chunk
from parsegate.chunkers.structural.kinds import CODE_KINDS
from parsegate.chunkers.structural.sentences import sentence_spans
from parsegate.evaluation.corpus import Corpus
from parsegate.evaluation.metrics import keyword_hit
from parsegate.evaluation.runner import Result
from parsegate.golden.evidence import Located
from parsegate.golden.placement import place
from parsegate.parsers.model import Document, Element

SENTENCE = "one sentence"
PARAGRAPH = "sentences of one paragraph"
TABLE_ROW = "one table row + header"
SECTION = "one section"
SECTIONS = "several sections"
CODE = "code definition + context"
NOT_IN_TEXT = "not in the text"
CLASSES = (SENTENCE, PARAGRAPH, TABLE_ROW, SECTION, SECTIONS, CODE, NOT_IN_TEXT)

ONE = "one chunk"
PARENT = "child + parent"
MORE = "needs more"
FITS = (ONE, PARENT, MORE)
DEFAULT_TARGET = 0.95


# -- classifying the evidence ---------------------------------------------------------------


def _overlapped(leaves: Sequence[Element], start: int, end: int) -> list[Element]:
    return [e for e in leaves if e.start < end and start < e.end]


def classify(doc: Document, located: Sequence[Located]) -> str:
    """The smallest structural unit that holds every span of one question (first occurrences)."""
    if not located or any(not span.found for span in located):
        return NOT_IN_TEXT
    ranges = [span.ranges[0] for span in located]
    leaves = doc.leaves()
    held = {e.id: e for start, end in ranges for e in _overlapped(leaves, start, end)}
    elements = list(held.values())
    if not elements:
        return NOT_IN_TEXT
    if len({e.section_path for e in elements}) > 1:
        return SECTIONS
    if any(e.kind in CODE_KINDS for e in elements):
        return CODE
    if len(elements) > 1:
        return SECTION
    (element,) = elements
    if element.kind == "table_row":
        return TABLE_ROW
    sentences = sentence_spans(doc.text, element.start, element.end)
    holding = {next((i for i, (s, e) in enumerate(sentences) if s <= a and b <= e), -1) for a, b in ranges}
    return SENTENCE if len(holding) == 1 and -1 not in holding else PARAGRAPH


# -- how far each question's evidence reaches -------------------------------------------------


def fit(located: Sequence[Located], chunks: Sequence[Chunk], indexed: Sequence[Chunk]) -> str:
    """ONE: a retrievable chunk holds every span whole (with its context); PARENT: a retrievable
    chunk holding some of the evidence has a parent that holds all of it; MORE: neither."""
    if not located or any(not span.found for span in located):
        return MORE
    if any(all(place(span, [c]).whole for span in located) for c in indexed):
        return ONE
    by_id = {c.id: c for c in chunks}
    ranges = [r for span in located for r in span.ranges]
    for child in indexed:
        parent = by_id.get(child.parent_id) if child.parent_id else None
        if parent is None or not keyword_hit(ranges, [(child.start, child.end)]):
            continue
        if all(place(span, [parent]).whole for span in located):
            return PARENT
    return MORE


@dataclass(frozen=True)
class Option:
    configuration: str
    strategy: str
    max_tokens: int
    expand: str  # "none" or "parent"
    covered: float  # share of questions whose evidence this unit and policy deliver
    overhead: float  # what the index holds (stored source chars / source chars)


@dataclass
class Sizing:
    classes: dict[str, str]  # question id → class
    fits: dict[str, dict[str, str]]  # configuration → question id → fit
    options: list[Option]
    target: float

    def distribution(self) -> dict[str, int]:
        counts = Counter(self.classes.values())
        return {c: counts[c] for c in CLASSES if counts[c]}

    def shares(self, configuration: str) -> dict[str, float]:
        rows = self.fits[configuration]
        counts = Counter(rows.values())
        return {f: counts[f] / len(rows) if rows else 0.0 for f in FITS}

    def by_class(self, configuration: str) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for qid, f in self.fits[configuration].items():
            row = out.setdefault(self.classes[qid], dict.fromkeys(FITS, 0))
            row[f] += 1
        return out

    def recommendation(self) -> Option | None:
        """The smallest unit with a policy covering the target, then the lowest index overhead."""
        covering = [o for o in self.options if o.covered >= self.target - 1e-12]
        if not covering:
            return None
        return min(covering, key=lambda o: (o.max_tokens, o.overhead, o.expand != "none", o.configuration))

    def best(self) -> Option | None:
        return max(self.options, key=lambda o: (o.covered, -o.overhead), default=None)

    def to_json(self) -> dict[str, Any]:
        chosen = self.recommendation()
        return {
            "target": self.target,
            "distribution": self.distribution(),
            "questions": self.classes,
            "configurations": {
                name: {"shares": self.shares(name), "by_class": self.by_class(name), "questions": rows}
                for name, rows in self.fits.items()
            },
            "options": [o.__dict__ for o in self.options],
            "recommendation": chosen.__dict__ if chosen else None,
        }


def size(corpus: Corpus, results: list[Result], target: float = DEFAULT_TARGET) -> Sizing:
    questions = corpus.answerable
    classes = {q.id: classify(corpus.docs[q.document].doc, corpus.located[q.id]) for q in questions}
    fits: dict[str, dict[str, str]] = {}
    options: list[Option] = []
    for result in results:
        config = result.configuration
        rows = {}
        for q in questions:
            chunks = result.chunks[q.document]
            indexed = [c for c in chunks if config.indexed(c)]
            rows[q.id] = fit(corpus.located[q.id], chunks, indexed)
        fits[config.name] = rows
        counts = Counter(rows.values())
        total = max(1, len(rows))
        stats = result.stats
        unit = (config.name, config.strategy, config.max_tokens)
        options.append(Option(*unit, "none", counts[ONE] / total, stats.overhead))
        if stats.parents:
            options.append(Option(*unit, "parent", (counts[ONE] + counts[PARENT]) / total, stats.stored_overhead))
    return Sizing(classes, fits, options, target)
