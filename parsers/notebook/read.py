"""An nbformat 4 notebook read into its parts: cells (type, source block) and each code cell's
outputs that are text, with what is left out counted. Anything else is a ``ParseError`` that
says what is wrong and where (``cells[3].source``), never a traceback."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from parsegate.parsers.model import ParseError
from parsegate.parsers.notebook.spans import Block, NotJson, Str, load

# Outputs kept as text, by output type: the keys holding their text.
_TEXT_MIME = "text/plain"
CELL_TYPES = ("markdown", "code", "raw")


@dataclass
class Output:
    kind: str  # "stream" | "execute_result" | "display_data" | "error"
    block: Block
    name: str  # stdout | stderr | the mime type | ename | evalue
    ref: str  # where in the notebook: "cells[3].outputs[0]"


@dataclass
class Cell:
    index: int
    cell_type: str
    source: Block | None  # None: an empty cell
    outputs: list[Output] = field(default_factory=list)


@dataclass
class Notebook:
    cells: list[Cell]
    language: str | None
    nbformat: str
    kernel: str | None
    # Not kept as text: outputs by mime type, "traceback", a cell of a type nbformat 4.4 does not know
    skipped: Counter[str] = field(default_factory=Counter)


def _plain(node: Any) -> Any:
    """A positioned value as plain Python (for metadata)."""
    if isinstance(node, Str):
        return node.value
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _block(text: str, node: Any, where: str) -> Block | None:
    """A multiline string field (a string, or a list of strings); None when it is empty."""
    if isinstance(node, Str):
        pieces = [node]
    elif isinstance(node, list) and all(isinstance(p, Str) for p in node):
        pieces = node
    else:
        raise ParseError("malformed_notebook", f"{where} is neither a string nor a list of strings")
    pieces = [p for p in pieces if p.value]  # (empty strings hold no character)
    return Block(text, pieces) if pieces else None


def read_notebook(text: str) -> Notebook:
    try:
        tree = load(text)
    except NotJson as exc:
        raise ParseError("malformed_notebook", f"not a notebook: {exc}") from None
    if not isinstance(tree, dict):
        raise ParseError("malformed_notebook", "not a notebook: the JSON is not an object")
    major = tree.get("nbformat")
    if major != 4 or isinstance(major, bool):
        if "worksheets" in tree or major in (1, 2, 3):
            why = f"nbformat {_plain(major)} (convert it: jupyter nbconvert --to notebook)"
        else:
            why = "no nbformat 4 version (the 'nbformat' field)"
        raise ParseError("notebook_version", f"not read: {why}")
    cells = tree.get("cells")
    if not isinstance(cells, list):
        raise ParseError("malformed_notebook", "nbformat 4 notebook without a 'cells' list")
    metadata = _plain(tree.get("metadata"))
    metadata = metadata if isinstance(metadata, dict) else {}
    notebook = Notebook([], _language(metadata), f"4.{_plain(tree.get('nbformat_minor', 0))}", _kernel(metadata))
    for n, node in enumerate(cells):
        notebook.cells.append(_cell(text, n, node, notebook.skipped))
    return notebook


def _language(metadata: dict[str, Any]) -> str | None:
    for holder, key in (("kernelspec", "language"), ("language_info", "name")):
        value = metadata.get(holder)
        if isinstance(value, dict) and isinstance(value.get(key), str) and value[key].strip():
            return str(value[key]).strip().lower()
    return None


def _kernel(metadata: dict[str, Any]) -> str | None:
    spec = metadata.get("kernelspec")
    name = spec.get("name") if isinstance(spec, dict) else None
    return name if isinstance(name, str) else None


def _cell(text: str, n: int, node: Any, skipped: Counter[str]) -> Cell:
    where = f"cells[{n}]"
    if not isinstance(node, dict):
        raise ParseError("malformed_notebook", f"{where} is not an object")
    cell_type = node.get("cell_type")
    if not isinstance(cell_type, Str):
        raise ParseError("malformed_notebook", f"{where} has no cell_type")
    if cell_type.value not in CELL_TYPES:  # a later nbformat 4 minor's (nbformat reads them so too)
        skipped[f"cell type {cell_type.value!r}"] += 1
        return Cell(n, cell_type.value, None)
    if "source" not in node:
        raise ParseError("malformed_notebook", f"{where} has no source")
    cell = Cell(n, cell_type.value, _block(text, node["source"], f"{where}.source"))
    outputs = node.get("outputs", []) if cell.cell_type == "code" else []
    if not isinstance(outputs, list):
        raise ParseError("malformed_notebook", f"{where}.outputs is not a list")
    for k, output in enumerate(outputs):
        cell.outputs.extend(_outputs(text, output, f"{where}.outputs[{k}]", skipped))
    return cell


def _outputs(text: str, node: Any, where: str, skipped: Counter[str]) -> list[Output]:
    """The text of one output: a stream's text, a result's text/plain, an error's name and value
    (its traceback, the same with terminal colour codes, is counted as skipped); every other
    representation (images, HTML, JSON…) is counted as skipped."""
    if not isinstance(node, dict) or not isinstance(node.get("output_type"), Str):
        raise ParseError("malformed_notebook", f"{where} is not an output (no output_type)")
    kind = node["output_type"].value
    if kind == "stream":
        block = _block(text, node.get("text", []), f"{where}.text")
        name = node.get("name")
        return [Output(kind, block, name.value if isinstance(name, Str) else "stream", where)] if block else []
    if kind == "error":
        out = []
        for key in ("ename", "evalue"):
            if isinstance(node.get(key), Str) and node[key].value.strip():
                out.append(Output(kind, Block(text, [node[key]]), key, f"{where}.{key}"))
        if node.get("traceback"):
            skipped["traceback"] += 1
        return out
    if kind in ("execute_result", "display_data", "update_display_data"):
        data = node.get("data", {})
        if not isinstance(data, dict):
            raise ParseError("malformed_notebook", f"{where}.data is not an object")
        out = []
        for mime, value in data.items():
            if mime == _TEXT_MIME:
                block = _block(text, value, f"{where}.data.{mime}")
                out.extend([Output(kind, block, mime, where)] if block else [])
            else:
                skipped[mime] += 1
        return out
    skipped[kind] += 1  # an output type nbformat 4 does not define
    return []
