"""Elements and the document text, block by block in reading order: headings; paragraphs, list
items, code listings, captions and footnotes from text blocks; tables with their rows; figure
text after its figure's caption; furniture last (so no chunk, a contiguous slice, takes it in).
Tables are build_tables.py's.

Element data is built in one place per kind (``list_data`` here, ``table_data`` and ``row_data``
in build_tables.py) so its shape per kind is plain.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parsegate.parsers.model import Element, FurnitureData, ListData, TextBuilder, TextData
from parsegate.parsers.pdf.build_code import listing_text
from parsegate.parsers.pdf.build_tables import SENTENCE_END, emit_table
from parsegate.parsers.pdf.confidence import CAPTION
from parsegate.parsers.pdf.layout import Box, Line, Style, Table, round_box, union
from parsegate.parsers.pdf.lines import join_lines
from parsegate.parsers.pdf.order import Block
from parsegate.parsers.pdf.text import BULLETS
from parsegate.parsers.pdf.typography import Heading, is_folio

_SEP = "\n\n"
_ITEM = re.compile(r"^([" + re.escape("".join(sorted(BULLETS))) + r"]|\(?(\d{1,2}|[a-z]|[ivx]{1,4})[.)])\s+\S")
# A note's mark: "2018, and" is a year, not note 201; "0.128.0, the" a version, not note 0.
_FOOTNOTE = re.compile(r"^(\d{1,3}(?![\d]|[.,]\d)|[*†‡§¶])\s*\S")
_END = '.!?:;"”’)»'


# -- element data (one place per kind) ------------------------------------------------------------


def list_data(lead_in: str | None) -> ListData:
    return ListData(lead_in=lead_in or None)


# -- the builder ---------------------------------------------------------------------------------


@dataclass
class Builder(TextBuilder):
    body: Style = field(default_factory=Style)
    elements: list[Element] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    last_table: Element | None = None  # for a table continued on the next page
    open_list: Element | None = None
    footnotes: list[tuple[str, int, Box]] = field(default_factory=list)  # waiting for their page's end
    furniture: list[tuple[str, int, Box]] = field(default_factory=list)  # besides the pages' own lines
    hyphenated: bool = False  # the last paragraph ends in a line-end hyphen
    paragraph_lines: int = 0  # and has this many lines
    last_style: Style | None = None  # and in this type
    page_body: list[Box] = field(default_factory=list)  # the page's lines in body type (or larger)
    words: frozenset[str] = frozenset()  # the document's words, lower case (what a hyphen may join)

    def emit(self, kind: str, text: str, page: int, box: Box, sep: str = _SEP, **fields: Any) -> Element:
        if kind != "list_item":
            self.open_list = None
        start, end = self.add(text, sep)
        el = Element(f"e{len(self.elements)}", kind, start, end, section_path=tuple(t for _, t in self.headings),
                     page=page, bbox=box, **fields)  # fmt: skip
        self.elements.append(el)
        return el

    def take_back(self) -> Element:
        """Remove the last element emitted (a leaf: its text is the last piece)."""
        el = self.elements.pop()
        self.size -= len(self.pieces.pop())
        if self.pieces:
            self.size -= len(self.pieces.pop())  # its separator
        return el

    def container(self, kind: str, page: int, box: Box, sep: str = _SEP, **fields: Any) -> Element:
        """An element that will enclose the next ones (its end grows with them)."""
        start = self.next_start(sep)
        el = Element(f"e{len(self.elements)}", kind, start, start, section_path=tuple(t for _, t in self.headings),
                     page=page, bbox=box, **fields)  # fmt: skip
        self.elements.append(el)
        return el


def emit_page(b: Builder, blocks: list[Block], headings: dict[Block, Heading]) -> None:
    figure_text: list[Block] = []
    b.page_body = [
        ln.box
        for block in blocks
        if block.item is None
        for ln in block.lines
        if not _small(ln, b.body) and not is_folio(ln.text)  # a page number the furniture pass left in
    ]
    for n, block in enumerate(blocks):
        turn = n == 0 or _new_column(b, block)
        rest = turn and _rest_of_sentence(b, block, headings)
        if turn and not isinstance(block.item, Table) and not rest:
            _flush_footnotes(b)
        if isinstance(block.item, Table):
            emit_table(b, block.item)
            if n == 0:
                _flush_footnotes(b)
        elif block.item is not None:
            if block.lines:
                figure_text.append(block)
            continue
        elif block in headings:
            _emit_heading(b, block, headings[block])
        else:
            _emit_text(b, block, notes_after_first=rest)
        # Figure text goes after the figure's caption, or after what follows the figure.
        if figure_text and not (b.elements and b.elements[-1].kind == "heading"):
            for figure in figure_text:
                _emit_figure_text(b, figure)
            figure_text = []
    for figure in figure_text:
        _emit_figure_text(b, figure)
    last = b.elements[-1] if b.elements else None
    if last is None or (last.kind != "table_row" and not _waiting_header(b) and not _sentence_runs_on(b)):
        _flush_footnotes(b)


def _new_column(b: Builder, block: Block) -> bool:
    """The block starts above the page's waiting footnotes and stands beside them: the column
    they close has ended, and they are read there, before the next column (as a reader and the
    text layer have them), not after the whole page."""
    if block.item is not None or not block.lines:
        return False
    notes = [box for _, page, box in b.footnotes if page == block.lines[0].page]
    if not notes:
        return False
    top, x0, x1 = min(n[1] for n in notes), min(n[0] for n in notes), max(n[2] for n in notes)
    return block.top < top and (block.x0 >= x1 or block.x1 <= x0)


def _sentence_runs_on(b: Builder) -> bool:
    """The page ends in a paragraph cut mid-sentence: its notes wait for the sentence's rest on
    the next page, so that nothing stands between the halves and one chunk can hold both."""
    last = b.elements[-1] if b.elements else None
    if last is None or last.kind != "paragraph" or b.last_style is None:
        return False
    return b.last_style.size >= b.body.size - 0.75 and b.pieces[-1][-1:] not in _END


def _rest_of_sentence(b: Builder, block: Block, headings: dict[Block, Heading]) -> bool:
    """A page's first block is text going on in lower case after the sentence the page before
    left unfinished, with that page's notes waiting."""
    return (
        bool(b.footnotes)
        and block.item is None
        and block not in headings
        and block.lines[0].text[:1].islower()
        and _sentence_runs_on(b)
    )


