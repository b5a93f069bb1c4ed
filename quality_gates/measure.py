"""What parsing and chunking did to a document's evidence, measured before embedding.

``measure`` reads a Document, its chunks and the source file's bytes, and returns ``DocFacts``:
each check's facts, in the table's order, which do not depend on any threshold (so a run can be
re-gated later without re-parsing). Localization, extraction recall, heading inheritance and the
code checks compare the chunks with an independent view of the source (``references/``), opened
once; the budget is counted for real on every ``embed_text`` with the tokenizer each chunk names.
Table header coverage, code context and text coverage compare the chunks with the parser's own
Document (what it called a table header, a definition's imports, its normalized text): useful,
but they trust the parser.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parsegate.quality_gates.checks import CHECKS
from parsegate.quality_gates.checks.base import Subject, Tokenizers
from parsegate.quality_gates.checks.counts import resolver
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.sample import EXPENSIVE_FORMATS

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.chunkers.tokens.counter import Counter as TokenCounter
    from parsegate.parsers.model import Document


def measure(
    doc: Document,
    chunks: Sequence[Chunk],
    tokenizers: TokenCounter | Tokenizers,
    budget: int,
    source: bytes | None = None,
    parent_budget: int | None = None,
    password: str | None = None,
    sampled: bool = True,
) -> DocFacts:
    """Facts about ``chunks`` (those of ``doc``). ``source`` is the file's bytes, read again by
    the caller (``password``: the PDF password it was parsed with); without it the checks against
    the source are reported not measured. ``sampled``: the document is in the gate's sample
    (quality_gates/sample.py) and gets the expensive references too; the facts say which
    reference measured it.
    ``parent_budget``: parent-child's chunks that others name as their parent are counted
    against it, and are not taken for code chunks overlapping their children."""
    parents = frozenset(c.parent_id for c in chunks if c.parent_id) if parent_budget is not None else frozenset()
    budgets = [parent_budget if c.id in parents and parent_budget else budget for c in chunks]
    subject = Subject(doc, chunks, budget, budgets, parents, resolver(tokenizers), source, password, sampled)
    try:
        facts = [check.measure(subject) for check in CHECKS if check.measure is not None]
    finally:
        subject.close()
    reference = subject.reference.kind if subject.opened and subject.reference is not None else None
    # Whether the sample held it, for a format with an expensive reference (None: no such format).
    sampled_or_none = sampled if doc.format in EXPENSIVE_FORMATS else None
    return DocFacts(
        doc.doc_id, doc.format, len(chunks), facts, subject.faults.lists, reference=reference, sampled=sampled_or_none
    )
