"""Table header coverage: every chunk holding a table's body rows carries that table's header in
its embed_text (the header row is context that lives elsewhere in the source). Trusts the
parser's word for what a table header is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.parsers.model import RowData, TableData
from parsegate.quality_gates.checks.base import Definition, Limit, Subject, overlapping

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "table_header"


@dataclass(frozen=True)
class TableFacts:
    table_chunks: int = 0
    table_ok: int = 0


def measure(s: Subject) -> TableFacts:
    doc = s.doc
    rows = [e for e in doc.elements if isinstance(e.data, RowData) and not e.data.header]
    if not rows:
        return TableFacts()
    by_id = doc.by_id()
    starts = [e.start for e in rows]
    chunks = ok = 0
    for c in s.chunks:
        held = overlapping(starts, rows, c.start, c.end)
        tables = {e.parent for e in held if e.parent in by_id}
        datas = [by_id[t].data for t in tables if t]
        headers = [d.header_text for d in datas if isinstance(d, TableData) and d.header_text]
        if not headers:
            continue
        chunks += 1
        if all(carries_header(c.embed_text, h) for h in headers):
            ok += 1
        else:
            s.faults.chunk(FAULTS, c, "table header not in embed_text")
    return TableFacts(chunks, ok)


def carries_header(embed_text: str, header: str) -> bool:
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


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(TableFacts)
    return own.table_ok, own.table_chunks


CHECK = Definition(
    name="table_header",
    metric="table_header_coverage",
    label="table header coverage",
    limit=Limit("min_table_header_coverage", 1.0),
    facts=TableFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    stored="table_ok",
)
