"""Document → atomic units: the pieces a chunk boundary may fall between.

A unit is one leaf element (a heading, a paragraph, a list item's own lines, a table
row, a code block, a speaker turn), with the context a chunk that starts with it needs
and whether it glues to what follows. A unit alone over budget is split (kinds.py says
how: a definition at the parts of its body, prose down the boundary levels of
boundaries.py, code and HTML at lines); its pieces record the level of the boundary
before them, and later pieces carry what the first one states (a turn's speaker).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from parsegate.chunkers.structural.boundaries import LINES, PROSE, Level, descend, is_title, titles_first
from parsegate.chunkers.structural.context import EMPTY, Context
from parsegate.chunkers.structural.kinds import CODE_KINDS, DEFINITION_KINDS, rule
from parsegate.chunkers.structural.sentences import sentence_spans
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.model import (
    BLOCK_KINDS,
    CodeData,
    Document,
    Element,
    ItemData,
    ListData,
    OutputData,
    RowData,
    TableData,
    TurnData,
    trim_span,
)
from parsegate.parsers.signals.page_breaks import flows_across


@dataclass(slots=True)  # thousands per document, their fields read over and over while packing
class Unit:
    start: int
    end: int
    kind: str
    element: str
    section: tuple[str, ...]
    context: Context = EMPTY
    level: Level = Level.ELEMENT  # strength of the boundary before it
    glue_next: bool = False
    glue_prev: bool = False  # a closing "}" or "end": stays with what it closes when it can
    language: str | None = None
    symbol: str | None = None  # code: the qualified name of the definition it belongs to
    provides: str | None = None  # code: the signature this piece holds (others need not repeat it)
    block: str | None = None  # the notebook cell or output it is in: no chunk spans two (BLOCK_KINDS)


# ``room(unit)`` → how many content tokens a chunk that starts with this unit can hold.
Room = Callable[[Unit], int]


def leaf_units(doc: Document) -> list[Unit]:
    """One unit per leaf element, with its context and glue."""
    by_id = doc.by_id()
    lead_ins = {lead for el in doc.elements if (lead := _lead_in(el)) is not None}
    lists: dict[str | None, Context] = {}  # an item's context is its list's: one per list
    units: list[Unit] = []
    leaves = doc.leaves()
    # Only an element with a page can go on into the next page's: in a document without pages
    # (every text format) no element is asked.
    paged = any(el.page is not None for el in leaves)
    goes_on = False
    for n, el in enumerate(leaves):
        how = rule(el.kind)
        header = isinstance(el.data, RowData) and el.data.header
        glue = how.glue_next or el.id in lead_ins or header or _asks(doc, el)
        if goes_on:  # the rest of the previous page's last sentence: one unit with it
            units[-1].end, units[-1].glue_next = el.end, glue
        else:
            # (Most kinds, paragraphs and headings among them, carry no context to look up.)
            context = _context(doc, el, how.context, by_id, lists) if how.context else EMPTY
            units.append(_unit(doc, el, context, glue))
        goes_on = paged and _goes_on(doc, el, leaves[n + 1] if n + 1 < len(leaves) else None)
    if any(el.kind in BLOCK_KINDS for el in doc.elements):
        blocks = _blocks(doc)
        for unit in units:
            unit.block = blocks.get(unit.element)
    return units


def _blocks(doc: Document) -> dict[str, str]:
    """Each element's block: the cell or output it is, or is inside (parents come first)."""
    out: dict[str, str] = {}
    for el in doc.elements:
        if el.kind in BLOCK_KINDS:
            out[el.id] = el.id
        elif el.parent in out:
            out[el.id] = out[el.parent]
    return out


def _goes_on(doc: Document, el: Element, after: Element | None) -> bool:
    """A paragraph (or a list item) the page cut mid-sentence, whose sentence goes on in the next
    page's first paragraph: a PDF's element has one page (its box is on it), so the parser keeps the two
    halves apart, and the chunker takes them as one unit, to be cut, if it must be, at a
    sentence's end like any paragraph (the blank line between them is inside a sentence)."""
    return (
        after is not None
        and el.kind in ("paragraph", "list_item")  # an item's text goes on as the page's first paragraph
        and after.kind == "paragraph"
        and el.page is not None
        and after.page is not None
        and after.page > el.page
        and flows_across(doc.text, el.end, after.start)
        and not doc.text[el.end : after.start].strip()
    )


