"""Office and web formats through docling's format backends: DOCX, PPTX, XLSX, HTML, and
DoclingDocument JSON written by docling elsewhere.

docling's backends are used directly (``InputDocument`` + ``backend.convert()``): importing
``docling.document_converter`` would pull torch; the backends do not. Before a backend sees a
file, the file is checked: legacy binary formats, corrupt or oversized zips (a zip bomb is
refused from its directory, before anything is inflated), XML that declares a DTD or entities
(refused, never expanded), and HTML over a size limit.

The DoclingDocument is then mapped onto our Document: ``Document.text`` is built from the items
in reading order, each element keeping a docling reference, a slide number (page) or a sheet
and cell range as provenance.
"""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import PurePosixPath
from typing import Any

from parsers.headings import suspect_heading
from parsers.model import Document, Element, ParseError, ParseWarning, TextBuilder, content_version

NAME = "office"
VERSION = f"docling/{version('docling-slim')}"
FORMATS = {".docx": "docx", ".docm": "docx", ".pptx": "pptx", ".xlsx": "xlsx", ".xlsm": "xlsx",
           ".html": "html", ".htm": "html", ".xhtml": "html"}  # fmt: skip
LEGACY = {".doc": ".docx", ".ppt": ".pptx", ".xls": ".xlsx", ".rtf": ".docx", ".odt": ".docx"}
SUFFIXES = (*FORMATS, *LEGACY, ".json")
_SEP = "\n\n"


def _limit(name: str, default_mb: int) -> int:
    try:
        return int(float(os.environ.get(name, default_mb)) * 1_000_000)
    except ValueError:
        return default_mb * 1_000_000


def parse(data: bytes, doc_id: str) -> Document:
    suffix = PurePosixPath(doc_id).suffix.lower()
    if suffix in LEGACY:
        raise ParseError(
            "legacy_format",
            f"'{suffix}' is a legacy binary format: convert it to '{LEGACY[suffix]}' first "
            f"(e.g. libreoffice --headless --convert-to {LEGACY[suffix][1:]} FILE)",
        )
    if suffix == ".json":
        return _from_json(data, doc_id)
    fmt = FORMATS[suffix]
    if fmt == "html":
        _check_html(data)
    else:
        _check_zip(data, fmt)
    ddoc = _convert(data, doc_id, fmt)
    doc = to_document(ddoc, doc_id, content_version(data), fmt)
    if fmt == "html":
        _add_boilerplate(doc, data)
    return doc


# -- checks before any backend reads the file ------------------------------------------


def _check_zip(data: bytes, fmt: str) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ParseError(
            "corrupt", f"not a valid .{fmt} file (an OOXML file is a zip archive; this one is not)"
        ) from None
    limit = _limit("PARSEGATE_MAX_INFLATED_MB", 200)
    inflated = sum(info.file_size for info in archive.infolist())
    if inflated > limit:
        raise ParseError(
            "zip_bomb",
            f"would inflate to {inflated / 1e6:.0f} MB, over the {limit / 1e6:.0f} MB limit "
            "(PARSEGATE_MAX_INFLATED_MB); refused before inflating",
        )
    for info in archive.infolist():
        if info.filename.endswith((".xml", ".rels")):
            head = archive.open(info).read(4096)
            if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                raise ParseError(
                    "unsafe_xml",
                    f"{info.filename} declares a DTD or entities (possible XXE); refused, nothing fetched or expanded",
                )


def _check_html(data: bytes) -> None:
    limit = _limit("PARSEGATE_MAX_HTML_MB", 8)
    if len(data) > limit:
        raise ParseError(
            "too_large",
            f"HTML page of {len(data) / 1e6:.1f} MB is over the {limit / 1e6:.0f} MB limit (PARSEGATE_MAX_HTML_MB)",
        )


