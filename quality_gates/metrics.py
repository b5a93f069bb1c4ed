"""What parsing and chunking did to a document's evidence, measured before embedding.

``measure`` reads a Document and its chunk records and returns ``DocFacts``: counts that
do not depend on any threshold (so a run can be re-gated later without re-parsing).
``rates`` turns facts into the metrics the gate compares with thresholds.
"""

from __future__ import annotations

import bisect
import hashlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from chunkers.budget import Counter as TokenCounter
from parsers.model import NON_BODY_KINDS, Document, Element

_WHITESPACE = " \t\n\r\x0b\x0c\x85\xa0\u2028\u2029\u3000"


@dataclass
class DocFacts:
    doc_id: str
    format: str
    chunks: int = 0
    empty: int = 0
    text_tokens: list[int] = field(default_factory=list)  # per chunk, the evidence alone
    has_headings: bool = False
    heading_checked: int = 0  # chunks of documents that have headings
    heading_ok: int = 0
    table_chunks: int = 0
    table_ok: int = 0
    localized: int = 0
    budget: int = 0
    over_budget: int = 0
    largest: int = 0
    duplicates: int = 0
    text_hashes: list[str] = field(default_factory=list)  # normalized text, for run-wide duplicates
    source_chars: int = 0
    indexed_chars: int = 0
    body_chars: int = 0  # non-whitespace characters outside furniture and front matter
    covered_chars: int = 0
    warnings: dict[str, int] = field(default_factory=dict)
    code_chunks: int = 0
    code_whole: int | None = None  # needs the code parser's definitions (not yet available)
    code_context: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocFacts:
        return cls(**data)


def measure(doc: Document, records: list[dict[str, Any]], counter: TokenCounter, budget: int) -> DocFacts:
    facts = DocFacts(doc_id=doc.doc_id, format=doc.format, chunks=len(records), budget=budget)
    facts.source_chars = len(doc.text)
    facts.indexed_chars = sum(max(0, r["end"] - r["start"]) for r in records)
    facts.warnings = dict(Counter(w.code for w in doc.warnings))
    facts.empty = sum(1 for r in records if not r["text"].strip())
    facts.localized = sum(1 for r in records if _localized(doc, r))
    _measure_tokens(facts, records, counter, budget)
    _measure_headings(facts, doc, records)
    _measure_tables(facts, doc, records)
    _measure_duplicates(facts, records)
    facts.body_chars, facts.covered_chars = _coverage(doc, records)
    _measure_code(facts, doc, records)
    return facts


def _localized(doc: Document, r: dict[str, Any]) -> bool:
    start, end = r["start"], r["end"]
    if not (0 <= start <= end <= len(doc.text)) or doc.text[start:end] != r["text"]:
        return False
    boxes, pages = r.get("boxes"), r.get("pages")
    # PDF chunks: every box must lie on a page the chunk names.
    return not boxes or all(b.get("page") in (pages or []) for b in boxes)


def _measure_tokens(facts: DocFacts, records: list[dict[str, Any]], counter: TokenCounter, budget: int) -> None:
    """Budget compliance is re-measured on embed_text, not taken from the record's own count."""
    embedded = counter.count_embedded([r["embed_text"] for r in records])
    facts.over_budget = sum(1 for n in embedded if n > budget)
    facts.largest = max(embedded, default=0)
    if not counter.additive:
        facts.text_tokens = counter.count_many([r["text"] for r in records])
        return
    # Additive counts: the text's share is the whole less the specials and the prefix, and
    # prefixes repeat, so each distinct one is counted once.
    prefixes = [r["embed_text"][: len(r["embed_text"]) - len(r["text"])] for r in records]
    distinct = sorted(set(prefixes))
    cost = dict(zip(distinct, counter.count_many(distinct), strict=True))
    facts.text_tokens = [n - counter.specials - cost[p] for n, p in zip(embedded, prefixes, strict=True)]


def _leaves_by_start(doc: Document) -> tuple[list[int], list[Element]]:
    leaves = doc.leaves()
    return [e.start for e in leaves], leaves