def _lead_in(el: Element) -> str | None:
    """The id of the element that introduces ``el`` (a list's, a table's, a code block's)."""
    data = el.data
    # A tuple, not a union: isinstance of a union type costs several times as much, per element.
    return data.lead_in if isinstance(data, (ListData, TableData, CodeData)) else None


def _asks(doc: Document, el: Element) -> bool:
    """A turn that ends in a question stays with the turn that answers it."""
    return el.kind == "turn" and doc.text[el.start : el.end].rstrip().endswith("?")


def fit_units(
    doc: Document,
    units: list[Unit],
    index: SpanIndex,
    room: Room,
    whole: Room | None = None,
    least: int = 0,
) -> list[Unit]:
    """Split every unit that is alone over budget; leave the others whole. ``whole`` is the
    room within which a unit stays whole (default ``room``; the packer's bare room lets a
    paragraph's breadcrumb give way to it); a unit over it is split to ``room``. ``least`` is a
    room every unit has at least (Packer.least_room): a unit within it fits without asking."""
    out: list[Unit] = []
    chain: Unit | None = None  # the first of the headings and lead-ins right above this unit
    for unit in units:
        tokens = index.count(unit.start, unit.end)
        above, chain = chain, (chain or unit) if unit.glue_next else None
        if tokens <= least or tokens <= room(unit) or (whole is not None and _whole_with(index, unit, above, whole)):
            out.append(unit)
            continue
        # A whole definition is worth more than the imports and constants it uses: drop those
        # from its context before cutting it.
        lean = replace(unit, context=replace(unit.context, imports=()))
        if lean.context != unit.context and tokens <= room(lean):
            out.append(lean)
        else:
            out.extend(_split(doc, unit, index, room, whole))
    _bind_small_blocks(doc, out, index, room)
    return out


def _bind_small_blocks(doc: Document, units: list[Unit], index: SpanIndex, room: Room) -> None:
    """The rows of a table, the items of a list, that fit in one chunk together (with the lead-in
    and headings that stay with them) are closer to each other than to the blocks around them: a
    chunk ends before or after such a block where it can, not inside it. A block too big for one
    chunk is cut between its rows as freely as between blocks: cutting before it would not spare
    it a cut."""
    by_id = doc.by_id()
    parents = [_parent(by_id, unit) for unit in units]  # looked up once, not at both ends of a block
    # The blocks are the runs of one parent, found by groupby (a C loop over the units, most of
    # which are blocks of one: a paragraph, a heading).
    end = 0
    for parent, members in itertools.groupby(parents):
        n, end = end, end + len(list(members))
        if parent is None or end - n <= 1:
            continue
        first = n  # with the lead-in and headings that stay with the block
        while first > 0 and units[first - 1].glue_next:
            first -= 1
        if index.count(units[first].start, units[end - 1].end) <= room(units[first]):
            for unit in units[n + 1 : end]:
                unit.level = max(unit.level, Level.BLANK)


def _parent(by_id: dict[str, Element], unit: Unit) -> str | None:
    element = by_id.get(unit.element)
    return element.parent if element is not None else None


def _whole_with(index: SpanIndex, unit: Unit, above: Unit | None, whole: Room) -> bool:
    """Does the unit fit whole in the larger room, with the headings or lead-in above it (which
    stay with it)? A paragraph kept whole away from its heading would leave the heading alone. A
    table row is asked alone: its header rides along in its prefix wherever it goes."""
    first = unit if unit.context.header else above or unit
    return index.count(first.start, unit.end) <= whole(first)


# -- one unit per element ------------------------------------------------------


def _unit(doc: Document, el: Element, context: Context, glue: bool) -> Unit:
    code = el.data if isinstance(el.data, CodeData) else None
    return Unit(
        el.start,
        el.end,
        el.kind,
        el.id,
        el.section_path,
        context,
        glue_next=glue,
        language=code.language if code is not None else None,
        symbol=code.symbol if code is not None else None,
    )


