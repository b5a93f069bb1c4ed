"""``DocFacts``: what the gate measured on one document, before any threshold: the document's
name, format and count of chunks, each check's own facts (``checks/``), and the faults.

Facts cross process boundaries (a worker measures, the parent gates) and are saved in
``run.json`` so that ``parsegate gate OUTDIR`` can re-judge a run under other thresholds without
parsing again; there they are one flat object (``parsegate.facts/2``): every check's fields under
their own names. A run written by an older parsegate is read with its unknown fields ignored and
its missing ones left at their defaults (``None``: not measured), named in ``missing``, which the
gate reports as *not measured* (never as passed or failed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import Field, fields
from operator import itemgetter
from typing import Any, TypeVar

from parsegate.quality_gates.checks import CHECKS
from parsegate.quality_gates.checks.base import MAX_FAULTS

__all__ = ["FACTS_SCHEMA", "MAX_FAULTS", "MEASURE_VERSION", "DocFacts"]

FACTS_SCHEMA = "parsegate.facts/2"
# The gate's measurement, bumped whenever its facts can change for the same document and chunks
# (a check or reference reads differently): a chunk store's outcomes measured by another version
# are measured again, not reused (parsegate/runner/stored.py). CHANGELOG.md lists each.
MEASURE_VERSION = 5
# Fields whose meaning changed in facts/2: version 1 measured them against the chunker's own
# data (a check that could not fail), so an old value is not evidence and is read as missing.
_REDEFINED_IN_2 = frozenset({"heading_ok", "heading_checked", "localized", "duplicates", "text_hashes"})
T = TypeVar("T")

# Each check's facts class with its fields, in the table's order (computed once, not per document).
_KINDS: tuple[tuple[type[Any], tuple[Field[Any], ...]], ...] = tuple(
    (c.facts, fields(c.facts)) for c in CHECKS if c.facts is not None
)
# Besides the checks' own: which independent reference measured the document (``Reference.kind``,
# None: none), and whether it was in the gate's sample (quality_gates/sample.py; None for a format
# whose references are all cheap, which every document gets).
_HEADER = ("chunks", "faults", "reference", "sampled")
_NAMES = tuple((kind, tuple(f.name for f in kind_fields)) for kind, kind_fields in _KINDS)
_GETTERS = tuple(
    (kind, (lambda d, n=names[0]: (d[n],)) if len(names) == 1 else itemgetter(*names)) for kind, names in _NAMES
)
_OWNER: dict[str, type[Any]] = {}
for _kind, _kind_fields in _KINDS:
    for _f in _kind_fields:
        _OWNER.setdefault(_f.name, _kind)  # a field two checks share (code_chunks): the same count
# The fields whose absence from a saved run leaves something not measured.
_SAVED = tuple(dict.fromkeys([*_HEADER[:2], *(f.name for _, kind_fields in _KINDS for f in kind_fields)]))


class DocFacts:
    __slots__ = ("_by_kind", "chunks", "doc_id", "faults", "format", "missing", "reference", "sampled", "schema")

    def __init__(
        self,
        doc_id: str,
        format: str,
        chunks: int = 0,
        facts: Iterable[object] = (),
        faults: dict[str, list[dict[str, Any]]] | None = None,
        schema: str = FACTS_SCHEMA,
        missing: tuple[str, ...] = (),
        reference: str | None = None,
        sampled: bool | None = None,
    ) -> None:
        self.doc_id = doc_id
        self.format = format
        self.chunks = chunks
        self.schema = schema
        self.faults = {} if faults is None else faults  # per check, the chunks and spans at fault
        self.missing = missing  # fields absent from a saved run (not measured); never saved
        self.reference = reference
        self.sampled = sampled  # None: a format without an expensive reference, or an older run
        self._by_kind: dict[type[Any], object] = {type(f): f for f in facts}

    def get(self, kind: type[T]) -> T:
        """The facts of one check (its facts class): as measured, or its defaults."""
        found = self._by_kind.get(kind)
        if found is None:
            found = self._by_kind[kind] = kind()
        return found  # type: ignore[return-value]

    def put(self, facts: object) -> None:
        self._by_kind[type(facts)] = facts

    def field(self, name: str) -> Any:
        """A saved field by its name, whichever check's it is."""
        if name in _HEADER:
            return getattr(self, name)
        return getattr(self.get(_OWNER[name]), name)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"doc_id": self.doc_id, "format": self.format, "schema": self.schema}
        out["chunks"] = self.chunks
        for kind, kind_fields in _KINDS:
            facts = self.get(kind)
            for f in kind_fields:
                out[f.name] = getattr(facts, f.name)
        out["faults"] = self.faults
        out["reference"] = self.reference
        out["sampled"] = self.sampled
        out["measured_by"] = MEASURE_VERSION
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocFacts:
        """Facts of any schema version: unknown fields ignored, missing or redefined ones at their
        defaults (None: not measured)."""
        if data.get("schema") != FACTS_SCHEMA:
            data = {k: v for k, v in data.items() if k not in _REDEFINED_IN_2}
        try:  # a run of this version has every field: each check's facts built from its fields in order
            measured = [kind(*get(data)) for kind, get in _GETTERS]
        except KeyError:
            measured = [kind(**{n: data[n] for n in names if n in data}) for kind, names in _NAMES]
        return cls(
            data["doc_id"],
            data["format"],
            data.get("chunks", 0),
            measured,
            data.get("faults", {}),
            data.get("schema", "parsegate.facts/1"),
            tuple(sorted(name for name in _SAVED if name not in data)),
            data.get("reference"),
            data.get("sampled"),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DocFacts) and self.to_dict() == other.to_dict() and self.missing == other.missing

    def __repr__(self) -> str:
        return f"DocFacts({self.doc_id!r}, {self.format!r}, chunks={self.chunks})"
