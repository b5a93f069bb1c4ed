"""What parsing and chunking did to a document's evidence, measured before embedding.

``measure`` reads a Document, its chunk records and the source file's bytes, and returns
``DocFacts``: counts that do not depend on any threshold (so a run can be re-gated later
without re-parsing). ``rates`` turns facts into the metrics the gate compares with thresholds.

Localization, extraction recall, heading inheritance and code units are measured against an
independent view of the source (``quality_gates.reference``); the budget is counted for real on
every ``embed_text`` with the tokenizer each record names. Table header coverage, code context
and text coverage compare the chunks with the parser's own Document (what it called a table
header, a definition's imports, its normalized text): useful, but they trust the parser.
"""

from __future__ import annotations

import bisect
import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

from parsegate.chunkers.budget import Counter as TokenCounter
from parsegate.parsers.model import NON_BODY_KINDS, CodeData, Document, Element, RowData, TableData
from parsegate.quality_gates.facts import DocFacts

__all__ = ["DocFacts", "aggregate", "measure", "not_measured", "rates", "short_chunks"]

_WHITESPACE = " \t\n\r\x0b\x0c\x85\xa0\u2028\u2029\u3000"
# The tokenizer a record names (its fingerprint) → a loaded counter, or None when unknown.
Tokenizers = Callable[[str], TokenCounter | None]


def measure(
    doc: Document,
    records: list[dict[str, Any]],
    tokenizers: TokenCounter | Tokenizers,
    budget: int,
    source: bytes | None = None,
    parent_budget: int | None = None,
) -> DocFacts:
    """Facts about ``records`` (the chunks of ``doc``). ``source`` is the file's bytes, read
    again by the caller; without it the checks against the source are reported not measured.
    ``parent_budget``: parent-child's records that others name as their parent are counted
    against it, and are not taken for code chunks overlapping their children."""
    facts = DocFacts(doc_id=doc.doc_id, format=doc.format, chunks=len(records), budget=budget)
    facts.source_chars = len(doc.text)
    facts.indexed_chars = sum(max(0, r["end"] - r["start"]) for r in records)
    facts.warnings = dict(Counter(w.code for w in doc.warnings))
    facts.empty = sum(1 for r in records if not r["text"].strip())
    for r in records:
        if not r["text"].strip():
            _fault(facts, "empty", r, "no text")
    parents = {r["parent_id"] for r in records if r.get("parent_id")} if parent_budget is not None else set()
    budgets = [parent_budget if r["id"] in parents and parent_budget else budget for r in records]
    _measure_tokens(facts, records, _resolver(tokenizers), budgets)
    _measure_tables(facts, doc, records)
    _measure_duplicates(facts, records)
    facts.body_chars, facts.covered_chars = _coverage(doc, records, facts)
    facts.whole_sections = _whole_sections(doc, records)
    _measure_code_context(facts, doc, records)
    # Imported here: the gate and the reports read facts with this module (an incremental re-run
    # only that), and these bring markdown-it, tree-sitter and PDFium.
    from parsegate.quality_gates.code_units import measure_code
    from parsegate.quality_gates.headings import measure_headings
    from parsegate.quality_gates.localization import measure_localization
    from parsegate.quality_gates.recall import measure_recall
    from parsegate.quality_gates.reference import open_reference

    ref = open_reference(doc.format, source, doc.doc_id)
    try:
        measure_localization(facts, doc.format, records, ref)
        measure_recall(facts, doc, records, ref)
        measure_headings(facts, doc, records, ref)
        measure_code(facts, [r for r in records if r["id"] not in parents], ref)
    finally:
        if ref is not None:
            ref.close()
    return facts


def _fault(facts: DocFacts, check: str, r: dict[str, Any], why: str) -> None:
    facts.fault(check, chunk=r["id"], start=r["start"], end=r["end"], why=why)


