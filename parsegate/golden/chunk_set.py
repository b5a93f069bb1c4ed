"""What a case's chunk set is made of, readably, and what changed in it since the expected files.

A chunk set (``chunk_set`` on every chunk, part of every chunk id) is a hash of the parser's
name and version (library versions included), the chunker's version, the tokenizer's fingerprint
and the settings. Expected files keep its ingredients once per case, in
``expected/chunk_set.json``, not the hash on every chunk: a change of configuration or of a
library's version is then reported once, as information, and no span, text or section hides
behind a rewrite of every id. Expected files written before that carry the hash on each chunk;
it is compared as it is.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from parsegate.chunkers import OUTPUT_VERSION, Chunker, __version__
from parsegate.parsers.model import Document

Record = dict[str, Any]


def made_with(doc: Document, chunker: Chunker) -> Record:
    """The ingredients of the chunk set a chunker gives a document (in a fixed key order)."""
    return {
        "parser": doc.parser,
        "chunker": f"parsegate-chunkers/{__version__}+{OUTPUT_VERSION}",
        "tokenizer": chunker.counter.fingerprint,
        "settings": asdict(chunker.config),
    }


def _flatten(record: Record, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def changes(before: Record, after: Record) -> list[Record]:
    """One entry per ingredient that differs: {"field", "before", "after"}."""
    old, new = _flatten(before), _flatten(after)
    keys = list(old) + [k for k in new if k not in old]
    return [{"field": k, "before": old.get(k), "after": new.get(k)} for k in keys if old.get(k) != new.get(k)]


def legacy_changes(records: list[Record], chunk_set: str | None) -> list[Record]:
    """An expected file that stored each chunk's ``chunk_set``: its hash against today's."""
    stored = sorted({str(r["chunk_set"]) for r in records if r.get("chunk_set")})
    if not stored or stored == [chunk_set]:
        return []
    return [{"field": "chunk_set", "before": ", ".join(stored), "after": chunk_set}]


def chunk_set_changes(
    stored: Record | None, expected_chunks: list[Record] | None, now: Record, chunk_set: str | None
) -> list[Record]:
    """What changed in the case's chunk set since its expected files were written ([] if
    nothing, or nothing recorded to compare with)."""
    if stored is not None:
        return changes(stored, now)
    return legacy_changes(expected_chunks or [], chunk_set)