def _context(
    doc: Document, el: Element, how: str, by_id: dict[str, Element], lists: dict[str | None, Context]
) -> Context:
    """The context of a unit of ``el`` (``how``: its kind's rule's context)."""
    if how == "header" and isinstance(el.data, RowData) and not el.data.header:
        parent = by_id.get(el.parent) if el.parent else None
        header = parent.data.header_text if parent is not None and isinstance(parent.data, TableData) else None
        return Context(header=header) if header else EMPTY
    if how == "list":
        found = lists.get(el.parent)
        if found is None:
            found = lists[el.parent] = _list_context(doc, el, by_id)
        return found
    if how == "code":
        return _code_context(el, by_id)
    if how == "output" and isinstance(el.data, OutputData) and el.data.source:
        return Context(label=f"Output of: {el.data.source}")  # "870000" says nothing alone
    return EMPTY


def _list_context(doc: Document, item: Element, by_id: dict[str, Element]) -> Context:
    """The lead-in of the outermost list, then the first line of each enclosing item."""
    chain: list[str] = []
    node = by_id.get(item.parent) if item.parent else None
    lead_in: str | None = None
    while node is not None:
        if node.kind == "list_item":
            chain.append(doc.text[node.start : node.end].split("\n", 1)[0].strip())
        lead_id = _lead_in(node) if node.kind == "list" else None
        if lead_id is not None and lead_id in by_id:
            lead = by_id[lead_id]
            spans = sentence_spans(doc.text, lead.start, lead.end)
            s, e = spans[-1] if spans else (lead.start, lead.end)
            lead_in = doc.text[s:e]
        node = by_id.get(node.parent) if node.parent else None
    chain.reverse()
    return Context(lead_in=lead_in, parents=tuple(chain))


def _code_context(el: Element, by_id: dict[str, Element]) -> Context:
    """The headers of the definitions around it (outer first) and the imports it uses."""
    lines = tuple(el.data.context) if isinstance(el.data, CodeData) else ()
    signatures = set()
    node = by_id.get(el.parent) if el.parent else None
    while node is not None:
        if isinstance(node.data, CodeData):
            signatures.add(node.data.signature)
        node = by_id.get(node.parent) if node.parent else None
    return Context(
        enclosing=tuple(x for x in lines if x in signatures),
        imports=tuple(x for x in lines if x not in signatures),
    )


# -- splitting a unit that is alone over budget --------------------------------


def _split(doc: Document, unit: Unit, index: SpanIndex, room: Room, whole: Room | None = None) -> list[Unit]:
    element = doc.element(unit.element)
    entire = element is not None and (unit.start, unit.end) == (element.start, element.end)
    if element is not None and entire and isinstance(element.data, CodeData) and element.data.parts:
        return _split_parts(doc, unit, element, element.data, index, room, whole)
    plan = rule(unit.kind).plan if unit.kind not in CODE_KINDS else LINES
    later = replace(unit, context=_later_context(doc, unit), level=Level.ELEMENT)
    limit = min(room(unit), room(later))
    pieces = descend(doc.text, unit.start, unit.end, plan, limit, index)
    prose = plan is PROSE
    if prose:
        pieces = titles_first(doc.text, pieces, index, limit)
    # A piece of a definition cut at lines is code, not the definition (it does not parse alone).
    # A title line of its own glues to what it names, as a heading does (boundaries.is_title).
    kind = "code" if unit.kind in DEFINITION_KINDS and len(pieces) > 1 else unit.kind
    out = [
        replace(unit if n == 0 else later, start=p.start, end=p.end, level=p.level, kind=kind,
                glue_next=prose and n + 1 < len(pieces) and is_title(doc.text, p, pieces[n + 1]))
        for n, p in enumerate(pieces)
    ]  # fmt: skip
    if out:
        out[0].level = unit.level
        out[-1].glue_next = unit.glue_next
        if len(out) > 1 and later.context.label and doc.text[out[0].start : out[0].end].strip() == later.context.label:
            out[0].glue_next = True  # a definition's term alone stays with its description
    return out


def _later_context(doc: Document, unit: Unit) -> Context:
    """A later piece of a turn is only evidence if it still says who is speaking, and a later piece
    of a definition if it still names the term it defines."""
    if unit.kind == "turn":
        element = doc.element(unit.element)
        speaker = element.data.speaker if element is not None and isinstance(element.data, TurnData) else None
        return replace(unit.context, label=f"{speaker}:") if speaker else unit.context
    if unit.kind == "list_item":
        element = doc.element(unit.element)
        term = element.data.term if element is not None and isinstance(element.data, ItemData) else None
        return replace(unit.context, label=term) if term else unit.context
    return unit.context