def _count(counter: TokenCounter, records: list[dict[str, Any]]) -> tuple[list[int], list[int]]:
    """Tokens of each embed_text as embedded (the budget's count) and of its text alone (for
    short chunks): two batches, no offsets (reading offsets back costs more than counting)."""
    return counter.count_embedded([r["embed_text"] for r in records]), counter.count_many([r["text"] for r in records])


def _resolver(tokenizers: TokenCounter | Tokenizers) -> Tokenizers:
    if callable(tokenizers) and not hasattr(tokenizers, "fingerprint"):
        return tokenizers
    counter: TokenCounter = tokenizers  # type: ignore[assignment]
    return lambda name: counter if name == counter.fingerprint else None


def _measure_tokens(facts: DocFacts, records: list[dict[str, Any]], tokenizers: Tokenizers, budgets: list[int]) -> None:
    """Every embed_text is counted for real, in one batch per tokenizer, with the tokenizer the
    record names; the record's own ``tokens`` is only compared with that count, never trusted.
    A record naming a tokenizer that is not at hand cannot be shown within budget: it fails."""
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(records):
        groups.setdefault(r.get("tokenizer") or "", []).append(i)
    embedded: list[int | None] = [None] * len(records)
    text_tokens = [0] * len(records)
    for name, indices in groups.items():
        counter = tokenizers(name)
        if counter is None:
            for i in indices:
                r = records[i]
                _fault(facts, "budget", r, f"unknown tokenizer {name!r}")
            continue
        counts, texts = _count(counter, [records[i] for i in indices])
        for i, n, t in zip(indices, counts, texts, strict=True):
            embedded[i] = n
            text_tokens[i] = t
    facts.text_tokens = text_tokens
    named = [tokenizers(r.get("tokenizer") or "") for r in records]
    counted = list(zip(embedded, text_tokens, named, strict=True))
    facts.embedded_tokens = sum(n for n, _, c in counted if n is not None and c is not None)
    facts.context_tokens = sum(max(0, n - t - c.specials) for n, t, c in counted if n is not None and c is not None)
    facts.over_budget = sum(1 for n, b in zip(embedded, budgets, strict=True) if n is None or n > b)
    facts.largest = max((n for n in embedded if n is not None), default=0)
    facts.tokens_exact = sum(1 for n, r in zip(embedded, records, strict=True) if n is not None and n == r["tokens"])
    for count, r, budget in zip(embedded, records, budgets, strict=True):
        if count is not None and count > budget:
            _fault(facts, "budget", r, f"{count} tokens over the budget of {budget}")
        if count is not None and count != r["tokens"]:
            _fault(facts, "token_count", r, f"says {r['tokens']} tokens, counts {count}")


def _overlapping(starts: list[int], leaves: list[Element], start: int, end: int) -> list[Element]:
    i = max(0, bisect.bisect_right(starts, start) - 1)
    out = []
    while i < len(leaves) and leaves[i].start < end:
        if leaves[i].end > start:
            out.append(leaves[i])
        i += 1
    return out


def _measure_tables(facts: DocFacts, doc: Document, records: list[dict[str, Any]]) -> None:
    """Every chunk holding a table's body rows must carry that table's header in embed_text."""
    by_id = doc.by_id()
    rows = [e for e in doc.elements if isinstance(e.data, RowData) and not e.data.header]
    if not rows:
        return
    starts = [e.start for e in rows]
    for r in records:
        held = _overlapping(starts, rows, r["start"], r["end"])
        tables = {e.parent for e in held if e.parent in by_id}
        datas = [by_id[t].data for t in tables if t]
        headers = [d.header_text for d in datas if isinstance(d, TableData) and d.header_text]
        if not headers:
            continue
        facts.table_chunks += 1
        if all(_carries_header(r["embed_text"], h) for h in headers):
            facts.table_ok += 1
        else:
            facts.fault(
                "table_header", chunk=r["id"], start=r["start"], end=r["end"], why="table header not in embed_text"
            )


