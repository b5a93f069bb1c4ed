"""``DocFacts``: what the gate measured on one document, before any threshold.

Facts are saved in ``run.json`` so that ``parsegate gate OUTDIR`` can re-judge a run under
other thresholds without parsing again. They carry a schema version: a run written by an
older parsegate is read with its unknown fields ignored and its missing ones left ``None``,
which the gate reports as *not measured* (never as passed or failed).
"""

from __future__ import annotations

from dataclasses import MISSING, Field, asdict, dataclass, field, fields
from typing import Any

FACTS_SCHEMA = "parsegate.facts/2"
# Fields whose meaning changed in facts/2: version 1 measured them against the chunker's own
# data (a check that could not fail), so an old value is not evidence and is read as missing.
_REDEFINED_IN_2 = frozenset({"heading_ok", "heading_checked", "localized", "duplicates", "text_hashes"})
MAX_FAULTS = 40  # chunks or spans listed per failed check (the counts are always exact)


@dataclass
class DocFacts:
    doc_id: str
    format: str
    schema: str = FACTS_SCHEMA
    chunks: int = 0
    empty: int = 0
    text_tokens: list[int] = field(default_factory=list)  # per chunk, the evidence alone
    whole_sections: list[int] | None = None  # chunks holding a whole section (never abnormally short)
    # Headings: each chunk's section path against an independent pass over the source.
    has_headings: bool = False
    heading_checked: int | None = None
    heading_ok: int | None = None
    table_chunks: int = 0
    table_ok: int = 0
    # Localization: each chunk against the source file / PDFium / docling's own text.
    localized: int | None = None
    # Budget: every embed_text counted for real with the tokenizer named in the record.
    budget: int = 0
    over_budget: int = 0
    largest: int = 0
    tokens_exact: int | None = None  # chunks whose ``tokens`` field equals the real count
    # Context share: tokens the context prefixes take of all tokens embedded.
    embedded_tokens: int | None = None
    context_tokens: int | None = None
    duplicates: int | None = None  # chunks whose embed_text repeats an earlier one here
    embed_hashes: list[str] | None = None  # normalized embed_text, for run-wide duplicates
    source_chars: int = 0
    indexed_chars: int = 0
    body_chars: int = 0  # non-whitespace characters of Document.text outside furniture and front matter
    covered_chars: int = 0
    # Extraction recall: words of an independent extraction that reach some chunk.
    recall_words: int | None = None
    recall_found: int | None = None
    recall_source: str | None = None  # which extraction: "source file", "PDFium text layer", "docling export"
    warnings: dict[str, int] = field(default_factory=dict)
    code_chunks: int = 0
    code_whole: int | None = None
    code_context: int | None = None
    code_overlaps: int | None = None  # pairs of code chunks that overlap or run out of order
    code_checked: int | None = None  # whole-definition chunks parsed on their own
    code_parsed: int | None = None  # ...of which parse without an ERROR node the file itself lacks
    # Declared furniture (removed from the recall's reference), each with its reason.
    furniture: list[dict[str, Any]] = field(default_factory=list)
    # Per check, the chunks and source spans at fault (at most MAX_FAULTS each).
    faults: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    missing: tuple[str, ...] = ()  # fields absent from a saved run (not measured); never saved

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("missing")
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocFacts:
        """Facts of any schema version: unknown fields ignored, missing or redefined ones None."""
        known = _KNOWN if cls is DocFacts else {f.name: f for f in fields(cls) if f.name != "missing"}
        old = data.get("schema") != FACTS_SCHEMA
        kept = {k: v for k, v in data.items() if k in known and not (old and k in _REDEFINED_IN_2)}
        absent = sorted(k for k in known if k not in kept and k not in ("schema", "doc_id", "format"))
        for name in absent:
            kept[name] = None if name in _OPTIONAL else _empty(known[name])
        kept["schema"] = data.get("schema", "parsegate.facts/1")
        return cls(**kept, missing=tuple(absent))

    def fault(self, check: str, **where: Any) -> None:
        listed = self.faults.setdefault(check, [])
        if len(listed) < MAX_FAULTS:
            listed.append(where)


# DocFacts' saved fields by name: dataclasses.fields once, not for every document read.
_KNOWN = {f.name: f for f in fields(DocFacts) if f.name != "missing"}


def _empty(f: Field[Any]) -> Any:
    return f.default_factory() if f.default_factory is not MISSING else f.default


# Fields that mean "not measured" when None (the others have a neutral empty value).
_OPTIONAL = frozenset(
    {
        "heading_checked",
        "heading_ok",
        "localized",
        "tokens_exact",
        "duplicates",
        "embed_hashes",
        "recall_words",
        "recall_found",
        "recall_source",
        "code_whole",
        "code_context",
        "code_overlaps",
        "code_checked",
        "code_parsed",
    }
)
