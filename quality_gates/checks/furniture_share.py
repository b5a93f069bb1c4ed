"""Furniture share: how much of a document the parser declared furniture, text it keeps out of
every chunk (issue 39: "its share of the document is a gate metric with a threshold").

Recall leaves out of its reference only the furniture the gate can support on its own
(recall_support.py); where it cannot check (a web page's chrome, an Office file's headers), a
parser that called most of a page furniture (a ``<main>`` holding only the title, its article
beside it) would still pass. This check fails a document whose declared furniture is over
``max_furniture_share`` (0.9) of its text's characters, listing the largest pieces with their
reasons. Not counted: navigation (contents, indexes, a book's table of contents: all of a
contents page is navigation, and rightly kept out) and text no reader of the page sees. On 1,598
of Debian's web pages the share is 0 at the median and at most 0.85 (Node.js's page template);
three short pages under a sidebar of links are over 0.6, so the cap is 0.9. Notebooks are not
measured: their ``Document.text`` is the ``.ipynb`` JSON, most of it declared furniture by
design."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsegate.parsers.formats import all_formats
from parsegate.parsers.model import FurnitureData
from parsegate.quality_gates.checks.base import MAX_FAULTS, Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds

_EXEMPT = ("navigation", "hidden")  # reasons that may rightly be most of a document


@dataclass(frozen=True)
class FurnitureShareFacts:
    furniture_chars: int | None = None  # declared furniture, less navigation and hidden text
    document_chars: int | None = None
    largest_furniture: list[dict[str, Any]] = field(default_factory=list)


def measure(s: Subject) -> FurnitureShareFacts:
    doc = s.doc
    if doc.format == "notebook":
        return FurnitureShareFacts()  # its text is the .ipynb JSON: furniture by design
    if not s.chunks:
        return FurnitureShareFacts()  # nothing chunked: min_chunks (or the empty count) decides
    pieces = []
    for e in doc.elements:
        if e.kind != "furniture":
            continue
        reason = e.data.reason if isinstance(e.data, FurnitureData) else None
        if reason is not None and any(word in reason for word in _EXEMPT):
            continue
        pieces.append((e.end - e.start, reason or "furniture", doc.text[e.start : e.end][:80]))
    pieces.sort(key=lambda p: -p[0])
    largest = [{"chars": n, "reason": reason, "text": text} for n, reason, text in pieces[:MAX_FAULTS]]
    return FurnitureShareFacts(sum(p[0] for p in pieces), len(doc.text), largest)


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(FurnitureShareFacts)
    return own.furniture_chars, own.document_chars


def faults_of(facts: DocFacts, thresholds: Thresholds) -> list[dict[str, Any]]:
    own = facts.get(FurnitureShareFacts)
    limit = thresholds.max_furniture_share
    if limit is None or not own.document_chars or (own.furniture_chars or 0) / own.document_chars <= limit:
        return []
    return [{"why": f"declared furniture ({p['reason']}): {p['chars']} characters", **p} for p in own.largest_furniture]


CHECK = Definition(
    name="furniture_share",
    metric="furniture_share",
    label="declared furniture share",
    limit=Limit("max_furniture_share", 0.9),
    facts=FurnitureShareFacts,
    measure=measure,
    parts=parts,
    faults_of=faults_of,
    formats=all_formats() - {"notebook"},
    stored="furniture_chars",
)
