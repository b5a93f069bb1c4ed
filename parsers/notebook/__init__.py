"""Jupyter notebooks (``.ipynb``, nbformat 4) → Document.

``Document.text`` is the notebook file itself, decoded: its JSON. Every element's span lies
inside the JSON strings of one cell's ``source`` (or one output's text), so the text of an
element, and of a chunk, is the source *as the file writes it*: JSON-escaped (``\\n`` for a line
break, ``\\"``, ``\\u00e9``) and, where it runs over several strings of a source list, with the
``",`` and indentation between them. ``spans.decoded`` turns such a slice back into what the
cell says; offsets and line numbers point into the user's own file.

- a cell's source is a ``cell`` container: a chunk never runs from one cell (or output) into
  another, so no chunk holds the JSON between them;
- markdown cells are read by the Markdown parser, one cell at a time; their headings name the
  sections of everything below them, later cells included (a ``# Title`` cell titles the notebook);
- code cells are read by the code parser in the notebook's language (``kernelspec.language``,
  else ``language_info.name``; Python when it names none) when the ``code`` extra is installed,
  else each cell is one code block;
- outputs that are text (a stream's text, a result's ``text/plain``, an error's name and value)
  are ``output`` elements after their cell; images and other representations, and tracebacks,
  are skipped and counted (metadata ``skipped``: by mime type, ``traceback``, and cells of a type
  a later nbformat 4 minor version adds, which nbformat itself passes over too);
- what lies between the kept spans (the JSON's keys and punctuation, metadata, skipped outputs)
  is declared ``furniture``, so the gate lists it as left out and why.
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from typing import Any

from parsegate.parsers.build.headings import HeadingStack
from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.formats import spec
from parsegate.parsers.model import (
    CodeData,
    Document,
    Element,
    FurnitureData,
    ListData,
    OutputData,
    ParseWarning,
    TableData,
    content_version,
    trim_span,
)
from parsegate.parsers.notebook.read import Cell, Notebook, read_notebook
from parsegate.parsers.notebook.spans import Block
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.versions import light_version

NAME = "notebook"
SPEC = spec(NAME)
OUTPUT_VERSION = SPEC.output_version
SUFFIXES = SPEC.suffixes
# Part of every chunk_set: the cells' elements are the Markdown and code parsers' (parsers/versions.py).
VERSION = light_version(NAME) or str(OUTPUT_VERSION)
DEFAULT_LANGUAGE = "python"
FURNITURE = "notebook JSON: keys, metadata, and outputs not kept as text"
BETWEEN_BLOCKS = "line breaks between two blocks of a cell (JSON escapes and string separators)"


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``suffix`` changes nothing: one form."""
    text, encoding_note = decode_noted(data)
    notebook = read_notebook(text)
    builder = _Builder(text, doc_id, options, notebook)
    for cell in notebook.cells:
        builder.cell(cell)
    doc = Document(
        doc_id=doc_id,
        version=content_version(data),
        format=NAME,
        text=text,
        elements=builder.finished(),
        metadata=builder.metadata(),
        parser=f"{NAME} {VERSION}",
        warnings=builder.warnings,
    )
    for el in doc.elements:
        el.lines = doc.lines_of(el.start, el.end)
    if not any(el.kind not in ("furniture", "cell") for el in doc.elements):
        doc.warnings.append(ParseWarning("empty", "the notebook has no text in its cells"))
    if encoding_note is not None:
        doc.warnings.insert(0, encoding_note)
    return doc


def _last_line(code: str) -> str | None:
    """The last line of a cell's code that is not blank or a comment (a result is its value)."""
    lines = [line.strip() for line in code.splitlines()]
    return next((line for line in reversed(lines) if line and not line.startswith("#")), None)


def _located(warning: ParseWarning, where: str) -> ParseWarning:
    """A cell parser's warning, located in the notebook ("cells[3] line 2": the cell's own line)."""
    return ParseWarning(warning.code, warning.message, f"{where} {warning.location}" if warning.location else where)


@lru_cache(maxsize=1)
def _code_parser() -> Any:
    """The code parser when the code extra (tree-sitter) is installed, else None."""
    try:
        from parsegate.parsers import code
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in ("tree_sitter", "tree_sitter_language_pack"):
            return None
        raise
    return code