def _waiting_header(b: Builder) -> bool:
    """The page ends with a table's caption and one line after it: the header of a table whose
    rows start the next page (_orphan_header), which the page's notes must not come between."""
    kinds = [el.kind for el in b.elements[-2:]]
    return kinds == ["caption", "paragraph"] and b.paragraph_lines == 1


def _flush_footnotes(b: Builder) -> None:
    """Footnotes wait for the end of their page, and past it while a table runs on to the next
    page: they float, and a table is one element however many pages it spans."""
    for text, page, box in b.footnotes:
        b.emit("footnote", text, page, box)
    b.footnotes = []


def finish(
    b: Builder,
    furniture: list[tuple[str, int, Box]],
    navigation: Sequence[tuple[str, int, Box]] = (),
    hidden: Sequence[tuple[str, int, Box]] = (),
) -> None:
    """Footnotes still waiting, then furniture: after the body, so that no chunk (a contiguous
    slice) can take it in. Navigation (a page's contents or index entries) and text no reader
    sees (parsers/pdf/hidden.py) say what they are."""
    _flush_footnotes(b)
    pieces: list[tuple[str, int, Box, str | None]] = [(text, page, box, "navigation") for text, page, box in navigation]
    pieces += [(text, page, box, "hidden") for text, page, box in hidden]
    pieces += [(text, page, box, None) for text, page, box in [*furniture, *b.furniture]]
    for text, page, box, reason in sorted(pieces, key=lambda f: f[1]):
        b.emit("furniture", text, page, box, data=FurnitureData(reason=reason) if reason else FurnitureData())


def _box(lines: list[Line]) -> Box:
    return round_box(min(ln.x0 for ln in lines), min(ln.top for ln in lines),
                     max(ln.x1 for ln in lines), max(ln.bottom for ln in lines))  # fmt: skip


def _emit_heading(b: Builder, block: Block, heading: Heading) -> None:
    while b.headings and b.headings[-1][0] >= heading.level:
        b.headings.pop()
    b.headings.append((heading.level, heading.text))
    data = TextData(heading_confidence=heading.confidence)
    b.emit("heading", heading.text, block.lines[0].page, _box(block.lines), level=heading.level, data=data)


