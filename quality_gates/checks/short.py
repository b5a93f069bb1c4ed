"""Short chunks: a chunk under ``short_chunk_tokens`` tokens of text, in a document with more
than one chunk, is abnormally short (an empty chunk is counted as empty, not as short), unless it
holds a whole section, its heading and all of its own text (a slide with one bullet: short
because the source is, not because a chunker cut it)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsegate.parsers.model import BLOCK_KINDS, NON_BODY_KINDS
from parsegate.quality_gates.checks.base import MAX_FAULTS, Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.parsers.model import Document
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class ShortFacts:
    text_tokens: list[int] = field(default_factory=list)  # per chunk, the evidence alone
    whole_sections: list[int] | None = None  # chunks holding a whole section (never abnormally short)


def measure(s: Subject) -> ShortFacts:
    return ShortFacts(list(s.counts.text), _whole_sections(s.doc, s.chunks))


def _whole_sections(doc: Document, chunks: Sequence[Chunk]) -> list[int]:
    """Indices of the chunks that hold a whole section: from its heading to the end of the last
    element before the next heading, that section having text of its own besides the heading."""
    body = [e for e in doc.elements if e.kind not in NON_BODY_KINDS]
    heads = [n for n, e in enumerate(body) if e.kind == "heading"]
    starts: list[int] = []
    ends: list[int] = []
    for n, at in enumerate(heads):
        own = body[at + 1 : heads[n + 1] if n + 1 < len(heads) else len(body)]
        if own:
            starts.append(body[at].start)
            ends.append(max(e.end for e in own))
    # Sections follow one another in the text: a chunk holds a whole one if it holds the first
    # that starts inside it (one lookup per chunk; a reference page has thousands of sections).
    whole = []
    for i, c in enumerate(chunks):
        n = bisect.bisect_left(starts, c.start)
        if n < len(starts) and ends[n] <= c.end:
            whole.append(i)
    # A notebook's cell or output held whole ("1 / 0", "42"): short because the source is (no
    # chunk holds more than one, parsers/notebook).
    blocks = {(e.start, e.end) for e in doc.elements if e.kind in BLOCK_KINDS}
    if blocks:
        held = set(whole)
        whole.extend(i for i, c in enumerate(chunks) if i not in held and (c.start, c.end) in blocks)
        whole.sort()
    return whole


def short_chunks(facts: DocFacts, threshold: int) -> list[tuple[int, int]]:
    """(index, tokens) of the abnormally short chunks."""
    if facts.chunks <= 1:
        return []
    own = facts.get(ShortFacts)
    whole = set(own.whole_sections or ())
    return [(i, t) for i, t in enumerate(own.text_tokens) if 0 < t < threshold and i not in whole]


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    return len(short_chunks(facts, thresholds.short_chunk_tokens)), facts.chunks


def faults_of(facts: DocFacts, thresholds: Thresholds) -> list[dict[str, Any]]:
    limit = thresholds.short_chunk_tokens
    short = short_chunks(facts, limit)
    return [{"chunk_index": i, "why": f"{t} tokens of text (under {limit})"} for i, t in short[:MAX_FAULTS]]


CHECK = Definition(
    name="short",
    metric="short_chunk_rate",
    label="short chunks",
    limit=Limit("max_short_chunk_rate", 0.25),
    params=(Limit("short_chunk_tokens", 8, int),),  # a chunk under this many tokens of text is short
    facts=ShortFacts,
    measure=measure,
    parts=parts,
    faults_of=faults_of,
)