def _overlapping(starts: list[int], leaves: list[Element], start: int, end: int) -> list[Element]:
    i = max(0, bisect.bisect_right(starts, start) - 1)
    out = []
    while i < len(leaves) and leaves[i].start < end:
        if leaves[i].end > start:
            out.append(leaves[i])
        i += 1
    return out


def _common(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    first = paths[0]
    n = len(first)
    for p in paths[1:]:
        n = min(n, len(p))
        while n and p[:n] != first[:n]:
            n -= 1
    return first[:n]


def _measure_headings(facts: DocFacts, doc: Document, records: list[dict[str, Any]]) -> None:
    """A chunk's section path is correct when it equals the common section of the content it
    holds (headings it opens with are stated in its text), and is empty only before the first heading."""
    facts.has_headings = any(e.kind == "heading" for e in doc.elements)
    if not facts.has_headings:
        return
    facts.heading_checked = len(records)
    starts, leaves = _leaves_by_start(doc)
    for r in records:
        held = _overlapping(starts, leaves, r["start"], r["end"])
        body = [e for e in held if e.kind != "heading"] or held
        expected = _common([e.section_path for e in body]) if body else ()
        path = tuple(r.get("section_path") or ())
        facts.heading_ok += path == expected and (bool(path) or not expected)


def _measure_tables(facts: DocFacts, doc: Document, records: list[dict[str, Any]]) -> None:
    """Every chunk holding a table's body rows must carry that table's header in embed_text."""
    by_id = doc.by_id()
    rows = [e for e in doc.elements if e.kind == "table_row" and not e.data.get("header")]
    if not rows:
        return
    starts = [e.start for e in rows]
    for r in records:
        held = _overlapping(starts, rows, r["start"], r["end"])
        tables = {e.parent for e in held if e.parent in by_id}
        headers = [by_id[t].data.get("header_text") for t in tables if t]
        headers = [h for h in headers if h]
        if not headers:
            continue
        facts.table_chunks += 1
        facts.table_ok += all(h in r["embed_text"] for h in headers)


_DEFINITIONS = frozenset({"function", "class", "method"})


def _measure_code(facts: DocFacts, doc: Document, records: list[dict[str, Any]]) -> None:
    """Code chunks (from the code parser): how many hold whole definitions only, and how many
    carry, in embed_text, every context line (imports, enclosing headers) their definitions need."""
    definitions = sorted((e for e in doc.elements if e.kind in _DEFINITIONS), key=lambda e: e.start)
    if not definitions:
        return
    starts = [e.start for e in definitions]
    facts.code_whole = facts.code_context = 0
    for r in records:
        if not r.get("language") or not set(r.get("kinds", [])) & (_DEFINITIONS | {"code"}):
            continue
        facts.code_chunks += 1
        held = _overlapping(starts, definitions, r["start"], r["end"])
        inside = [e for e in held if r["start"] <= e.start and e.end <= r["end"]]
        around = [e for e in held if e.start < r["start"] and r["end"] <= e.end]
        facts.code_whole += len(inside) == len(held)
        # A definition held whole needs its imports and enclosing headers; a chunk inside a
        # definition needs that definition's header.
        needed = {line for e in inside for line in e.data.get("context", [])}
        needed |= {e.data.get("signature", "") for e in around}
        facts.code_context += all(line in r["embed_text"] for line in needed)


def normalized_hash(text: str) -> str:
    return hashlib.sha1(" ".join(text.lower().split()).encode("utf-8")).hexdigest()[:16]


def _measure_duplicates(facts: DocFacts, records: list[dict[str, Any]]) -> None:
    facts.text_hashes = [normalized_hash(r["text"]) for r in records]
    facts.duplicates = len(facts.text_hashes) - len(set(facts.text_hashes))


def _nonspace(text: str) -> int:
    return len(text) - sum(text.count(c) for c in _WHITESPACE)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _coverage(doc: Document, records: list[dict[str, Any]]) -> tuple[int, int]:
    """(body characters, body characters inside some chunk), whitespace not counted."""
    text = doc.text
    excluded = _merge([(e.start, e.end) for e in doc.elements if e.kind in NON_BODY_KINDS])
    body = _nonspace(text) - sum(_nonspace(text[s:e]) for s, e in excluded)
    claimed = _merge(excluded + [(max(0, r["start"]), min(len(text), r["end"])) for r in records])
    gaps, cursor = [], 0
    for s, e in claimed:
        if s > cursor:
            gaps.append((cursor, s))
        cursor = max(cursor, e)
    gaps.append((cursor, len(text)))
    uncovered = sum(_nonspace(text[s:e]) for s, e in gaps if e > s)
    return body, body - uncovered


def is_short(facts: DocFacts, tokens: int, threshold: int) -> bool:
    """Abnormally short: under the threshold in a document that has more than this one chunk
    (an empty chunk is counted as empty, not as short)."""
    return facts.chunks > 1 and 0 < tokens < threshold


def short_count(facts: DocFacts, threshold: int) -> int:
    return sum(is_short(facts, t, threshold) for t in facts.text_tokens)


def _share(part: int | None, whole: int) -> float | None:
    return None if part is None or whole == 0 else round(part / whole, 6)


def rates(facts: DocFacts, short_tokens: int) -> dict[str, float | int | None]:
    return _rates(
        chunks=facts.chunks,
        empty=facts.empty,
        short=short_count(facts, short_tokens),
        heading=(facts.heading_ok, facts.heading_checked),
        table=(facts.table_ok, facts.table_chunks),
        localized=facts.localized,
        over_budget=facts.over_budget,
        largest=facts.largest,
        duplicates=facts.duplicates,
        chars=(facts.indexed_chars, facts.source_chars, facts.covered_chars, facts.body_chars),
        code=(facts.code_whole, facts.code_context, facts.code_chunks),
    )


def aggregate(all_facts: list[DocFacts], short_tokens: int) -> dict[str, float | int | None]:
    """Rates over many documents: sums of their counts (not an average of their rates).
    Duplicates are counted across documents too."""
    hashes = [h for f in all_facts for h in f.text_hashes]
    code_whole = [f.code_whole for f in all_facts if f.code_whole is not None]
    code_context = [f.code_context for f in all_facts if f.code_context is not None]
    return _rates(
        chunks=sum(f.chunks for f in all_facts),
        empty=sum(f.empty for f in all_facts),
        short=sum(short_count(f, short_tokens) for f in all_facts),
        heading=(sum(f.heading_ok for f in all_facts), sum(f.heading_checked for f in all_facts)),
        table=(sum(f.table_ok for f in all_facts), sum(f.table_chunks for f in all_facts)),
        localized=sum(f.localized for f in all_facts),
        over_budget=sum(f.over_budget for f in all_facts),
        largest=max((f.largest for f in all_facts), default=0),
        duplicates=len(hashes) - len(set(hashes)),
        chars=(
            sum(f.indexed_chars for f in all_facts),
            sum(f.source_chars for f in all_facts),
            sum(f.covered_chars for f in all_facts),
            sum(f.body_chars for f in all_facts),
        ),
        code=(
            sum(code_whole) if code_whole else None,
            sum(code_context) if code_context else None,
            sum(f.code_chunks for f in all_facts),
        ),
    )


def _rates(
    *,
    chunks: int,
    empty: int,
    short: int,
    heading: tuple[int, int],
    table: tuple[int, int],
    localized: int,
    over_budget: int,
    largest: int,
    duplicates: int,
    chars: tuple[int, int, int, int],
    code: tuple[int | None, int | None, int],
) -> dict[str, float | int | None]:
    indexed, source, covered, body = chars
    return {
        "chunks": chunks,
        "empty_chunk_rate": _share(empty, chunks),
        "short_chunk_rate": _share(short, chunks),
        "heading_inheritance": _share(*heading),
        "table_header_coverage": _share(*table),
        "localization": _share(localized, chunks),
        "budget_compliance": _share(chunks - over_budget, chunks),
        "largest_chunk_tokens": largest,
        "duplicate_rate": _share(duplicates, chunks),
        "overhead": _share(indexed, source),
        "text_coverage": _share(covered, body),
        "code_whole_definitions": _share(code[0], code[2]),
        "code_with_context": _share(code[1], code[2]),
    }
