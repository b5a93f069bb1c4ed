"""Unknown text: a chunk whose text the embedder's tokenizer mostly reads as its unknown token is
not evidence, whatever its token count (issue 39: a 1M-character "word" is [CLS] [UNK] [SEP], three
tokens within any budget; a 200 KB base64 blob is one [UNK]). Measured with the real tokenizer
each chunk names: the characters of its text inside unknown tokens, over its non-space characters;
a chunk is mostly unknown above ``unknown_text_share`` (0.5). A tokenizer without an unknown token
(byte-level BPE, characters, words) has nothing to measure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsegate.quality_gates.checks.base import MAX_FAULTS, Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class UnknownFacts:
    # [chunk index, share of its non-space characters read as the unknown token], for the chunks
    # with any; None when no chunk's tokenizer has an unknown token (or it is not at hand).
    unknown_shares: list[list[float]] | None = field(default=None)


def measure(s: Subject) -> UnknownFacts:
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(s.chunks):
        groups.setdefault(c.tokenizer or "", []).append(i)
    shares: list[list[float]] = []
    measured = False
    for name, indices in groups.items():
        counter = s.tokenizers(name)
        unknown = getattr(counter, "unknown_chars", None)
        counts = unknown([s.chunks[i].text for i in indices]) if unknown is not None else None
        if counts is None:
            continue
        measured = True
        for i, chars in zip(indices, counts, strict=True):
            if chars:
                visible = len("".join(s.chunks[i].text.split()))  # str.split() splits where isspace()
                shares.append([i, round(chars / max(visible, 1), 4)])
    return UnknownFacts(sorted(shares) if measured else None)


def mostly_unknown(facts: DocFacts, threshold: float) -> list[tuple[int, float]]:
    own = facts.get(UnknownFacts).unknown_shares or []
    return [(int(i), share) for i, share in own if share > threshold]


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    if facts.get(UnknownFacts).unknown_shares is None:
        return None, facts.chunks
    return len(mostly_unknown(facts, thresholds.unknown_text_share)), facts.chunks


def faults_of(facts: DocFacts, thresholds: Thresholds) -> list[dict[str, Any]]:
    found = mostly_unknown(facts, thresholds.unknown_text_share)
    return [
        {"chunk_index": i, "why": f"{share:.0%} of its text is the tokenizer's unknown token"}
        for i, share in found[:MAX_FAULTS]
    ]


CHECK = Definition(
    name="unknown",
    metric="unknown_chunk_rate",
    label="unknown text",
    limit=Limit("max_unknown_chunk_rate", 0.0),
    params=(Limit("unknown_text_share", 0.5, float),),  # above this share of its text a chunk is unknown
    facts=UnknownFacts,
    measure=measure,
    parts=parts,
    faults_of=faults_of,
    stored="unknown_shares",
)
