"""parent-child: small child chunks to retrieve, and the sections around them to read.

Data flow: units (units.py) → parents: the largest sections (with their subsections) that fit
the parent budget, top-down; neighbouring sibling sections that fit together share a parent; a
section over the budget is split at its subsections, and a section without any at the
boundaries between its blocks — a paragraph, a whole table, a whole list, a whole class — by
the packer, which cuts inside a block only where the block alone is over the budget (never at
characters while a structural boundary is in reach) → children: each parent's units packed at
the child budget (``--max-tokens``) as the structural strategy packs a section, each code
definition on its own → records: parents counted against the parent budget, children against
theirs (finalize.py), every child naming its parent in ``parent_id``.

A parent that one child holds whole is not written twice: that chunk is a child with no parent.
Children chain through prev_id/next_id, and parents among themselves. Children are what gets
embedded; a parent is a record another record names as its ``parent_id`` (LlamaIndex's "leaf
nodes" convention), fetched after retrieval to give the generator its context.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import replace

from parsegate.chunkers.record import Chunk
from parsegate.chunkers.structural.blocks import root
from parsegate.chunkers.structural.boundaries import Level
from parsegate.chunkers.structural.context import ContextBuilder
from parsegate.chunkers.structural.finalize import finalize
from parsegate.chunkers.structural.kinds import DEFINITION_KINDS
from parsegate.chunkers.structural.packing import Options, Packer
from parsegate.chunkers.structural.units import Unit, fit_units, leaf_units
from parsegate.chunkers.tokens.counter import Counter
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.model import Document, trim_span

# A parent is read by a generator, not embedded: four times the embedding model's limit (1024 tokens
# for all-MiniLM-L6-v2) holds a typical documentation section whole (README, "parent-child"), and
# top-5 hits expanded to their parents stay within about 5,000 tokens of context.
PARENT_FACTOR = 4


def default_parent_tokens(model_max: int) -> int:
    return PARENT_FACTOR * model_max


def parent_child(
    doc: Document,
    counter: Counter,
    index: SpanIndex,
    builder: ContextBuilder,
    parent_builder: ContextBuilder,
    opts: Options,
    parent_tokens: int,
    chunk_set: str,
) -> list[Chunk]:
    children = Packer(doc, index, builder, counter.specials, opts)
    parents = Packer(doc, index, parent_builder, counter.specials, Options(parent_tokens, 0, 0, opts.context_share))
    units = leaf_units(doc)
    keys = [(u.section, u.context, int(u.kind == "heading")) for u in units]
    builder.warm(keys)
    parent_builder.warm(keys)
    groups = parent_groups(doc, units, index, parents)
    parent_records = finalize(doc, parents.drafts(groups), counter, parent_tokens, chunk_set, parent_builder, index)
    child_groups = [
        chunk
        for inside in assign(doc.text, fit_units(doc, units, index, children.room, children.whole_room), parent_records)
        for chunk in pack_children(children, inside)
    ]
    child_records = finalize(doc, children.drafts(child_groups), counter, opts.max_tokens, chunk_set, builder, index)
    return link(parent_records, child_records)


# -- parents ----------------------------------------------------------------------------------


def parent_groups(doc: Document, units: list[Unit], index: SpanIndex, packer: Packer) -> list[list[Unit]]:
    fitted = block_levels(doc, fit_units(doc, units, index, packer.room))
    return _split_tree(packer, packer.runs(fitted), 0) if fitted else []


def block_levels(doc: Document, units: list[Unit]) -> list[Unit]:
    """Boundaries inside a block (between two rows of a table, items of a list, methods of a
    class) weakened to Level.BLANK, so that a parent is cut between blocks where it can be."""
    out = []
    previous: tuple[str, str] | None = None
    for unit in units:
        block = root(doc, unit.element)
        if previous is not None and previous[0] == block and previous[1] != unit.element:
            unit = replace(unit, level=max(unit.level, Level.BLANK))
        out.append(unit)
        previous = (block, unit.element)
    return out


def _split_tree(packer: Packer, runs: list[list[Unit]], depth: int) -> list[list[Unit]]:
    """Runs sharing ``section_path[:depth]`` → parents: as they are if they fit; else their sections
    one level down, neighbours that fit together joined, a section that does not fit split in
    turn, and a section with no subsections left packed at its blocks."""
    whole = [u for run in runs for u in run]
    if _one_block(whole) and _fits(packer, whole):
        return [whole]
    if len(runs) == 1:
        return packer.pack_run(runs[0])
    groups = _sections(runs, depth)
    if len(groups) == 1:
        return _split_tree(packer, runs, depth + 1)
    out: list[list[Unit]] = []
    pending: list[Unit] = []
    for group in groups:
        units = [u for run in group for u in run]
        if pending and _one_block(pending + units) and _fits(packer, pending + units):
            pending += units
            continue
        if pending:
            out.append(pending)
            pending = []
        if _one_block(units) and _fits(packer, units):
            pending = units
        else:
            out.extend(_split_tree(packer, group, depth + 1))
    if pending:
        out.append(pending)
    return out


def _sections(runs: list[list[Unit]], depth: int) -> list[list[list[Unit]]]:
    """Consecutive runs grouped by their section one level below ``depth``; a section's own body
    (no deeper heading) is a group of its own."""
    groups: list[list[list[Unit]]] = []
    last: str | None = None
    for run in runs:
        path = run[-1].section
        key = path[depth] if len(path) > depth else None
        if groups and key is not None and key == last:
            groups[-1].append(run)
        else:
            groups.append([run])
        last = key
    return groups


def _one_block(units: list[Unit]) -> bool:
    """No parent either runs from one notebook cell or output into another (units.py)."""
    return all(u.block == units[0].block for u in units)


def _fits(packer: Packer, units: list[Unit]) -> bool:
    """Exactly as finalize.py will count it: special tokens, the prefix the draft gets, the span."""
    (draft,) = packer.drafts([units])
    prefix = packer.builder.prefix(draft.section_path, draft.context, draft.own_headings, draft.context_cap)
    tokens = packer.specials + packer.builder.tokens(prefix) + packer.index.count(draft.start, draft.end)
    return tokens <= packer.opts.max_tokens


# -- children ---------------------------------------------------------------------------------


def assign(text: str, units: list[Unit], parents: list[Chunk]) -> list[list[Unit]]:
    """The child units inside each parent, in order. Units are cut at the same boundaries as the
    parents were, finer; a unit that straddles two parents anyway (a parent finalize.py had to cut
    again) is cut where they meet."""
    starts = [p.start for p in parents]
    inside: list[list[Unit]] = [[] for _ in parents]
    for unit in units:
        k = max(0, bisect.bisect_right(starts, unit.start) - 1)
        current = unit
        while k + 1 < len(parents) and current.end > parents[k + 1].start:
            end = trim_span(text, current.start, parents[k].end)[1]
            if end > current.start:
                inside[k].append(replace(current, end=end, glue_next=False))
            k += 1
            start = trim_span(text, parents[k].start, current.end)[0]
            current = replace(current, start=max(start, current.start), level=Level.ELEMENT)
        if current.end > current.start:
            inside[k].append(current)
    return inside


def pack_children(packer: Packer, units: list[Unit]) -> list[list[Unit]]:
    """One parent's units packed at the child budget, section by section, each code definition
    on its own; --min-tokens merges within the parent only."""
    chunks: list[list[Unit]] = []
    for run in packer.runs(units):
        for piece in _definitions(packer.doc, run):
            chunks.extend(packer.pack_run(piece))
    return packer.merge_small(chunks) if packer.opts.min_tokens > 0 else chunks


def _definitions(doc: Document, run: list[Unit]) -> list[list[Unit]]:
    """A run cut wherever a code definition begins, so that a child holds one definition (and
    the module code after it, such as the ";" that closes a C struct)."""
    pieces: list[list[Unit]] = []
    for unit in run:
        begins = unit.kind in DEFINITION_KINDS and not (
            pieces and root(doc, pieces[-1][-1].element) == root(doc, unit.element)
        )
        if not pieces or begins:
            pieces.append([])
        pieces[-1].append(unit)
    return [p for p in pieces if p]


# -- records ----------------------------------------------------------------------------------


def link(parents: list[Chunk], children: list[Chunk]) -> list[Chunk]:
    """Each child names the parent that holds it; a parent one child holds whole is dropped (same
    span, same id); each layer chains on its own. Parents come before their children."""
    starts = [p.start for p in parents]
    kept: dict[str, Chunk] = {}
    for child in children:
        k = bisect.bisect_right(starts, child.start) - 1
        parent = parents[max(0, k)]
        if k < 0 or child.end > parent.end:  # cannot happen: children are packed inside their parents
            raise RuntimeError(f"parent-child: child [{child.start}-{child.end}] lies in no parent")
        if parent.id != child.id:
            child.parent_id = parent.id
            kept[parent.id] = parent
    layers = [[p for p in parents if p.id in kept], children]
    for layer in layers:
        for chunk in layer:
            chunk.prev_id = chunk.next_id = None
        for prev, nxt in itertools.pairwise(layer):
            prev.next_id, nxt.prev_id = nxt.id, prev.id
    return sorted((c for layer in layers for c in layer), key=lambda c: (c.start, -c.end))