def _convert(data: bytes, doc_id: str, fmt: str) -> Any:
    from docling.backend.html_backend import HTMLDocumentBackend
    from docling.backend.msexcel_backend import MsExcelDocumentBackend
    from docling.backend.mspowerpoint_backend import MsPowerpointDocumentBackend
    from docling.backend.msword_backend import MsWordDocumentBackend
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.document import InputDocument

    backends: dict[str, tuple[InputFormat, Any]] = {
        "docx": (InputFormat.DOCX, MsWordDocumentBackend),
        "pptx": (InputFormat.PPTX, MsPowerpointDocumentBackend),
        "xlsx": (InputFormat.XLSX, MsExcelDocumentBackend),
        "html": (InputFormat.HTML, HTMLDocumentBackend),
    }
    input_format, backend = backends[fmt]
    name = PurePosixPath(doc_id).name
    try:
        source = InputDocument(path_or_stream=io.BytesIO(data), format=input_format, backend=backend, filename=name)
        if not source.valid:
            raise ParseError("corrupt", f"docling could not open this .{fmt} file")
        backend_instance: Any = source._backend
        return backend_instance.convert()
    except ParseError:
        raise
    except Exception as exc:  # the backends raise whatever their libraries raise
        raise ParseError("corrupt", f"docling could not read this .{fmt} file: {type(exc).__name__}: {exc}") from None


def _from_json(data: bytes, doc_id: str) -> Document:
    from docling_core.types.doc.document import DoclingDocument

    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise ParseError("invalid_json", "not valid JSON") from None
    if not isinstance(raw, dict) or raw.get("schema_name") != "DoclingDocument":
        raise ParseError("unsupported", "a JSON file that is not a DoclingDocument (no schema_name 'DoclingDocument')")
    try:
        ddoc = DoclingDocument.model_validate(raw)
    except Exception as exc:
        raise ParseError("invalid_docling", f"not a valid DoclingDocument: {str(exc)[:300]}") from None
    return to_document(ddoc, doc_id, content_version(data), "docling")


# -- DoclingDocument → Document -------------------------------------------------------


_LABEL_KINDS = {
    "title": "heading", "section_header": "heading", "paragraph": "paragraph", "text": "paragraph",
    "list_item": "list_item", "caption": "caption", "footnote": "footnote", "code": "code",
    "formula": "paragraph", "reference": "paragraph", "page_header": "furniture", "page_footer": "furniture",
    "checkbox_selected": "list_item", "checkbox_unselected": "list_item",
}  # fmt: skip


@dataclass
class _Builder(TextBuilder):
    doc_id: str = ""
    fmt: str = ""
    elements: list[Element] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    open_lists: list[tuple[int, Element]] = field(default_factory=list)  # (depth, list element)
    section_base: int = 0  # heading level of the current slide or sheet section
    below_title: int = 0  # 1 once a document title (h1 in HTML) is seen: section headers sit under it
    warnings: list[ParseWarning] = field(default_factory=list)

    def add_text(self, text: str) -> tuple[int, int]:
        return self.add(text, _SEP)

    def section(self) -> tuple[str, ...]:
        return tuple(title for _, title in self.headings)

    def emit(self, kind: str, text: str, item: Any = None, **fields: Any) -> Element:
        start, end = self.add_text(text)
        el = Element(f"e{len(self.elements)}", kind, start, end, section_path=self.section(), **fields)
        if item is not None:
            el.data.setdefault("ref", item.self_ref)
            prov = getattr(item, "prov", None) or []
            if prov and self.fmt in ("pptx", "docling"):
                el.page = prov[0].page_no
                bbox = prov[0].bbox
                if self.fmt == "docling" and bbox is not None:
                    el.bbox = (bbox.l, bbox.t, bbox.r, bbox.b)
        self.elements.append(el)
        return el

    def heading(self, level: int, title: str, item: Any = None, **data: Any) -> Element:
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, title))
        return self.emit("heading", title, item, level=level, data=data)


