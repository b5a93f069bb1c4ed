"""Document → atomic units: the pieces a chunk boundary may fall between.

A unit is one leaf element (a heading, a paragraph, a list item's own lines, a
table row, a code block, a speaker turn). A unit that is alone over budget is
split — prose at sentences (keeping a sentence that leans on the one before with
it), code and HTML at lines — and any piece still over budget is cut into token
windows. Each unit carries the context it needs when a chunk starts with it: a
table row its header, a list item its lead-in and parent items, a later piece of
a turn its speaker.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from chunkers.budget import Counter, SpanCounts
from chunkers.sentences import continues_previous, sentence_spans
from parsers.model import Document, Element, line_starts, trim_span

# Definitions (from the code parser): split at the parts of their body, then at lines.
DEFINITION_KINDS = frozenset({"function", "class", "method"})
CODE_KINDS = DEFINITION_KINDS | {"code"}
_LINE_KINDS = CODE_KINDS | {"html", "table_row"}
_LEAD_IN_CHARS = 300
_FRAGMENT_WORDS = 2  # a lead-in longer than this is cut to its last sentence's tail


@dataclass
class Unit:
    start: int
    end: int
    kind: str
    element: str
    section: tuple[str, ...]
    context: tuple[str, ...] = ()
    glue_next: bool = False
    tokens: int = 0
    language: str | None = None
    label: str | None = None  # what every later piece of a split unit repeats (a turn's speaker)
    exact: bool = True  # ``tokens`` is this span's own count (a token window's is only a bound)
    symbol: str | None = None  # code: the qualified name of the definition this unit belongs to
    provides: str | None = None  # code: the signature this piece holds (others in its chunk need not repeat it)
    glue_prev: bool = False  # a closing "}" or "end": stays with what it closes when the budget allows


# ``room(unit)`` → how many content tokens a chunk that starts with this unit can hold.
Room = Callable[[Unit], int]


def atomic_units(doc: Document, counter: Counter, room: Room) -> list[Unit]:
    counts = SpanCounts(counter, doc.text)
    return fit_units(doc, leaf_units(doc, counts), counts, room)


def leaf_units(doc: Document, counts: SpanCounts) -> list[Unit]:
    """One unit per leaf element, with its context and its token count."""
    units = [_unit(doc, el, ctx, glue) for el, ctx, glue in _with_context(doc)]
    _count(units, counts)
    return units


def _count(units: list[Unit], counts: SpanCounts) -> None:
    for unit, n in zip(units, counts.count([(u.start, u.end) for u in units]), strict=True):
        unit.tokens = n


def fit_units(doc: Document, units: list[Unit], counts: SpanCounts, room: Room) -> list[Unit]:
    """Split every unit that is alone over budget; leave the others whole."""
    if all(u.tokens <= room(u) for u in units):
        return units
    out: list[Unit] = []
    for unit in units:
        out.extend([unit] if unit.tokens <= room(unit) else _split(doc, unit, counts, room))
    return out


def _unit(doc: Document, el: Element, context: tuple[str, ...], glue: bool) -> Unit:
    language = el.data.get("language") if el.kind in CODE_KINDS else None
    label = f"{el.data['speaker']}:" if el.kind == "turn" else None
    unit = Unit(el.start, el.end, el.kind, el.id, el.section_path, context, glue, language=language, label=label)
    unit.symbol = el.data.get("symbol")
    return unit


def _with_context(doc: Document) -> list[tuple[Element, tuple[str, ...], bool]]:
    by_id = doc.by_id()
    lead_ins = {el.data["lead_in"] for el in doc.elements if "lead_in" in el.data}
    out = []
    for el in doc.leaves():
        # A heading, a caption, a lead-in and a table's header never end a chunk: they introduce
        # what follows.
        glue = el.kind in ("heading", "caption") or el.id in lead_ins or bool(el.data.get("header"))
        out.append((el, _context(doc, el, by_id), glue))
    return out


def _context(doc: Document, el: Element, by_id: dict[str, Element]) -> tuple[str, ...]:
    parent = by_id.get(el.parent) if el.parent else None
    if el.kind == "table_row" and parent is not None and not el.data.get("header"):
        header = parent.data.get("header_text")
        return (header,) if header else ()
    if el.kind == "list_item":
        return _list_context(doc, el, by_id)
    # Code: the imports the definition references and the headers of the definitions around it.
    return tuple(el.data.get("context", ()))


def _list_context(doc: Document, item: Element, by_id: dict[str, Element]) -> tuple[str, ...]:
    """The lead-in of the outermost list, then the first line of each enclosing item."""
    chain: list[str] = []
    node = by_id.get(item.parent) if item.parent else None
    lead_in: str | None = None
    while node is not None:
        if node.kind == "list_item":
            first_line = doc.text[node.start : node.end].split("\n", 1)[0].strip()
            chain.append(first_line)
        if node.kind == "list" and "lead_in" in node.data:
            lead = by_id[node.data["lead_in"]]
            lead_in = _last_sentence(doc.text, lead.start, lead.end)
        node = by_id.get(node.parent) if node.parent else None
    chain.reverse()
    return ((lead_in,) if lead_in else ()) + tuple(chain)


def _last_sentence(text: str, start: int, end: int) -> str:
    spans = sentence_spans(text, start, end)
    s, e = spans[-1] if spans else (start, end)
    return text[max(s, e - _LEAD_IN_CHARS) : e]


# -- splitting a unit that is alone over budget --------------------------------


def _split(doc: Document, unit: Unit, counts: SpanCounts, room: Room) -> list[Unit]:
    element = doc.element(unit.element)
    if element is not None and element.data.get("parts") and (unit.start, unit.end) == (element.start, element.end):
        return _split_parts(doc, unit, element, counts, room)
    limit = room(unit)
    spans = _line_spans(doc.text, unit) if unit.kind in _LINE_KINDS else sentence_spans(doc.text, unit.start, unit.end)
    pieces = [_piece(unit, s, e, first=(n == 0)) for n, (s, e) in enumerate(spans)]
    if len(pieces) == 1 and (pieces[0].start, pieces[0].end) == (unit.start, unit.end):
        pieces[0].tokens = unit.tokens  # one sentence: already counted
    else:
        _count(pieces, counts)
    if unit.kind not in _LINE_KINDS:
        pieces = _bond(doc.text, pieces, limit)
    out: list[Unit] = []
    for piece in pieces:
        out.extend([piece] if piece.tokens <= room(piece) else _windows(doc.text, piece, counts, room(piece)))
    for piece in out:
        piece.glue_next = unit.glue_next
    return out


def _split_parts(doc: Document, unit: Unit, element: Element, counts: SpanCounts, room: Room) -> list[Unit]:
    """A definition over budget: its header (signature), then each part of its body — a nested
    definition as its own unit, a statement as code — each later piece repeating the signature."""
    text = doc.text
    nested = {child.start: child for child in doc.children(element.id) if child.data.get("part")}
    later = (*unit.context, element.data.get("signature", ""))
    pieces: list[Unit] = []

    def code_piece(start: int, end: int, context: tuple[str, ...]) -> None:
        start, end = trim_span(text, start, end)
        if end > start:
            pieces.append(
                Unit(
                    start, end, "code", unit.element, unit.section, context, language=unit.language, symbol=unit.symbol
                )
            )

    cursor = unit.start
    for start, end in element.data["parts"]:
        code_piece(cursor, start, unit.context if cursor == unit.start else later)
        if cursor == unit.start and pieces:
            pieces[-1].glue_next = True  # a signature never ends a chunk without its body
            pieces[-1].provides = later[-1]
        child = nested.get(start)
        if child is not None:
            pieces.append(_unit(doc, child, tuple(child.data.get("context", ())), False))
            end = max(end, child.end)
        else:
            code_piece(start, end, later)
        cursor = max(cursor, end)
    code_piece(cursor, unit.end, ())  # the closing "}" or "end" needs no context
    if pieces and pieces[-1].start >= cursor:
        pieces[-1].glue_prev = True
    _count(pieces, counts)
    out: list[Unit] = []
    for piece in pieces:
        out.extend([piece] if piece.tokens <= room(piece) else _split(doc, piece, counts, room))
    return out


def _piece(unit: Unit, start: int, end: int, first: bool) -> Unit:
    context = unit.context
    if unit.label and not first:
        # A later piece of a turn is only evidence if it still says who is speaking.
        context = (*context, unit.label)
    return Unit(
        start, end, unit.kind, unit.element, unit.section, context, False, 0, unit.language, unit.label,
        symbol=unit.symbol,
    )  # fmt: skip


def _bond(text: str, pieces: list[Unit], limit: int) -> list[Unit]:
    """Join a sentence that leans on the previous one (an exception, a pronoun) to it,
    and a fragment too short to stand alone ("Yes.") to the sentence after it."""
    out: list[Unit] = []
    for piece in pieces:
        prev = out[-1] if out else None
        leans = continues_previous(text, piece.start) or (prev is not None and _fragment(text, prev))
        if prev is not None and leans and prev.tokens + piece.tokens <= limit:
            prev.end = piece.end
            prev.tokens += piece.tokens
            continue
        out.append(piece)
    return out


def _fragment(text: str, piece: Unit) -> bool:
    words = text[piece.start : piece.end]
    if piece.label and piece.label in words:
        words = words.split(piece.label, 1)[1]
    return len(words.split()) <= _FRAGMENT_WORDS


def _line_spans(text: str, unit: Unit) -> list[tuple[int, int]]:
    starts = [s + unit.start for s in line_starts(text[unit.start : unit.end])]
    bounds = [*starts, unit.end]
    spans = []
    for s, e in itertools.pairwise(bounds):
        while e > s and text[e - 1] in "\r\n":
            e -= 1
        if text[s:e].strip():
            spans.append((s, e))
    return spans


def _windows(text: str, piece: Unit, counts: SpanCounts, limit: int) -> list[Unit]:
    cuts = counts.cuts(piece.start, piece.end, limit)
    bounds = [piece.start] + [piece.start + c for c in cuts] + [piece.end]
    out = []
    later = piece.context + ((piece.label,) if piece.label and piece.label not in piece.context else ())
    for n, (s, e) in enumerate(itertools.pairwise(bounds)):
        while e > s and text[e - 1].isspace():
            e -= 1
        context = piece.context if n == 0 else later
        # ``limit`` bounds the count by construction; finalize measures the real one.
        out.append(
            Unit(
                s,
                e,
                piece.kind,
                piece.element,
                piece.section,
                context,
                False,
                limit,
                piece.language,
                exact=False,
                symbol=piece.symbol,
            )
        )
    return out
