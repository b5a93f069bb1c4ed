"""Element kinds and the typed data each kind carries: the parser → chunker contract."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

# Elements whose span encloses other elements. Chunkers pack the leaves; containers
# only carry structure (a list's lead-in, a table's header).
CONTAINER_KINDS = frozenset({"list", "table", "blockquote", "cell"})
# Elements no chunk reaches beyond: a notebook's cell (its source) and each of its outputs. What
# lies between two of them in Document.text (the notebook's JSON) is no text of either.
BLOCK_KINDS = frozenset({"cell", "output"})
# Kinds that are never chunk text: metadata and page furniture.
NON_BODY_KINDS = frozenset({"front_matter", "furniture"})


# -- the parser → chunker contract: what each kind of element carries, typed ---------------


@dataclass(slots=True)
class Data:
    """What any element may carry beyond its span. Each kind has its own subclass (KIND_DATA);
    a chunker or gate reads them through ``isinstance``, never through string keys."""

    ref: str | None = None  # the item's own reference in the source (docling's self_ref)
    # Inline formatting: {"start", "end", "style"} with offsets into Document.text; links add "href".
    inline: list[dict[str, Any]] = field(default_factory=list)
    ocr_confidence: float | None = None  # read by OCR: the mean confidence of its words (0-1)

    # Fields always written to JSON, even at their default (a row's ``header: false`` says something).
    ALWAYS: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.ALWAYS or value not in (None, False, [], ""):
                out[f.name] = value
        return out


@dataclass(slots=True)
class TextData(Data):
    """Paragraphs, headings, captions, footnotes, figure text, rules, HTML blocks."""

    recovered: bool = False  # Markdown: text no block rule claimed
    sheet: str | None = None  # XLSX: the worksheet a heading names
    cells: str | None = None  # XLSX: the cell range a note or title sits in ("A16")
    title_row: bool = False  # XLSX: a one-cell row that titles the table below it
    heading_confidence: float | None = None  # PDF: how sure a heading is to start a section (0-1)


@dataclass(slots=True)
class ListData(Data):
    ordered: bool = False
    lead_in: str | None = None  # id of the paragraph that introduces the list


@dataclass(slots=True)
class ItemData(Data):
    marker: str | None = None  # "-", "1."
    term: str | None = None  # a definition list's term, when the item is the term with its description


@dataclass(slots=True)
class TableData(Data):
    header: list[str] = field(default_factory=list)  # header cells
    rows: int = 0  # body rows
    header_text: str | None = None  # the header line(s) every later row group carries as context
    lead_in: str | None = None  # id of the sentence or caption that introduces the table
    caption: str | None = None
    flat: bool = False  # rows found in text that lost its table markup
    pages: list[int] = field(default_factory=list)  # PDF: the pages a table runs over
    sheet: str | None = None  # XLSX
    cells: str | None = None  # XLSX: its cell range ("A1:C12")
    chart: str | None = None  # a chart's data, with the chart's type

    ALWAYS: ClassVar[tuple[str, ...]] = ("header", "rows", "header_text")


@dataclass(slots=True)
class RowData(Data):
    cells: list[str] = field(default_factory=list)
    header: bool = False

    ALWAYS: ClassVar[tuple[str, ...]] = ("cells", "header")


@dataclass(slots=True)
class CodeData(Data):
    """Code blocks, and the definitions the code parser finds (function, class, method)."""

    language: str | None = None
    info: str | None = None  # a Markdown fence's info string
    symbol: str | None = None  # the qualified name of a definition ("Session.request")
    signature: str | None = None  # a definition up to its body
    context: list[str] = field(default_factory=list)  # imports and constants it uses, headers around it
    # Per line of ``context``: the names an import or a constant binds (none for a header), so that a
    # piece of the definition can carry the lines it uses itself.
    context_names: list[list[str]] = field(default_factory=list)
    parts: list[list[int]] = field(default_factory=list)  # spans of its body's parts, where it may be split
    part: bool = False  # a nested definition: a unit of its own only when its parent is split
    lead_in: str | None = None  # id of the list item that introduces a code block in it

    ALWAYS: ClassVar[tuple[str, ...]] = ("language",)


@dataclass(slots=True)
class TurnData(Data):
    speaker: str = ""

    ALWAYS: ClassVar[tuple[str, ...]] = ("speaker",)


@dataclass(slots=True)
class OutputData(Data):
    """A notebook cell's output kept as text (its ``ref``: ``cells[3].outputs[0]``)."""

    output: str | None = None  # its output type: stream, execute_result, display_data, error
    name: str | None = None  # stdout or stderr; the mime type; ename or evalue
    source: str | None = None  # the last line of the cell's code that made it: what a chunk of it is the output of


@dataclass(slots=True)
class ImageData(Data):
    """An image's words at its place in reading order (kind ``image_text``): the alt text its
    writer gave it, or the text OCR read in it (then with ``ocr_confidence``)."""

    source: str | None = None  # "alt" (the writer's alt text) or "ocr" (read in the image's pixels)
    image: str | None = None  # its image format as its bytes say ("PNG", "JPEG"…)


@dataclass(slots=True)
class FurnitureData(Data):
    reason: str | None = None  # why it is not body text: "running header", "navigation", …
    html: str | None = None  # HTML: the markup it was


# Which Data each kind carries; any other kind carries TextData.
KIND_DATA: dict[str, type[Data]] = {
    "list": ListData,
    "list_item": ItemData,
    "table": TableData,
    "table_row": RowData,
    "code": CodeData,
    "function": CodeData,
    "class": CodeData,
    "method": CodeData,
    "turn": TurnData,
    "furniture": FurnitureData,
    "output": OutputData,
    "image_text": ImageData,
}


def data_class(kind: str) -> type[Data]:
    return KIND_DATA.get(kind, TextData)
