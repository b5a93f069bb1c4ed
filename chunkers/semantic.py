"""semantic-lexical and semantic-embedding: the structural chunker, plus cuts where the topic of
a section shifts.

Data flow: units and section runs as structural/ makes them → each run's prose sentences →
for every gap between two neighbouring sentences, the similarity of the windows of sentences on
either side (similarity.py: TF-IDF cosine, a lexical-overlap detector; or the cosine of mean
all-MiniLM-L6-v2 sentence embeddings) → a shift where the similarity is a local minimum at or
below the limit (the threshold; for embeddings also the document's own percentile) → each run
cut at its shifts → each piece packed exactly as structural packs a run (budget, strongest
boundary in reach, glue) → drafts. The budget guarantees are the packer's and finalize.py's.

Cuts stay inside sections (a section boundary is a cut already). A shift is never placed inside a
sentence, inside a list or a quote, between a heading, lead-in or table caption and what it
introduces, next to a table row or code, or before a sentence that leans on the one before
("However", "This limit"); and it leaves at least two sentences of the section on each side, and
between two shifts: a topic is more than one sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from parsegate.chunkers.similarity import LexicalOverlap, SentenceEmbeddings, Shift, Window
from parsegate.chunkers.structural.blocks import root
from parsegate.chunkers.structural.boundaries import Level, bonded_sentences
from parsegate.chunkers.structural.context import ContextBuilder
from parsegate.chunkers.structural.finalize import Draft
from parsegate.chunkers.structural.packing import Options, Packer
from parsegate.chunkers.structural.sentences import continues_previous, mentions_exception, sentence_spans
from parsegate.chunkers.structural.units import Unit, fit_units, leaf_units
from parsegate.chunkers.tokens.counter import Counter
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.model import Document

SEMANTIC = ("semantic-lexical", "semantic-embedding")
PROSE_KINDS = frozenset({"paragraph", "list_item", "turn", "footnote", "speaker_notes"})
MIN_SIDE = 2  # sentences a shift leaves on each side


class Detector(Protocol):
    name: str

    def check(self, window: int, threshold: float | None, percentile: float) -> float:
        """Validate the settings; the threshold to use."""
        ...

    def settings(self, shift: Shift) -> dict[str, Any]:
        """What names this detector's configuration in a chunk set."""
        ...

    def limit(self, similarities: list[float], shift: Shift) -> float:
        """The similarity at or below which a drop is a shift, in this document."""
        ...

    def similarities(self, sentences: list[str], windows: list[Window]) -> list[float]: ...


def make_detector(strategy: str, model: str) -> Detector:
    if strategy == "semantic-lexical":
        return LexicalOverlap()
    if strategy == "semantic-embedding":
        return SentenceEmbeddings(model)
    raise ValueError(f"'{strategy}' is not a semantic strategy")


@dataclass(frozen=True)
class _Sentence:
    start: int
    end: int
    unit: int  # index in its run


@dataclass(frozen=True)
class _Gap:
    run: int
    after: int  # index (in its run's sentences) of the sentence before the gap
    candidate: bool  # may a cut fall here at all


def semantic(
    doc: Document,
    counter: Counter,
    index: SpanIndex,
    builder: ContextBuilder,
    opts: Options,
    detector: Detector,
    shift: Shift,
) -> list[Draft]:
    packer = Packer(doc, index, builder, counter.specials, opts)
    units = leaf_units(doc)
    builder.warm([(u.section, u.context, int(u.kind == "heading")) for u in units])
    runs = packer.runs(fit_units(doc, units, index, packer.room, packer.whole_room))
    shifts = topic_shifts(doc, runs, detector, shift)
    chunks: list[list[Unit]] = []
    for run, starts in zip(runs, shifts, strict=True):
        for piece in cut_run(doc.text, run, starts):
            packed = packer.pack_run(piece)
            chunks.extend(packer.merge_small(packed) if opts.min_tokens > 0 else packed)
    return packer.drafts(chunks)