def _carries_header(embed_text: str, header: str) -> bool:
    """The header whole, or, for a table too wide for the context budget, its first columns cut
    at a word with a visible "…" (the chunker's budgeted context does that; at least three words
    of the header, or all of a shorter one, must be there)."""
    if header in embed_text:
        return True
    for line in embed_text.split("\n"):
        kept = line.removesuffix(" …")
        if kept != line and header.startswith(kept) and len(kept.split()) >= min(3, len(header.split())):
            return True
    return False


_DEFINITIONS = frozenset({"function", "class", "method"})


def _measure_code_context(facts: DocFacts, doc: Document, records: list[dict[str, Any]]) -> None:
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
        # In source order (dict keys, not a set): the fault names the first line missing, the
        # same one on every run (a set's order changed with the interpreter's hash seed).
        needed = dict.fromkeys(line for e in inside if isinstance(e.data, CodeData) for line in e.data.context)
        headers = (e.data.signature for e in around if isinstance(e.data, CodeData) and e.data.signature)
        needed.update(dict.fromkeys(headers))
        absent = [line for line in needed if line not in r["embed_text"]]
        facts.code_context += not absent
        if absent:
            _fault(facts, "code_context", r, f"lacks {absent[0]!r}")


def normalized_hash(text: str) -> str:
    return hashlib.sha1(" ".join(text.lower().split()).encode("utf-8")).hexdigest()[:16]


def _measure_duplicates(facts: DocFacts, records: list[dict[str, Any]]) -> None:
    """Duplicates are what gets embedded twice: the same embed_text (whitespace and case aside)."""
    facts.embed_hashes = [normalized_hash(r["embed_text"]) for r in records]
    seen: dict[str, dict[str, Any]] = {}
    facts.duplicates = 0
    for h, r in zip(facts.embed_hashes, records, strict=True):
        if h in seen:
            facts.duplicates += 1
            facts.fault(
                "duplicates", chunk=r["id"], start=r["start"], end=r["end"], why=f"same embed_text as {seen[h]['id']}"
            )
        else:
            seen[h] = r


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


def _coverage(doc: Document, records: list[dict[str, Any]], facts: DocFacts) -> tuple[int, int]:
    """(body characters, body characters inside some chunk), whitespace not counted; the gaps
    are listed as faults (offsets into the parser's text, which is the file for text formats)."""
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
    for s, e in gaps:
        if text[s:e].strip():
            facts.fault("text_coverage", start=s, end=e, text=text[s:e].strip()[:200])
    return body, body - uncovered


def short_chunks(facts: DocFacts, threshold: int) -> list[tuple[int, int]]:
    """(index, tokens) of the abnormally short chunks: under the threshold in a document that has
    more than this one chunk (an empty chunk is counted as empty, not as short), unless the chunk
    holds a whole section, its heading and all of its own text (a slide with one bullet: short
    because the source is, not because a chunker cut it)."""
    if facts.chunks <= 1:
        return []
    whole = set(facts.whole_sections or ())
    return [(i, t) for i, t in enumerate(facts.text_tokens) if 0 < t < threshold and i not in whole]


def short_count(facts: DocFacts, threshold: int) -> int:
    return len(short_chunks(facts, threshold))


def _whole_sections(doc: Document, records: list[dict[str, Any]]) -> list[int]:
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
    for i, r in enumerate(records):
        n = bisect.bisect_left(starts, r["start"])
        if n < len(starts) and ends[n] <= r["end"]:
            whole.append(i)
    return whole


def _share(part: int | None, whole: int | None) -> float | None:
    return None if part is None or not whole else round(part / whole, 6)