_IDENT = re.compile(r"[^\W\d]\w*")


def _used_by(data: CodeData, piece: str) -> tuple[str, ...]:
    """The import and constant lines of a definition's context that bind a name ``piece`` uses
    (a method's continuation multiplies by LATE_FEE_RATE: that line, not the imports of its start)."""
    if not data.context_names:
        return ()
    words = set(_IDENT.findall(piece))
    return tuple(
        line
        for line, names in zip(data.context, data.context_names, strict=False)
        if names and not words.isdisjoint(names)
    )


def _split_parts(
    doc: Document, unit: Unit, element: Element, data: CodeData, index: SpanIndex, room: Room, whole: Room | None
) -> list[Unit]:
    """A definition over budget: its header (signature), then each part of its body — a nested
    definition as its own unit, a statement as code — each later piece repeating the signature.
    A nested definition that fits ``whole`` (its context giving way) stays whole."""
    text = doc.text
    nested = {c.start: c for c in doc.children(element.id) if isinstance(c.data, CodeData) and c.data.part}
    signature = data.signature or ""
    later = replace(
        unit.context, enclosing=(*unit.context.enclosing, signature) if signature else unit.context.enclosing
    )
    by_id = doc.by_id()
    pieces: list[Unit] = []

    def code_piece(start: int, end: int, context: Context, into: list[Unit] = pieces) -> None:
        start, end = trim_span(text, start, end)
        if end > start:
            if context is later:  # a later piece carries the imports and constants it uses itself
                context = replace(later, imports=_used_by(data, text[start:end]))
            into.append(replace(unit, start=start, end=end, kind="code", context=context, glue_next=False))

    cursor = unit.start
    for start, end in data.parts:
        code_piece(cursor, start, unit.context if cursor == unit.start else later)
        if cursor == unit.start and pieces:
            pieces[-1].glue_next = True  # a signature never ends a chunk without its body
            pieces[-1].provides = signature or None
        child = nested.get(start)
        if child is not None:
            pieces.append(_unit(doc, child, _code_context(child, by_id), False))
            code_piece(child.end, end, later)  # a part that runs on past the nested definition (Kotlin)
            end = max(end, child.end)
        else:
            code_piece(start, end, later)
        cursor = max(cursor, end)
    code_piece(cursor, unit.end, EMPTY)  # the closing "}" or "end" needs no context
    if pieces and pieces[-1].start >= cursor:
        pieces[-1].glue_prev = True
    # The parts of one definition are closer to each other than to the definitions around it.
    for n, piece in enumerate(pieces):
        piece.level = unit.level if n == 0 else max(piece.level, Level.BLANK)
    out: list[Unit] = []
    starts = {start for start, _ in data.parts}  # of parts: a definition there is a unit already

    def fits(piece: Unit) -> bool:
        tokens = index.count(piece.start, piece.end)
        return tokens <= room(piece) or (
            whole is not None and piece.kind in DEFINITION_KINDS and tokens <= whole(piece)
        )

    for piece in pieces:
        if fits(piece):
            out.append(piece)
            continue
        # A statement over budget that holds definitions (a function defined in each branch of an
        # ``if``): cut around them, so each stays whole where it fits, rather than at its lines.
        inner = [
            c
            for c in doc.children(element.id)
            if c.kind in DEFINITION_KINDS and piece.start <= c.start and c.end <= piece.end and c.start not in starts
        ]
        if piece.kind != "code" or not inner:
            out.extend(_split(doc, piece, index, room, whole))
            continue
        parts: list[Unit] = []
        cursor = piece.start
        for child in inner:
            code_piece(cursor, child.start, later, parts)
            parts.append(replace(_unit(doc, child, _code_context(child, by_id), False), level=Level.BLANK))
            cursor = child.end
        code_piece(cursor, piece.end, later, parts)
        for part in parts:
            out.append(part) if fits(part) else out.extend(_split(doc, part, index, room, whole))
    return out
