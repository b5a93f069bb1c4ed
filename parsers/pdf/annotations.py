"""Text a page shows that is not in its content stream, so not in PDFium's text layer: the values
of filled form fields (text fields, choices, and check boxes and radio buttons as ``[x]`` or
``[ ]``) and FreeText annotations (a text box typed onto the page). A filled application form
read without them is its blank template.

Each is given as glyphs in its rectangle (as OCR's words are: parsers/pdf/ocr.py), joined to the
page's line beside it on its baseline (``place``), so that the value reads with the label it
fills in: "Name: Ada Lovelace", "[x] Winter berth requested". The glyphs are spread evenly over
the rectangle, one line of it for each line of the value; their style is ``Style("form field")``
at a size the rectangle's height allows (at most 10 pt, so a value is never taken for a
heading). Pop-up notes (sticky notes) are not on the page and are not read.
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any

import pypdfium2.raw as raw

from parsegate.parsers.pdf.layout import Glyph, Style

if TYPE_CHECKING:
    from parsegate.parsers.pdf.read import Frame

_CHOICES = (raw.FPDF_FORMFIELD_TEXTFIELD, raw.FPDF_FORMFIELD_COMBOBOX, raw.FPDF_FORMFIELD_LISTBOX)
_BOXES = (raw.FPDF_FORMFIELD_CHECKBOX, raw.FPDF_FORMFIELD_RADIOBUTTON)
_MAX_SIZE = 10.0  # points
_MIN_SIZE = 4.0
_LEADING = 1.2
_MAX_CHARS = 100_000  # of one value: a field is not a place to hide a book


def place(runs: list[list[Glyph]], extra: list[list[Glyph]]) -> None:
    """Adds each run of ``extra`` (a field's value) to the page's line it fills in: the run on its
    baseline that ends before it starts (the label: "Name: Ada Lovelace") or starts after it ends
    (a box before its text: "[x] Winter berth"); a run of its own where no line is beside it."""
    for value in extra:
        inked = [g for g in value if g.text != " "]
        v_top, v_bottom = min(g.top for g in inked), max(g.bottom for g in inked)
        v_x0, v_x1 = inked[0].x0, inked[-1].x1
        best: tuple[float, list[Glyph], bool] | None = None
        for run in runs:
            seen = [g for g in run if g.text != " "]
            if not seen:
                continue
            top, bottom = min(g.top for g in seen), max(g.bottom for g in seen)
            overlap = min(bottom, v_bottom) - max(top, v_top)
            if overlap < 0.5 * min(bottom - top, v_bottom - v_top):
                continue
            x0, x1 = min(g.x0 for g in seen), max(g.x1 for g in seen)
            if x1 <= v_x0 + 1 and (best is None or v_x0 - x1 < best[0]):
                best = (v_x0 - x1, run, True)
            elif v_x1 <= x0 + 1 and (best is None or x0 - v_x1 < best[0]):
                best = (x0 - v_x1, run, False)
        if best is None:
            runs.append(value)
            continue
        _, run, after = best
        if after:
            space = Glyph(" ", 0, 0, 0, 0, value[0].style, value[0].index)
            run[:] = [*run, space, *value]
            continue
        # Before the line: its glyphs take the line's first indices (the order of the stream, by
        # which a line's fragments are read), the line's own move on past them.
        first = run[0].index
        for n, g in enumerate(value):
            g.index = first + n
        space = Glyph(" ", 0, 0, 0, 0, value[0].style, first + len(value))
        for g in run:
            g.index += len(value) + 1
        run[:] = [*value, space, *run]


def annotation_runs(form: Any, page: Any, frame: Frame, first_index: int) -> list[list[Glyph]]:
    """Runs of glyphs for the page's filled form fields and FreeText annotations (``form``:
    the document's form environment, None when it has none)."""
    runs: list[list[Glyph]] = []
    index = first_index
    rect = raw.FS_RECTF()  # type: ignore[no-untyped-call]
    for k in range(raw.FPDFPage_GetAnnotCount(page)):
        annot = raw.FPDFPage_GetAnnot(page, k)
        if not annot:
            continue
        try:
            text = _text(form, annot)
            if text.strip() and raw.FPDFAnnot_GetRect(annot, ctypes.byref(rect)):
                box = frame.box(rect.left, min(rect.bottom, rect.top), rect.right, max(rect.bottom, rect.top))
                for run in _glyphs(text, box, index):
                    runs.append(run)
                    index += len(run)
        finally:
            raw.FPDFPage_CloseAnnot(annot)
    return runs


def _text(form: Any, annot: Any) -> str:
    subtype = raw.FPDFAnnot_GetSubtype(annot)
    if subtype == raw.FPDF_ANNOT_FREETEXT:
        return _string(lambda buf, n: raw.FPDFAnnot_GetStringValue(annot, b"Contents", buf, n))
    if subtype != raw.FPDF_ANNOT_WIDGET or not form:
        return ""
    kind = raw.FPDFAnnot_GetFormFieldType(form, annot)
    if kind in _BOXES:
        return "[x]" if raw.FPDFAnnot_IsChecked(form, annot) else "[ ]"
    if kind in _CHOICES:
        return _string(lambda buf, n: raw.FPDFAnnot_GetFormFieldValue(form, annot, buf, n))
    return ""  # a push button, a signature


def _string(read: Any) -> str:
    """A PDFium UTF-16LE string out parameter, read in two calls (its length, then it)."""
    length = int(read(None, 0))
    if length <= 2:
        return ""
    length = min(length, 2 * _MAX_CHARS + 2)
    buffer = (ctypes.c_ushort * (length // 2))()
    read(buffer, length)
    return bytes(buffer).decode("utf-16-le", errors="replace").split("\x00", 1)[0]


def _glyphs(text: str, box: tuple[float, float, float, float], index: int) -> list[list[Glyph]]:
    x0, top, x1, bottom = box
    lines = [line.strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        return []
    size = max(_MIN_SIZE, min(_MAX_SIZE, (bottom - top) / (len(lines) * _LEADING)))
    style = Style("form field", round(size * 2) / 2)
    runs = []
    first = (top + bottom) / 2 - len(lines) * size * _LEADING / 2  # centred, as a field shows its value
    for row, line in enumerate(lines):
        step = min((x1 - x0) / len(line), size * 0.6)
        y0 = first + row * size * _LEADING
        run = []
        for i, char in enumerate(line):
            if char.isspace():
                run.append(Glyph(" ", 0, 0, 0, 0, style, index))
            else:
                run.append(Glyph(char, x0 + i * step, y0, x0 + (i + 1) * step, y0 + size, style, index))
            index += 1
        runs.append(run)
    return runs