class _Builder:
    def __init__(self, text: str, doc_id: str, options: ParseOptions, notebook: Notebook) -> None:
        self.text = text
        self.doc_id = doc_id
        self.options = options
        self.notebook = notebook
        self.language = notebook.language or DEFAULT_LANGUAGE
        self.elements: list[Element] = []
        self.headings = HeadingStack()
        self.top_headings: list[str] = []
        self.warnings: list[ParseWarning] = []

    def metadata(self) -> dict[str, Any]:
        nb = self.notebook
        out: dict[str, Any] = {"language": self.language, "nbformat": nb.nbformat, "cells": len(nb.cells)}
        if len(self.top_headings) == 1:  # several level-1 headings: the first titles a part only
            out["title"] = self.top_headings[0]
        if nb.kernel:
            out["kernel"] = nb.kernel
        if nb.skipped:
            out["skipped"] = dict(sorted(nb.skipped.items()))
        return out

    def _add(self, el: Element) -> Element:
        el.id = f"e{len(self.elements)}"
        self.elements.append(el)
        return el

    def cell(self, cell: Cell) -> None:
        block = cell.source
        if block is not None and block.text.strip():
            where = f"cells[{cell.index}]"
            container = self._add(Element("", "cell", *self._trimmed(block), section_path=self.headings.path()))
            container.data.ref = where
            if cell.cell_type == "markdown":
                parts = self._markdown(block, where)
            elif cell.cell_type == "code":
                parts = self._code(block, where)
            else:  # raw: text for nbconvert, kept as it is
                parts = [Element("", "paragraph", *trim_span(block.text, 0, len(block.text)))]
            self._place(block, parts, container)
        made_by = _last_line(block.text) if block is not None else None
        for output in cell.outputs:
            start, end = self._trimmed(output.block)
            if end > start:
                data = OutputData(ref=output.ref, output=output.kind, name=output.name, source=made_by)
                self._add(Element("", "output", start, end, section_path=self.headings.path(), data=data))

    def _trimmed(self, block: Block) -> tuple[int, int]:
        return block.raw_span(*trim_span(block.text, 0, len(block.text)))

    def _place(self, block: Block, parts: list[Element], container: Element) -> None:
        """The elements of a cell (offsets into its decoded text), placed in the notebook's text:
        ids renumbered, parents and lead-ins remapped, sections from the headings so far."""
        ids: dict[str, str] = {}
        for part in parts:
            old = part.id
            el = self._add(part)
            ids[old] = el.id
            el.parent = ids.get(el.parent, container.id) if el.parent else container.id
            data = el.data
            if isinstance(data, (ListData, TableData, CodeData)) and data.lead_in is not None:
                data.lead_in = ids.get(data.lead_in)
            if isinstance(data, CodeData) and data.parts:
                data.parts = [list(block.raw_span(s, e)) for s, e in data.parts]
            for mark in data.inline:
                mark["start"], mark["end"] = block.raw_span(mark["start"], mark["end"])
            if el.kind == "heading" and el.level:
                title = el.section_path[-1] if el.section_path else block.text[el.start : el.end]
                self.headings.push(el.level, title)
                if el.level == 1:
                    self.top_headings.append(title)
            el.section_path = self.headings.path()
            el.start, el.end = block.raw_span(el.start, el.end)
            el.lines = None

    def _markdown(self, block: Block, where: str) -> list[Element]:
        from parsegate.parsers import markdown

        md = markdown.parse(block.text.encode("utf-8"), f"{self.doc_id}#{where}", self.options, ".md")
        if md.text != block.text:  # (a byte-order mark at a cell's start: never in practice)
            return [Element("", "paragraph", *trim_span(block.text, 0, len(block.text)))]
        self.warnings.extend(_located(w, where) for w in md.warnings if w.code != "empty")
        return md.elements

    def _code(self, block: Block, where: str) -> list[Element]:
        code = _code_parser()
        language = code.ALIASES.get(self.language) if code is not None else None
        if code is None or language is None:
            start, end = trim_span(block.text, 0, len(block.text))
            return [Element("", "code", start, end, data=CodeData(language=self.language))]
        found: tuple[list[Element], list[ParseWarning]] = code.parse_source(block.text, language)
        self.warnings.extend(_located(w, where) for w in found[1])
        return found[0]

    def finished(self) -> list[Element]:
        """The elements, and the notebook's JSON between the leaves' spans as furniture (after
        them: it is no part of the reading order); between two rows of a table or two items of a
        list too, where a chunk may end."""
        spans = sorted((e.start, e.end) for e in self.elements if not e.is_container)
        cells = sorted((e.start, e.end) for e in self.elements if e.kind == "cell")
        cursor, gaps = 0, []
        for start, end in [*spans, (len(self.text), len(self.text))]:
            if start > cursor and not self.text[cursor:start].isspace():
                gaps.append(trim_span(self.text, cursor, start))
            cursor = max(cursor, end)
        for start, end in gaps:
            at = bisect.bisect_right(cells, (start, len(self.text))) - 1
            inside = at >= 0 and cells[at][0] <= start and end <= cells[at][1]
            reason = BETWEEN_BLOCKS if inside else FURNITURE
            self._add(Element("", "furniture", start, end, data=FurnitureData(reason=reason)))
        return self.elements
