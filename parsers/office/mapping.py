"""A DoclingDocument → our Document: ``Document.text`` built from docling's items in reading
order, each element keeping a docling reference, a slide number (page) or a sheet and cell range
as provenance.

Nothing docling holds is dropped silently: an inline group (a paragraph docling split by
formatting) is one paragraph; a chart's data is a table under its caption; text on docling's
other layers (page headers and footers, hidden paragraphs, comments) is furniture with its
reason, but a DOCX's footnotes and a slide's speaker notes are evidence and follow what they
belong to; an XLSX one-cell row is a caption only when a table follows right below it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docling_core.types.doc.common.content_layer import ContentLayer
from docling_core.types.doc.items.group import GroupItem, InlineGroup
from docling_core.types.doc.items.picture.picture import PictureItem
from docling_core.types.doc.items.table.table import TableItem
from docling_core.types.doc.items.table.table_data import RichTableCell
from docling_core.types.doc.items.text import ListItem, TextItem

from parsegate.parsers.build.data import code_data, list_data
from parsegate.parsers.build.document import DocBuilder
from parsegate.parsers.build.headings import title_from_first_heading
from parsegate.parsers.model import Data, Document, Element, ImageData, ParseWarning, TextData, data_class
from parsegate.parsers.office.footnotes import key
from parsegate.parsers.office.inline import joined, pieces_of, shifted
from parsegate.parsers.office.pictures import ImageText
from parsegate.parsers.office.tables import Title, chart_grid, header_rows, is_title_row, title_row, xlsx_cells
from parsegate.parsers.signals.headings import suspect_heading

_LABEL_KINDS = {
    "title": "heading", "section_header": "heading", "paragraph": "paragraph", "text": "paragraph",
    "list_item": "list_item", "caption": "caption", "footnote": "footnote", "code": "code",
    "formula": "paragraph", "reference": "paragraph", "page_header": "furniture", "page_footer": "furniture",
    "checkbox_selected": "list_item", "checkbox_unselected": "list_item",
}  # fmt: skip
_CHECKBOXES = {"checkbox_selected": "[x] ", "checkbox_unselected": "[ ] "}
_LAYER_REASONS = {
    ContentLayer.FURNITURE: "page header or footer (docling's furniture layer)",
    ContentLayer.BACKGROUND: "background (a watermark)",
    ContentLayer.INVISIBLE: "hidden in the source (not shown by Word, PowerPoint or Excel)",
    ContentLayer.NOTES: "speaker notes (not on the slide)",
}


def to_document(
    ddoc: Any,
    doc_id: str,
    version: str,
    fmt: str,
    gaps: dict[tuple[str, ...], list[str]] | None = None,
    anchors: dict[str, list[str]] | None = None,
    images: dict[str, list[ImageText]] | None = None,
) -> Document:
    walk = _Walk(ddoc=ddoc, fmt=fmt, gaps=gaps or {}, anchors=anchors or {}, images=images or {})
    walk.run()
    text, elements = walk.b.finish()
    meta: dict[str, Any] = {}
    if getattr(ddoc, "name", None):
        meta["docling_name"] = ddoc.name
    title = title_from_first_heading(elements, text) if fmt != "xlsx" else None
    if title:
        meta["title"] = title
    doc = Document(doc_id, version, fmt, text, elements, metadata=meta, warnings=walk.b.warnings)
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    return doc


@dataclass
class _Walk:
    ddoc: Any
    fmt: str
    gaps: dict[tuple[str, ...], list[str]]
    b: DocBuilder = field(default_factory=DocBuilder)
    lists: list[tuple[int, Element]] = field(default_factory=list)  # (docling depth, list element)
    section_base: int = 0  # heading level of the current slide or sheet section
    below_title: int = 0  # 1 once a document title is seen (HTML, docling JSON): headers sit under it
    pending: Title | None = None  # an XLSX one-cell row, waiting to see whether a table follows
    skip: int | None = None  # depth whose descendants were already read (a table, an inline group)
    consumed: set[str] = field(default_factory=set)  # inline groups read as a list item's text
    anchors: dict[str, list[str]] = field(default_factory=dict)  # citing paragraph → its notes (footnotes.py)
    notes: dict[str, list[Any]] = field(default_factory=dict)  # docling's footnote items, by key, not yet placed
    placed: set[str] = field(default_factory=set)  # footnotes placed after the paragraph citing them
    images: dict[str, list[ImageText]] = field(default_factory=dict)  # a picture's words (pictures.py)

    def run(self) -> None:
        for note in getattr(self.ddoc, "texts", []):
            if _label(note) == "footnote" and note.content_layer != ContentLayer.BODY:
                self.notes.setdefault(key(note.text), []).append(note)
        for item, depth in self.ddoc.iterate_items(with_groups=True, included_content_layers=set(ContentLayer)):
            if self.skip is not None and depth > self.skip:
                continue
            self.skip = None
            if item.content_layer != ContentLayer.BODY:
                self.other_layer(item, depth)
            elif isinstance(item, GroupItem):
                self.group(item, depth)
            elif isinstance(item, TableItem):
                self.table(item, depth)
            elif isinstance(item, PictureItem):
                self.picture(item, depth)
            elif isinstance(item, TextItem):
                self.text(item, depth)
        self.flush_title()
        self.close_lists(-1)

    # -- provenance -----------------------------------------------------------------------
    def fields(self, item: Any, data: Data | None = None) -> dict[str, Any]:
        """Element fields from a docling item: its data (with the item's reference) and, where
        the format has them, its page and box."""
        data = data if data is not None else TextData()
        data.ref = item.self_ref
        out: dict[str, Any] = {"data": data}
        prov = getattr(item, "prov", None) or []
        if prov and self.fmt in ("pptx", "docling"):
            out["page"] = prov[0].page_no
            box = prov[0].bbox
            if self.fmt == "docling" and box is not None:
                out["bbox"] = (box.l, box.t, box.r, box.b)
        return out

    # -- items ------------------------------------------------------------------------------
    def other_layer(self, item: Any, depth: int) -> None:
        if isinstance(item, TextItem) and _label(item) == "footnote" and item.text.strip():
            self.footnote(item)
            return
        slide = _notes_slide(self.ddoc, item) if self.fmt == "pptx" else None
        if slide == ContentLayer.BODY:
            self.speaker_notes(item, depth)
            return
        reason = _LAYER_REASONS.get(item.content_layer, f"docling's {item.content_layer} layer")
        if item.content_layer == ContentLayer.NOTES and self.fmt == "docx":
            reason = "a reviewer's comment (not part of the document's text)"
        elif slide is not None:
            reason = "speaker notes of a hidden slide (PowerPoint does not present it)"
        if isinstance(item, TableItem):
            self.b.add_furniture("\n".join(" | ".join(row) for row in self.grid(item)), reason, ref=item.self_ref)
            self.skip = depth
        elif isinstance(item, TextItem):
            self.b.add_furniture(item.text, reason, ref=item.self_ref)

    def speaker_notes(self, item: Any, depth: int) -> None:
        """A slide's speaker notes are evidence: what the presenter says about the slide (the
        exception a bullet leaves out, the figure behind a chart). docling files them on its notes
        layer; they follow the slide's own text, under its title, with its slide number, one
        element per paragraph of the notes, as their own kind (``speaker_notes``) so that a
        user can tell them from the slide's text."""
        self.close_lists(depth)
        self.flush_title()
        for paragraph in item.text.split("\n"):
            if paragraph.strip():
                self.emit_text("speaker_notes", paragraph.strip(), [], item)

    def footnote(self, item: Any) -> None:
        """A footnote is evidence (often the exception to the claim that cites it), though docling
        files a DOCX's footnotes with the page headers in its furniture layer. One whose citing
        paragraph was found is already placed after it (``cited``); the others follow the body."""
        if item.self_ref not in self.placed:
            self.close_lists(-1)
            self.emit_text("footnote", item.text.strip(), [], item)

    def cited(self, text: str) -> None:
        """The notes the paragraph just emitted cites, right after it, under the same headings."""
        for note in self.anchors.get(key(text), ()):
            waiting = self.notes.get(note)
            if waiting:
                item = waiting.pop(0)
                self.placed.add(item.self_ref)
                self.emit_text("footnote", item.text.strip(), [], item)

    def group(self, item: Any, depth: int) -> None:
        label = _label(item)
        name = getattr(item, "name", "") or ""
        if isinstance(item, InlineGroup):
            self.skip = depth
            if item.self_ref not in self.consumed:
                self.inline(item, depth)
            return
        self.close_lists(depth)
        if label == "chapter" and name.startswith("slide-"):
            self.flush_title()
            # A slide is a section; its title (a TitleItem, which replaces this) names it, else its number.
            self.b.headings.reset([(1, f"Slide {int(name.split('-')[1]) + 1}")])
            self.section_base = 0
        elif label == "sheet":
            self.flush_title()
            self.b.headings.reset()
            self.b.heading(1, name, **self.fields(item, TextData(sheet=name)))
            self.section_base = 1
        elif label in ("list", "ordered_list"):
            self.flush_title()
            self.open_list(label == "ordered_list", depth)

    def open_list(self, ordered: bool, depth: int) -> None:
        last = self.b.last()
        lead_in = last.id if last is not None and last.kind == "paragraph" and not self.lists else None
        parent = None
        if self.lists:
            # A nested list belongs to the item above it (its first line is the nested items' context).
            outer = self.lists[-1][1]
            items = [e for e in self.b.elements if e.kind == "list_item" and e.parent == outer.id]
            parent = items[-1].id if items else outer.id
        el = self.b.open("list", level=len(self.lists) + 1, parent=parent, data=list_data(ordered, lead_in))
        self.lists.append((depth, el))

    def close_lists(self, depth: int) -> None:
        while self.lists and self.lists[-1][0] >= depth:
            _, el = self.lists.pop()
            self.b.close(el)

    def inline(self, group: Any, depth: int) -> None:
        """An inline group: one paragraph (a list item inside a list)."""
        self.close_lists(depth)
        self.flush_title()
        pieces = pieces_of(self.ddoc, group)
        if not pieces:
            return
        text, spans = joined(pieces, self.gaps.get(tuple(p.text for p in pieces)))
        kind = "list_item" if self.lists and self.lists[-1][0] == depth - 1 else "paragraph"
        self.emit_text(kind, text, spans, group)

    def text(self, item: Any, depth: int) -> None:
        self.close_lists(depth)
        self.flush_title()
        label = _label(item)
        text, spans = item.text.strip(), list[dict[str, Any]]()
        if isinstance(item, ListItem) and not text and item.children:
            first = item.children[0].resolve(self.ddoc)
            if isinstance(first, InlineGroup):  # a list item whose text docling split by formatting
                self.consumed.add(first.self_ref)
                pieces = pieces_of(self.ddoc, first)
                text, spans = joined(pieces, self.gaps.get(tuple(p.text for p in pieces)))
        elif text:
            _, spans = joined(pieces_of(self.ddoc, item), None)
        if not text:
            return
        box = _CHECKBOXES.get(label)
        if box is not None:  # a task list's state is what the item says: "[x] Design"
            text, spans = box + text, [{**s, "start": s["start"] + len(box), "end": s["end"] + len(box)} for s in spans]
        kind = _LABEL_KINDS.get(label, "paragraph")
        reason = suspect_heading(text) if kind == "heading" else None
        if reason is not None:
            self.b.warnings.append(ParseWarning("suspect_heading", f"not a heading, read as a paragraph: {reason}"))
            kind = "paragraph"
        if kind == "heading":
            if label == "section_header":
                level = self.section_base + self.below_title + int(getattr(item, "level", 1))
            else:
                level = self.section_base + 1
                self.below_title = 1 if self.fmt in ("html", "docling") else 0
            self.b.heading(level, text, **self.fields(item))
        elif kind == "furniture":
            self.b.add_furniture(text, label.replace("_", " "), ref=item.self_ref)
        elif kind == "list_item" or isinstance(item, ListItem):
            self.emit_text("list_item", text, spans, item)
            self.cited(text)
        elif kind == "code":
            self.emit_text("code", text, [], item, code_data(getattr(item, "code_language", None)))
        else:
            self.emit_text(kind, text, spans, item)
            self.cited(text)

    def emit_text(self, kind: str, text: str, spans: list[dict[str, Any]], item: Any, data: Data | None = None) -> None:
        fields = self.fields(item, data if data is not None else data_class(kind)())
        if kind == "list_item":
            fields["level"] = len(self.lists) or 1
        el = self.b.emit(kind, text, **fields)
        el.data.inline = shifted(spans, el.start)

    # -- tables and charts ------------------------------------------------------------------
    def grid(self, item: Any) -> list[list[str]]:
        rows: list[list[str]] = []
        for row in item.data.grid:
            cells = []
            for cell in row:
                text = cell.text.strip()
                if isinstance(cell, RichTableCell):
                    group = cell.ref.resolve(self.ddoc)
                    if _holds_table(self.ddoc, group):
                        text = _cell_text(self.ddoc, group)
                    elif not text:
                        text = joined(pieces_of(self.ddoc, group), None)[0]
                cells.append(text)
            rows.append(cells)
        return rows

    def table(self, item: Any, depth: int) -> None:
        self.skip = depth  # the cells' own items are read through the grid
        self.close_lists(depth)
        grid = self.grid(item)
        cells = xlsx_cells(item) if self.fmt == "xlsx" else None
        if cells is not None and is_title_row(grid):
            self.flush_title()
            self.pending = title_row(grid, item, cells)
            return
        title = self.take_title(cells)
        title_el = None
        if title is not None:
            title_el = self.b.emit("caption", title.text, data=TextData(ref=title.ref, title_row=True))
        extra: dict[str, Any] = {"caption": title.text if title else None}
        if cells is not None:
            extra["cells"] = cells.label
            extra["sheet"] = self.b.headings.open[0][1] if self.b.headings.open else None
        self.emit_table(item, grid, header_rows(item.data, len(grid)), title_el, **extra)
        if self.anchors:  # a DOCX's notes cited from cells follow the table (by a row, they would cut it)
            for cell in dict.fromkeys(text for row in grid for text in row):
                self.cited(cell)

    def emit_table(self, item: Any, grid: list[list[str]], headers: int, title: Element | None, **extra: Any) -> None:
        last = self.b.last()
        lead_in = title or (last if last is not None and last.kind in ("paragraph", "caption") else None)
        page = self.fields(item).get("page")
        self.b.table(grid, headers, lead_in.id if lead_in else None, page=page, ref=item.self_ref, **extra)

    def picture(self, item: Any, depth: int) -> None:
        """A chart's data (what docling reads from the chart's own cache) is a table; an image's
        alt text, and the words OCR read in it when asked, are ``image_text`` at its place."""
        self.close_lists(depth)
        self.flush_title()
        chart = chart_grid(item)
        if chart is not None:
            grid, headers, kind = chart
            self.emit_table(item, grid, headers, None, chart=kind)
        for words in self.images.get(item.self_ref, ()):
            data = ImageData(source=words.source, image=words.image or None, ocr_confidence=words.confidence)
            self.emit_text("image_text", words.text, [], item, data)

    # -- XLSX one-cell rows -----------------------------------------------------------------
    def take_title(self, cells: Any) -> Title | None:
        """The pending one-cell row, when the table at ``cells`` starts right below it."""
        title, self.pending = self.pending, None
        if title is None:
            return None
        if cells is not None and 0 <= cells.top - title.bottom <= 1:
            return title
        self.pending = title
        self.flush_title()
        return None

    def flush_title(self) -> None:
        """A one-cell row no table follows is a paragraph of its sheet (a note, a warning)."""
        title, self.pending = self.pending, None
        if title is not None:
            self.b.emit("paragraph", title.text, data=TextData(ref=title.ref, cells=title.cells))


