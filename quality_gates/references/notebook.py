"""A Jupyter notebook read on its own (``json.loads``, not the parser's string scanner): the text
of each cell's source and of each output the parser keeps as text (a stream's text, a result's
``text/plain``, an error's name and value), joined as nbformat joins a multiline string. The
recall check compares the words of these texts with the words of the chunks, their JSON escapes
undone (``unescaped``): a cell the parser drops, or reads short, loses its words."""

from __future__ import annotations

import json
import re
from typing import Any

_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}


def _joined(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return ""


def notebook_texts(text: str) -> list[str] | None:
    """The texts of a notebook's cells and text outputs, in order; None when it is no nbformat 4
    notebook (the parser refused it, then)."""
    try:
        notebook = json.loads(text)
    except (ValueError, RecursionError):
        return None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return None
    out: list[str] = []
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        out.append(_joined(cell.get("source")))
        for output in cell.get("outputs") or () if cell.get("cell_type") == "code" else ():
            if not isinstance(output, dict):
                continue
            kind = output.get("output_type")
            if kind == "stream":
                out.append(_joined(output.get("text")))
            elif kind == "error":
                out.extend(_joined(output.get(key)) for key in ("ename", "evalue"))
            elif isinstance(output.get("data"), dict):
                out.append(_joined(output["data"].get("text/plain")))
    return [t for t in out if t.strip()]


def _one(match: re.Match[str]) -> str:
    escape = match.group(1)
    if escape[0] == "u":
        return chr(int(escape[1:], 16))
    return _SIMPLE.get(escape, escape)


def unescaped(slice_: str) -> str:
    """A slice of the notebook's JSON as its readers read it: when it lies inside the strings of
    one list (a chunk inside one cell), those strings decoded and joined (``json.loads``); else its
    string escapes undone (surrogate pairs joined), the quotes and commas left as punctuation."""
    try:
        return "".join(json.loads(f'["{slice_}"]'))
    except (ValueError, RecursionError):
        pass
    text = _ESCAPE.sub(_one, slice_)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


# What stands between two lines of a cell in the file: an escaped line break, and the end of one
# string of a source list and the start of the next.
_LINE_JOIN = re.compile(r'\\[nrt]|"\s*,\s*"')


def blank_line_joins(text: str) -> str:
    """``text`` with its escaped line breaks and string joins turned to spaces (offsets kept): the
    white space a reader sees between two blocks of a cell."""
    return _LINE_JOIN.sub(lambda m: " " * len(m.group(0)), text)


def line_prefix(source: str, start: int) -> str:
    """The text of the cell's line before ``start`` (its indentation, where it is white space):
    from the opening quote of the string ``start`` lies in, or its last escaped line break."""
    line_start = source.rfind("\n", 0, start) + 1
    quote = source.find('"', line_start, start)
    if quote < 0:
        return ""
    prefix = source[quote + 1 : start]
    return unescaped(prefix.rsplit("\\n", 1)[-1])