def _emit_figure_text(b: Builder, block: Block) -> None:
    lines = sorted(block.lines, key=lambda ln: (round(ln.top), ln.x0))
    text = lines[0].text
    for prev, line in itertools.pairwise(lines):
        # a word hyphenated at a line's end goes on on the next (a text box's "pream-" / "ble")
        text += ("" if prev.hyphen and line.text[:1].islower() else "\n") + line.text
    b.emit("figure_text", text, lines[0].page, _box(lines))


# -- text blocks -----------------------------------------------------------------------------------


def _emit_text(b: Builder, block: Block, notes_after_first: bool = False) -> None:
    """The block's paragraphs, list items, notes or listing; with ``notes_after_first``, the
    page before's notes go right after the first (the rest of that page's last sentence)."""
    lines = block.lines
    code = lines[0].listing and all(ln.listing or ln.letterless for ln in lines)
    for n, unit in enumerate([lines] if code else _units(lines, block, b.body)):
        if code:
            _emit_code(b, unit)
        else:
            _emit_unit(b, unit, block)
        if n == 0 and notes_after_first:
            _flush_footnotes(b)


def _units(lines: list[Line], block: Block, body: Style) -> list[list[Line]]:
    """The block's lines cut where a paragraph or list item starts."""
    units = [[lines[0]]]
    for line in lines[1:]:
        if _starts_unit(units[-1], line, block, body):
            units.append([])
        units[-1].append(line)
    return units


def _starts_unit(unit: list[Line], line: Line, block: Block, body: Style) -> bool:
    """A new paragraph or list item: a bullet or number, a first-line indent, a short line
    before it that ends a sentence, or another style."""
    prev = unit[-1]
    em = line.size
    if _ITEM.match(line.text) or (_small(line, body) and _FOOTNOTE.match(line.text)):
        return True
    if _ITEM.match(unit[0].text):
        # An item goes on under its text (a hanging indent), after a line that ran full, or
        # after a line that ends mid-sentence.
        return not (_hanging(unit, line) or prev.x1 >= block.x1 - 2 * em or prev.text[-1:] not in _END)
    if line.style.key != prev.style.key and line.uniform and prev.uniform:
        return True
    if (
        line.x0 > prev.x0 + 0.8 * em
        and line.x0 > block.x0 + 0.8 * em
        and len(unit) >= 1
        and prev.x0 < block.x0 + 0.5 * em
    ):
        return prev.text[-1:] in _END or prev.x1 < block.x1 - 2 * em  # an indented first line
    return prev.x1 < block.x1 - 3 * em and prev.text[-1:] in _END and len(block.lines) >= 3


def _small(line: Line, body: Style) -> bool:
    """Set clearly smaller than the body text: footnote size."""
    return line.size < body.size - 0.75


def _hanging(unit: list[Line], line: Line) -> bool:
    """A list item's later lines sit under its text, right of its bullet."""
    return len(unit) >= 1 and line.x0 > unit[0].x0 + 0.5 * line.size


def _emit_unit(b: Builder, lines: list[Line], block: Block) -> None:
    text = join_lines(lines)
    page, box = lines[0].page, _box(lines)
    small = max(ln.size for ln in lines) < b.body.size - 0.75
    if small and _FOOTNOTE.match(text) and _at_foot(b, box):
        b.footnotes.append((text, page, box))  # small type that starts with a mark: kept apart
    elif small and _continues_footnote(b, page, box):
        note, _, note_box = b.footnotes[-1]
        b.footnotes[-1] = (f"{note} {text}", page, union(note_box, box))
    elif _ITEM.match(text):
        _emit_item(b, text, page, box)
        b.hyphenated = lines[-1].hyphen
    elif not _continues_paragraph(b, lines, text):
        rest = _after_rest_of_word(b, text, page)
        if rest:
            _emit_unit_text(b, rest, lines, page, box)


def _emit_unit_text(b: Builder, text: str, lines: list[Line], page: int, box: Box) -> None:
    if CAPTION.match(text):
        b.emit("caption", text, page, box)
    else:
        b.emit("paragraph", text, page, box)
        b.hyphenated, b.last_style, b.paragraph_lines = lines[-1].hyphen, lines[-1].style, len(lines)