def _notes_slide(ddoc: Any, item: Any) -> ContentLayer | None:
    """For a slide's speaker notes (text on docling's notes layer whose parent is a slide), the
    layer of that slide: the body when it is shown, another when hidden. None for anything else
    (comments sit in groups of their own)."""
    if item.content_layer != ContentLayer.NOTES or not isinstance(item, TextItem) or not item.text.strip():
        return None
    parent = item.parent.resolve(ddoc) if item.parent is not None else None
    if isinstance(parent, GroupItem) and str(getattr(parent, "name", "")).startswith("slide-"):
        return ContentLayer(parent.content_layer)
    return None


def _label(item: Any) -> str:
    """docling's label of an item as a plain name ("section_header", "footnote")."""
    return str(getattr(item, "label", "")).rsplit(".", 1)[-1].lower()


_MAX_NESTING = 8  # tables inside tables' cells read as text, this deep (deeper ones are skipped)


def _holds_table(ddoc: Any, group: Any) -> bool:
    return any(isinstance(item, TableItem) for item, _ in ddoc.iterate_items(root=group, with_groups=False))


def _cell_text(ddoc: Any, group: Any, depth: int = 0) -> str:
    """A rich cell's text with the tables inside it: their cells run together in reading order
    ("A B C Cell 1 Cell 2 Cell 3"), as docling's export reads them; the outer row stays a row."""
    parts: list[str] = []
    for ref in getattr(group, "children", ()):
        item = ref.resolve(ddoc)
        if isinstance(item, TableItem):
            if depth < _MAX_NESTING:
                parts.extend(_grid_text(ddoc, item, depth + 1))
        elif isinstance(item, TextItem):
            parts.append(item.text.strip())
        elif isinstance(item, GroupItem) and depth < _MAX_NESTING:
            parts.append(_cell_text(ddoc, item, depth + 1))
    return " ".join(" ".join(parts).split())


def _grid_text(ddoc: Any, table: Any, depth: int) -> list[str]:
    out: list[str] = []
    for row in table.data.grid:
        seen: set[int] = set()
        for cell in row:
            if id(cell) in seen:
                continue  # a merged cell, once
            seen.add(id(cell))
            if isinstance(cell, RichTableCell):
                out.append(_cell_text(ddoc, cell.ref.resolve(ddoc), depth))
            elif cell.text.strip():
                out.append(cell.text.strip())
    return out