def to_document(ddoc: Any, doc_id: str, version_: str, fmt: str) -> Document:
    from docling_core.types.doc.document import GroupItem, ListItem, TableItem, TextItem  # type: ignore[attr-defined]

    b = _Builder(doc_id=doc_id, fmt=fmt)
    pending_title: str | None = None  # an xlsx title row, waiting for the table below it
    for item, depth in ddoc.iterate_items(with_groups=True):
        label = str(getattr(item, "label", "")).split(".")[-1].lower()
        if isinstance(item, GroupItem):
            _group(b, item, label, depth)
            continue
        _close_lists(b, depth)
        if isinstance(item, TableItem):
            grid = [[cell.text.strip() for cell in row] for row in item.data.grid]
            if fmt == "xlsx" and _is_title_row(grid):
                pending_title = next(text for text in grid[0] if text)
                continue
            _table(b, item, grid, pending_title)
            pending_title = None
            continue
        if not isinstance(item, TextItem):
            continue  # pictures and other items without text
        text = item.text.strip()
        if not text:
            continue
        kind = _LABEL_KINDS.get(label, "paragraph")
        reason = suspect_heading(text) if kind == "heading" else None
        if reason is not None:
            b.warnings.append(ParseWarning("suspect_heading", f"not a heading, read as a paragraph: {reason}"))
            kind = "paragraph"
        if kind == "heading":
            if label == "section_header":
                b.heading(b.section_base + b.below_title + int(getattr(item, "level", 1)), text, item)
            else:
                b.heading(b.section_base + 1, text, item)
                b.below_title = 1 if fmt in ("html", "docling") else 0
        elif kind == "list_item" or isinstance(item, ListItem):
            parent = b.open_lists[-1][1] if b.open_lists else None
            b.emit("list_item", text, item, level=len(b.open_lists) or 1, parent=parent.id if parent else None)
        else:
            b.emit(kind, text, item, data={"language": getattr(item, "code_language", None)} if kind == "code" else {})
    _close_lists(b, -1)
    text = b.text()
    doc = Document(
        doc_id=doc_id,
        version=version_,
        format=fmt,
        text=text,
        elements=_ordered(b.elements),
        metadata=_metadata(ddoc, b),
        parser=f"{NAME} {VERSION}",
    )
    doc.warnings.extend(b.warnings)
    if not text.strip():
        doc.warnings.append(ParseWarning("empty", "the document has no text"))
    return doc


def _group(b: _Builder, item: Any, label: str, depth: int) -> None:
    name = getattr(item, "name", "") or ""
    _close_lists(b, depth)
    if label == "chapter" and name.startswith("slide-"):
        # A slide is a section; its title (a TitleItem, which replaces this) names it, else its number.
        b.headings = [(1, f"Slide {int(name.split('-')[1]) + 1}")]
        b.section_base = 0
    elif label == "sheet":
        b.headings.clear()
        b.heading(1, name, item, sheet=name)
        b.section_base = 1
    elif label in ("list", "ordered_list"):
        lead_in = b.elements[-1].id if b.elements and b.elements[-1].kind == "paragraph" else None
        parent = b.open_lists[-1][1] if b.open_lists else None
        data: dict[str, Any] = {"ordered": label == "ordered_list"}
        if lead_in and not b.open_lists:
            data["lead_in"] = lead_in
        start = b.next_start(_SEP)
        el = Element(f"e{len(b.elements)}", "list", start, start, section_path=b.section(),
                     level=len(b.open_lists) + 1, parent=parent.id if parent else None, data=data)  # fmt: skip
        b.elements.append(el)
        b.open_lists.append((depth, el))


def _close_lists(b: _Builder, depth: int) -> None:
    while b.open_lists and b.open_lists[-1][0] >= depth:
        _, el = b.open_lists.pop()
        el.end = max(el.start, b.size)


def _is_title_row(grid: list[list[str]]) -> bool:
    return len(grid) == 1 and sum(1 for text in grid[0] if text) == 1


def _row_text(cells: list[str]) -> str:
    return "| " + " | ".join(cell.replace("\n", " ") for cell in cells) + " |"


