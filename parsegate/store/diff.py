"""``parsegate diff A B``: what changed from chunk set A to chunk set B over their current
documents. Documents only in A (removed) or only in B (added); for documents in both, the
chunks removed and added (a chunk is the same when its document version, span and embed_text
are: ids differ between chunk sets by construction), and for every chunk of A the chunks of B
that cover its source span, so that a citation of the old chunk can be re-pointed.

When the document version changed too, old offsets are carried to the new text through the
lines the two versions share (difflib over the text the chunks hold, line by line)."""

from __future__ import annotations

import difflib
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import orjson

from parsegate.store.read import chunk_lines, members


@dataclass
class DocDiff:
    doc_id: str
    version_a: str
    version_b: str
    removed: list[str] = field(default_factory=list)  # chunk ids of A with no equal chunk in B
    added: list[str] = field(default_factory=list)  # chunk ids of B with no equal chunk in A
    covered_by: dict[str, list[str]] = field(default_factory=dict)  # every A chunk id → B chunk ids

    @property
    def changed(self) -> bool:
        return bool(self.removed or self.added)


@dataclass
class Diff:
    a: str
    b: str
    only_a: list[str]
    only_b: list[str]
    documents: list[DocDiff]

    def to_dict(self) -> dict[str, Any]:
        changed = [d for d in self.documents if d.changed]
        return {
            "schema": "parsegate.diff/1",
            "a": self.a,
            "b": self.b,
            "documents_only_in_a": self.only_a,
            "documents_only_in_b": self.only_b,
            "documents_unchanged": sum(1 for d in self.documents if not d.changed),
            "documents_changed": [
                {
                    "doc_id": d.doc_id,
                    "version_a": d.version_a,
                    "version_b": d.version_b,
                    "chunks_removed": d.removed,
                    "chunks_added": d.added,
                    "covered_by": d.covered_by,
                }
                for d in changed
            ],
        }


def diff(db: sqlite3.Connection, a: str, b: str) -> Diff:
    docs_a = {m.doc_id: m.version for m in members(db, a)}
    docs_b = {m.doc_id: m.version for m in members(db, b)}
    both = sorted(docs_a.keys() & docs_b.keys())
    return Diff(
        a,
        b,
        sorted(docs_a.keys() - docs_b.keys()),
        sorted(docs_b.keys() - docs_a.keys()),
        [
            compare(doc, docs_a[doc], docs_b[doc], _records(db, a, doc, docs_a[doc]), _records(db, b, doc, docs_b[doc]))
            for doc in both
        ],
    )


def _records(db: sqlite3.Connection, chunk_set: str, doc_id: str, version: str) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in chunk_lines(db, chunk_set, doc_id, version)]


def _same(record: dict[str, Any]) -> tuple[Any, ...]:
    return (record["doc_version"], record["start"], record["end"], record["embed_text"])


def compare(
    doc_id: str, version_a: str, version_b: str, old: list[dict[str, Any]], new: list[dict[str, Any]]
) -> DocDiff:
    result = DocDiff(doc_id, version_a, version_b)
    keys_old, keys_new = {_same(c) for c in old}, {_same(c) for c in new}
    result.removed = [c["id"] for c in old if _same(c) not in keys_new]
    result.added = [c["id"] for c in new if _same(c) not in keys_old]
    carry = (lambda s, e: [(s, e)]) if version_a == version_b else _carrier(old, new)
    for c in old:
        spans = carry(c["start"], c["end"])
        result.covered_by[c["id"]] = [n["id"] for n in new if any(n["start"] < e and s < n["end"] for s, e in spans)]
    return result


def _text(records: list[dict[str, Any]]) -> str:
    """The document text as far as its chunks hold it (gaps as NUL: they never match)."""
    size = max((c["end"] for c in records), default=0)
    chars = ["\0"] * size
    for c in records:
        chars[c["start"] : c["end"]] = c["text"]
    return "".join(chars)


def _carrier(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> Any:
    """A map of an old span to the new text's spans that hold the same lines."""
    old_lines = _text(old).splitlines(keepends=True)
    new_lines = _text(new).splitlines(keepends=True)
    blocks = []  # (old start, old end, shift to the new offset)
    offsets_old, offsets_new = _starts(old_lines), _starts(new_lines)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for i, j, n in matcher.get_matching_blocks():
        if n:
            start = offsets_old[i]
            blocks.append((start, offsets_old[i + n], offsets_new[j] - start))

    def carry(start: int, end: int) -> list[tuple[int, int]]:
        return [(max(start, s) + shift, min(end, e) + shift) for s, e, shift in blocks if s < end and start < e]

    return carry


def _starts(lines: list[str]) -> list[int]:
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    return offsets