def _after_rest_of_word(b: Builder, text: str, page: int) -> str:
    """The text, less the rest of a word hyphenated at the foot of a page (or of a column the
    paragraph does not go on in): that rest, up to the first space, joins the paragraph (or the
    list item) before
    (the builder's last piece: the page's notes wait after it while its sentence runs on), and
    never a paragraph break stands inside a word. What follows stays a paragraph of its page."""
    last = b.elements[-1] if b.elements else None
    before = b.pieces[-1] if b.pieces else ""
    if last is None or last.kind not in ("paragraph", "list_item") or not text[:1].islower():
        return text
    word, _, rest = text.partition(" ")
    if not b.hyphenated:
        # A hyphen PDFium did not mark as a line end's: the word's, where the document has the
        # halves joined elsewhere; else a compound's, joined with it on one page only (across
        # a page break it reads as well apart).
        if not (before.endswith("-") and before[-2:-1].isalnum()):
            return text
        head, tail = re.search(r"\w+-$", before), re.match(r"\w+", word)
        if head and tail and (head.group(0)[:-1] + tail.group(0)).lower() in b.words:
            before = before[:-1]
            b.size -= 1
        elif last.page != page:
            return text
    b.pieces[-1] = before + word
    b.size += len(word)
    last.end = b.size
    if b.open_list is not None and last.parent == b.open_list.id:
        b.open_list.end = b.size
    b.hyphenated = False
    return rest


def _at_foot(b: Builder, box: Box) -> bool:
    """A footnote stands under its column's text: no line in body type below it, across its
    width (a page number aside). Small type with a number in front higher up is a table's rows
    ("118dpi 100% …") or a float's text, which keeps its place (held to the page's end, it
    would come between the halves of a sentence that the page cuts)."""
    return not any(top >= box[3] and x0 < box[2] and x1 > box[0] for x0, top, x1, _ in b.page_body)


def _continues_footnote(b: Builder, page: int, box: Box) -> bool:
    """Small type right under the last footnote of its page, which stops mid-sentence, starting
    with no mark: that note's next line, in a block of its own when it starts left of the note's
    first line (TeX indents a note's first line only)."""
    if not b.footnotes or SENTENCE_END.search(b.footnotes[-1][0]):
        return False  # the note ends a sentence: what follows is not its next line
    _, note_page, note = b.footnotes[-1]
    gap = box[1] - note[3]
    return note_page == page and -1.0 <= gap <= 0.6 * b.body.size and box[0] < note[2] and box[2] > note[0]


def _emit_item(b: Builder, text: str, page: int, box: Box) -> None:
    """A list item, in the list that the items before it opened (with the paragraph right
    before the list as its lead-in)."""
    if b.open_list is None:
        last = b.elements[-1] if b.elements else None
        lead = last.id if last is not None and last.kind == "paragraph" else None
        b.open_list = b.container("list", page, box, data=list_data(lead))
    item_list = b.open_list
    item = b.emit("list_item", text, page, box, parent=item_list.id, level=1)
    b.open_list = item_list
    item_list.end = item.end


def _continues_paragraph(b: Builder, lines: list[Line], text: str) -> bool:
    """A paragraph cut by a column break goes on in the next block: the previous paragraph,
    on the same page (an element has one page), ends mid-sentence and this text starts in
    lower case, in the same type."""
    last = b.elements[-1] if b.elements else None
    first = lines[0]
    if last is None or last.kind != "paragraph" or last.page != first.page or not text[:1].islower():
        return False
    before = b.pieces[-1]
    if before[-1:] in _END or b.last_style is None or abs(b.last_style.size - first.size) > 0.5:
        return False
    if b.hyphenated:
        joined = before + text
    elif before.endswith("-") and before[-2:-1].isalnum():
        joined = before[:-1] + text
    else:
        joined = f"{before} {text}"
    b.size += len(joined) - len(before)
    b.pieces[-1] = joined
    last.end = b.size
    if last.bbox is not None:
        box = _box(lines)
        last.bbox = union(last.bbox, box)
    b.hyphenated = lines[-1].hyphen
    b.paragraph_lines += len(lines)
    return True


def _emit_code(b: Builder, lines: list[Line]) -> None:
    """A listing keeps its line breaks and its spacing (build_code.py)."""
    b.emit("code", listing_text(lines), lines[0].page, _box(lines))