def _table(b: _Builder, item: Any, grid: list[list[str]], title: str | None) -> None:
    if not grid:
        return
    if title:
        caption = b.emit("caption", title, None, data={"title_row": True})
    header_rows = _header_rows(item, len(grid))
    rows = [_row_text(cells) for cells in grid]
    start = b.next_start(_SEP)
    data: dict[str, Any] = {
        "ref": item.self_ref,
        "header": grid[0] if header_rows else [],
        "rows": len(grid) - header_rows,
        "header_text": "\n".join(rows[:header_rows]) if header_rows else None,
    }
    if title:
        data["caption"] = title
        data["lead_in"] = caption.id
    elif len(b.elements) and b.elements[-1].kind in ("paragraph", "caption"):
        data["lead_in"] = b.elements[-1].id  # the sentence that introduces the table
    prov = getattr(item, "prov", None) or []
    if b.fmt == "xlsx" and prov and prov[0].bbox is not None:
        box = prov[0].bbox
        data["cells"] = f"{_column(int(box.l))}{int(box.t) + 1}:{_column(int(box.r) - 1)}{int(box.b)}"
        data["sheet"] = b.headings[0][1] if b.headings else None
    table = Element(f"e{len(b.elements)}", "table", start, start, section_path=b.section(), data=data)
    if prov and b.fmt in ("pptx", "docling"):
        table.page = prov[0].page_no
    b.elements.append(table)
    first = True
    if header_rows:
        header = "\n".join(rows[:header_rows])
        h_start, h_end = b.add_text(header)
        b.elements.append(
            Element(
                f"e{len(b.elements)}",
                "table_row",
                h_start,
                h_end,
                section_path=b.section(),
                parent=table.id,
                data={"cells": grid[0], "header": True},
            )
        )
        first = False
    for cells, row in zip(grid[header_rows:], rows[header_rows:], strict=True):
        # Table rows sit one per line, not a paragraph each.
        r_start, r_end = b.add_text(row) if first else b.add(row, "\n")
        first = False
        b.elements.append(
            Element(
                f"e{len(b.elements)}",
                "table_row",
                r_start,
                r_end,
                section_path=b.section(),
                parent=table.id,
                data={"cells": cells, "header": False},
            )
        )
    table.end = b.size
    for el in b.elements:
        if el.parent == table.id and table.page is not None:
            el.page = table.page


def _header_rows(item: Any, total: int) -> int:
    """Rows at the top whose cells docling flags as column headers (detected, not assumed)."""
    flagged = {cell.start_row_offset_idx for cell in item.data.table_cells if cell.column_header}
    n = 0
    while n in flagged and n < total:
        n += 1
    return n


def _column(index: int) -> str:
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def _ordered(elements: list[Element]) -> list[Element]:
    ordered = sorted(elements, key=lambda e: (e.start, -e.end, e.kind not in ("list", "table")))
    ids = {e.id: f"e{n}" for n, e in enumerate(ordered)}
    for e in ordered:
        e.id = ids[e.id]
        e.parent = ids.get(e.parent) if e.parent else None
        if "lead_in" in e.data:
            e.data["lead_in"] = ids.get(e.data["lead_in"])
    return ordered


def _metadata(ddoc: Any, b: _Builder) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    name = getattr(ddoc, "name", None)
    if name:
        meta["docling_name"] = name
    title = next((el for el in b.elements if el.kind == "heading" and el.level == 1), None)
    if title is not None and b.fmt != "xlsx":
        meta["title"] = b.text()[title.start : title.end]
    return meta


_BOILERPLATE = re.compile(rb"<(nav|footer|aside)\b[^>]*>(.*?)</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _add_boilerplate(doc: Document, data: bytes) -> None:
    """docling leaves a page's nav, footer and aside out; keep their text as furniture at the
    end of Document.text, so it is in the parse output but never in chunks."""
    for match in _BOILERPLATE.finditer(data):
        words = " ".join(_TAG.sub(" ", match.group(2).decode("utf-8", errors="replace")).split())
        if not words:
            continue
        start = len(doc.text) + (len(_SEP) if doc.text else 0)
        doc.text = (doc.text + _SEP if doc.text else "") + words
        doc.elements.append(
            Element(f"e{len(doc.elements)}", "furniture", start, len(doc.text), data={"html": match.group(1).decode()})
        )
