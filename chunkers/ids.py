"""Content-addressed ids: a chunk set names one parser/chunker/tokenizer configuration; a chunk id
names one span of one document version under it (same span, same config: same id, anywhere)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

# What json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False) builds on
# every call, built once (one digest per chunk).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_json_string = json.encoder.encode_basestring  # how _ENCODER writes a string (ensure_ascii=False)


def _digest(payload: object, length: int) -> str:
    raw = _ENCODER.encode(payload)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:length]


def chunk_set_id(config: dict[str, Any]) -> str:
    """Names one parser/chunker/tokenizer configuration; every chunk it made carries it."""
    return "cs-" + _digest(config, 16)


def chunk_id(chunk_set: str, doc_id: str, doc_version: str, start: int, end: int) -> str:
    """Same source span of the same document version under the same config → same id."""
    return ChunkIds(chunk_set, doc_id, doc_version)(start, end)


class ChunkIds:
    """``chunk_id`` of the spans of one document: what all their ids hash first (the set, the
    document, its version) is hashed once, on first use, and each id hashes its span on a copy."""

    def __init__(self, chunk_set: str, doc_id: str, doc_version: str) -> None:
        self.shared = (chunk_set, doc_id, doc_version)
        self.head: hashlib._Hash | None = None  # (typeshed's name for a hash object)

    def __call__(self, start: int, end: int) -> str:
        if self.head is None:
            chunk_set, doc_id, doc_version = self.shared
            # _digest([chunk_set, doc_id, doc_version, start, end], 32), its JSON written out: the
            # same bytes (a string as the encoder writes it, an int as its digits), far faster.
            head = f"[{_json_string(chunk_set)},{_json_string(doc_id)},{_json_string(doc_version)},"
            self.head = hashlib.sha256(head.encode())
        digest = self.head.copy()
        digest.update(f"{start:d},{end:d}]".encode())
        return "ch-" + digest.hexdigest()[:32]
