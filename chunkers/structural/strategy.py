"""The default strategy, one pass in data-flow order:

Document → token index (the one tokenizer pass, tokens/index.py) → units (one per leaf element;
those alone over budget cut down the boundary levels, units.py / boundaries.py) → packing
(section by section, at the strongest boundary in reach, packing.py) → context (budgeted
prefixes, context.py) → records (embed_text counted, finalize.py).

Rules (ARCHITECTURE.md, "Chunking rules"): a unit is split only when it is alone over
budget; a chunk never crosses into another section; a heading and a list's or table's
lead-in stay with the block that follows them; a chunk that starts inside a table, list
or turn carries the header, lead-in or speaker in its embed_text.
"""

from __future__ import annotations

from parsegate.chunkers.structural.context import ContextBuilder
from parsegate.chunkers.structural.finalize import Draft
from parsegate.chunkers.structural.packing import Options, Packer
from parsegate.chunkers.structural.units import fit_units, leaf_units
from parsegate.chunkers.tokens.counter import Counter
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.model import Document


def structural(
    doc: Document, counter: Counter, index: SpanIndex, builder: ContextBuilder, opts: Options
) -> list[Draft]:
    packer = Packer(doc, index, builder, counter.specials, opts)
    units = leaf_units(doc)
    builder.warm([(u.section, u.context, int(u.kind == "heading")) for u in units])
    chunks = packer.pack(fit_units(doc, units, index, packer.room, packer.whole_room, packer.least_room()))
    if opts.min_tokens > 0:
        chunks = packer.merge_small(chunks)
    drafts = packer.drafts(chunks)
    if opts.overlap > 0:
        packer.add_overlap(drafts, chunks)
    return drafts