def topic_shifts(doc: Document, runs: list[list[Unit]], detector: Detector, shift: Shift) -> list[list[int]]:
    """For each run, the offsets where a sentence after a topic shift starts."""
    text = doc.text
    sentences = [_sentences(text, run) for run in runs]
    gaps, windows, flat = _gaps(doc, runs, sentences, shift.window)
    similarities = detector.similarities([text[s.start : s.end] for s in flat], windows)
    limit = detector.limit(similarities, shift)
    out: list[list[int]] = [[] for _ in runs]
    for n, gap in enumerate(gaps):
        if not gap.candidate or similarities[n] > limit:
            continue
        before = similarities[n - 1] if n > 0 and gaps[n - 1].run == gap.run else float("inf")
        after = similarities[n + 1] if n + 1 < len(gaps) and gaps[n + 1].run == gap.run else float("inf")
        if similarities[n] <= before and similarities[n] <= after:
            out[gap.run].append(gap.after)
    return [_spaced(out[r], similarities, gaps, r, sentences[r]) for r in range(len(runs))]


def _spaced(
    found: list[int], similarities: list[float], gaps: list[_Gap], run: int, sentences: list[_Sentence]
) -> list[int]:
    """The lowest drops first, each at least MIN_SIDE sentences from the others (a plateau of
    equally low gaps is one shift, not several one-sentence topics)."""
    sim = {g.after: similarities[n] for n, g in enumerate(gaps) if g.run == run}
    chosen: list[int] = []
    for after in sorted(found, key=lambda a: (sim[a], a)):
        if all(abs(after - other) >= MIN_SIDE for other in chosen):
            chosen.append(after)
    return sorted(sentences[a + 1].start for a in chosen)


def _sentences(text: str, run: list[Unit]) -> list[_Sentence]:
    """The prose sentences of a run; other units (headings, rows, code) are not compared."""
    out: list[_Sentence] = []
    for k, unit in enumerate(run):
        if unit.kind in PROSE_KINDS:
            out.extend(_Sentence(s, e, k) for s, e in sentence_spans(text, unit.start, unit.end))
    return out


def _gaps(
    doc: Document, runs: list[list[Unit]], sentences: list[list[_Sentence]], width: int
) -> tuple[list[_Gap], list[Window], list[_Sentence]]:
    """Every gap between two sentences of a run that nothing but whitespace separates, whether a
    cut may fall there, and the windows compared across it (indices into ``flat``)."""
    text = doc.text
    gaps: list[_Gap] = []
    windows: list[Window] = []
    flat: list[_Sentence] = []
    for r, (run, found) in enumerate(zip(runs, sentences, strict=True)):
        roots = [root(doc, u.element) for u in run]
        base = len(flat)
        flat.extend(found)
        bonded = {c.start for u in run if u.kind in PROSE_KINDS for c in bonded_sentences(text, u.start, u.end)}
        for i in range(len(found) - 1):
            left, right = found[i], found[i + 1]
            if right.unit - left.unit > 1:
                continue  # a table, code or heading lies between them
            candidate = (
                MIN_SIDE - 1 <= i < len(found) - MIN_SIDE
                and right.start not in bonded
                and not _leans(text, right)
                and not (right.unit != left.unit and (run[left.unit].glue_next or run[right.unit].glue_prev))
                and roots[left.unit] == run[left.unit].element  # not inside a list, a table or a quote
                and roots[right.unit] == run[right.unit].element
            )
            gaps.append(_Gap(r, i, candidate))
            lo, hi = max(0, i + 1 - width), min(len(found), i + 1 + width)
            windows.append((range(base + lo, base + i + 1), range(base + i + 1, base + hi)))
    return gaps, windows, flat


def _leans(text: str, sentence: _Sentence) -> bool:
    return continues_previous(text, sentence.start) or mentions_exception(text, sentence.start, sentence.end)


def cut_run(text: str, run: list[Unit], starts: list[int]) -> list[list[Unit]]:
    """A run cut before each offset in ``starts`` (sentence starts): a unit a shift falls inside
    becomes two, the second opening at a sentence boundary."""
    if not starts:
        return [run]
    pieces: list[list[Unit]] = [[]]
    todo = sorted(starts)
    for unit in run:
        current = unit
        while todo and todo[0] <= current.start:
            todo.pop(0)
            if pieces[-1]:
                pieces.append([])
        while todo and todo[0] < current.end:
            at = todo.pop(0)
            end = at
            while end > current.start and text[end - 1].isspace():
                end -= 1
            pieces[-1].append(replace(current, end=end, glue_next=False))
            pieces.append([])
            current = replace(current, start=at, level=max(current.level, Level.SENTENCE), glue_prev=False)
        pieces[-1].append(current)
    return [p for p in pieces if p]