# metric → (numerator, denominator) fields of DocFacts; "chunks - over_budget" is computed.
RATIOS: dict[str, tuple[str, str]] = {
    "empty_chunk_rate": ("empty", "chunks"),
    "short_chunk_rate": ("short", "chunks"),
    "heading_inheritance": ("heading_ok", "heading_checked"),
    "table_header_coverage": ("table_ok", "table_chunks"),
    "localization": ("localized", "chunks"),
    "budget_compliance": ("within_budget", "chunks"),
    "token_count_accuracy": ("tokens_exact", "chunks"),
    "duplicate_rate": ("duplicates", "chunks"),
    "overhead": ("indexed_chars", "source_chars"),
    "context_share": ("context_tokens", "embedded_tokens"),
    "text_coverage": ("covered_chars", "body_chars"),
    "extraction_recall": ("recall_found", "recall_words"),
    "code_whole_definitions": ("code_whole", "code_chunks"),
    "code_with_context": ("code_context", "code_chunks"),
    "code_parse": ("code_parsed", "code_checked"),
}
# Metrics measured against an independent signal: None there means "not measured".
INDEPENDENT = ("localization", "extraction_recall", "heading_inheritance", "token_count_accuracy", "duplicate_rate")


# The RATIOS fields DocFacts holds ("short" and "within_budget" are computed), listed once.
_STORED = tuple(
    dict.fromkeys(name for pair in RATIOS.values() for name in pair if name in DocFacts.__dataclass_fields__)
)


def _counts(facts: DocFacts, short_tokens: int) -> dict[str, int | None]:
    counts: dict[str, int | None] = {name: getattr(facts, name) for name in _STORED}
    counts["short"] = short_count(facts, short_tokens)
    counts["within_budget"] = facts.chunks - facts.over_budget
    return counts


def rates(facts: DocFacts, short_tokens: int) -> dict[str, float | int | None]:
    counts = _counts(facts, short_tokens)
    out: dict[str, float | int | None] = {"chunks": facts.chunks}
    for metric, (part, whole) in RATIOS.items():
        out[metric] = _share(counts[part], counts[whole])
    out["largest_chunk_tokens"] = facts.largest
    out["code_overlaps"] = facts.code_overlaps
    return out


def not_measured(facts: DocFacts) -> list[str]:
    """Metrics with no value because their input was not measured (an older run, or no
    independent view of the source), as opposed to metrics that do not apply."""
    out = []
    for metric, (part, _) in RATIOS.items():
        field = "over_budget" if part == "within_budget" else part
        unavailable = metric in INDEPENDENT and facts.chunks and getattr(facts, field, 0) is None
        if metric == "heading_inheritance" and not facts.has_headings:
            unavailable = False  # no headings: the check does not apply
        if field in facts.missing or unavailable:
            out.append(metric)
    if "code_overlaps" in facts.missing:
        out.append("code_overlaps")
    return out


def aggregate(all_facts: list[DocFacts], short_tokens: int) -> dict[str, float | int | None]:
    """Rates over many documents: sums of their counts (not an average of their rates), over
    the documents where the count was measured. Duplicates are counted across documents too:
    the same embed_text in two files is embedded twice."""
    per_doc = [_counts(f, short_tokens) for f in all_facts]
    out: dict[str, float | int | None] = {"chunks": sum(f.chunks for f in all_facts)}
    for metric, (part, whole) in RATIOS.items():
        measured = [c for c in per_doc if c[part] is not None]
        out[metric] = _share(
            sum(int(c[part] or 0) for c in measured) if measured else None,
            sum(int(c[whole] or 0) for c in measured),
        )
    hashed = [f for f in all_facts if f.embed_hashes is not None]
    hashes = [h for f in hashed for h in f.embed_hashes or []]
    out["duplicate_rate"] = _share(len(hashes) - len(set(hashes)), len(hashes)) if hashed else None
    out["largest_chunk_tokens"] = max((f.largest for f in all_facts), default=0)
    overlaps = [f.code_overlaps for f in all_facts if f.code_overlaps is not None]
    out["code_overlaps"] = sum(overlaps) if overlaps else None
    return out
