"""Duplicates: what gets embedded twice, the same embed_text (whitespace and case aside), in a
document and over the whole run (the same text in two files is embedded twice). A run that fails
it names each document whose chunks repeat an earlier document's (in document order), the
document they repeat, and the pairs of chunks (a ``.pptx`` saved beside its ``.ppt``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsegate.quality_gates.checks.base import MAX_FAULTS, Definition, Limit, Subject, share

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "duplicates"


@dataclass(frozen=True)
class DuplicateFacts:
    duplicates: int | None = None  # chunks whose embed_text repeats an earlier one here
    embed_hashes: list[str] | None = None  # normalized embed_text, for run-wide duplicates


def normalized_hash(text: str) -> str:
    return hashlib.sha1(" ".join(text.lower().split()).encode("utf-8")).hexdigest()[:16]


def measure(s: Subject) -> DuplicateFacts:
    hashes = [normalized_hash(c.embed_text) for c in s.chunks]
    seen: dict[str, Chunk] = {}
    duplicates = 0
    for h, c in zip(hashes, s.chunks, strict=True):
        if h in seen:
            duplicates += 1
            s.faults.chunk(FAULTS, c, f"same embed_text as {seen[h].id}")
        else:
            seen[h] = c
    return DuplicateFacts(duplicates, hashes)


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    return facts.get(DuplicateFacts).duplicates, facts.chunks


def total(all_facts: list[DocFacts], thresholds: Thresholds) -> float | None:
    """Over the run: every embed_text against every other, in any document."""
    hashed = [h for f in all_facts if (h := f.get(DuplicateFacts).embed_hashes) is not None]
    if not hashed:
        return None
    hashes = [h for listed in hashed for h in listed]
    return share(len(hashes) - len(set(hashes)), len(hashes))


def run_faults(all_facts: list[DocFacts]) -> list[dict[str, Any]]:
    """Over the run, one entry per pair of documents: a document (``doc_id``) whose chunks embed
    the same text as chunks of an earlier one (``duplicate_of``; itself, for its own repeats), with
    how many and which (``pairs``: chunk index here, chunk index there), most repeats first."""
    first: dict[str, tuple[str, int]] = {}
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for facts in sorted(all_facts, key=lambda f: f.doc_id):
        for index, h in enumerate(facts.get(DuplicateFacts).embed_hashes or ()):
            seen = first.setdefault(h, (facts.doc_id, index))
            if seen != (facts.doc_id, index):
                pair = {"chunk_index": index, "of_chunk_index": seen[1]}
                found.setdefault((facts.doc_id, seen[0]), []).append(pair)
    sizes = {f.doc_id: f.chunks for f in all_facts}
    out = []
    for (doc_id, other), pairs in sorted(found.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        whose = "its own" if other == doc_id else f"{other}'s"
        why = f"{len(pairs)} of its {sizes[doc_id]} chunks embed the same text as {whose}"
        entry = {"doc_id": doc_id, "duplicate_of": other, "count": len(pairs), "pairs": pairs[:MAX_FAULTS]}
        out.append({**entry, "why": why})
    return out[:MAX_FAULTS]


CHECK = Definition(
    name="duplicates",
    metric="duplicate_rate",
    label="duplicates",
    limit=Limit("max_duplicate_rate", 0.1),  # per document, and over the whole run
    facts=DuplicateFacts,
    measure=measure,
    parts=parts,
    total=total,
    faults=FAULTS,
    independent=True,
    stored="duplicates",
    run_level=True,
    run_faults=run_faults,
)
