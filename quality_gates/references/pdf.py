"""A PDF as PDFium reads it, for the gate: the raw text layer of each page, the text inside a
box, and where a box is drawn on a rendered page.

This is the gate's independent view: it opens the source bytes with PDFium itself and never
calls parsegate's PDF parser. The one thing it shares with the parser is the chunk record's
contract for boxes: ``(x0, top, x1, bottom)`` in the page's *reading space* (origin top left,
x along the text's direction), which this module turns back into PDFium's page space.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium

from parsegate.parsers.pdf.read import char_box, char_object, char_unicode
from parsegate.quality_gates.words import located, words

Box = tuple[float, float, float, float]
_WHITE = 250  # of 255 in each channel: white ink
_INSIDE = 2.0  # points from the page's edge within which a text object's bounds lie wholly on it
_SLACK = 1.5  # points a box is widened by before asking for the text inside it (boxes are rounded)


@dataclass
class PdfPage:
    number: int  # 1-based
    text: str  # PDFium's raw text layer
    direction: int  # of most characters, in degrees: 0, 90, 180, 270
    width: float  # unrotated page space
    height: float
    page: Any = field(repr=False)
    textpage: Any = field(repr=False)
    # Text shown by annotations, with its rectangle in page space: (left, bottom, right, top).
    annotations: list[tuple[str, Box]] = field(default_factory=list)

    def to_page_space(self, box: Box) -> Box:
        """(left, bottom, right, top) in PDFium page space of a reading-space box."""
        x0, top, x1, bottom = box
        w, h = self.width, self.height
        if self.direction == 90:
            return top, x0, bottom, x1
        if self.direction == 270:
            return w - bottom, h - x1, w - top, h - x0
        if self.direction == 180:
            return w - x1, top, w - x0, bottom
        return x0, h - bottom, x1, h - top

    def text_in(self, box: Box) -> str:
        """The text layer's text inside a box, and the text of the annotations (filled form
        fields, FreeText) that overlap it: a page shows them though its content stream lacks them."""
        left, bottom, right, top = self.to_page_space(box)
        text = str(
            self.textpage.get_text_bounded(
                left - _SLACK, bottom - _SLACK, right + _SLACK, top + _SLACK, errors="ignore"
            )
        )
        shown = [
            value
            for value, (x0, y0, x1, y1) in self.annotations
            if x0 <= right + _SLACK and left - _SLACK <= x1 and y0 <= top + _SLACK and bottom - _SLACK <= y1
        ]
        return " ".join([text, *shown]) if shown else text

    def word_boxes(self, wanted: Counter[str], limit: int) -> list[tuple[str, Box]]:
        """Page-space boxes of words of this page's text layer, as many of each as ``wanted``
        says (the last occurrences: which of equal words were lost cannot be told)."""
        found: list[tuple[str, Box]] = []
        left = Counter(wanted)
        for word, start, end in reversed(list(located(self.text))):
            if not left[word]:
                continue
            left[word] -= 1
            boxes = [self.textpage.get_charbox(i) for i in range(start, end)]
            boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
            if boxes:
                found.append((word, _union(boxes)))
            if len(found) >= limit:
                break
        return found

    def hidden_words(self) -> Counter[str]:
        """Words of characters that may be hidden from a reader, by PDFium's own account of each:
        an invisible render mode (3, 7), a transparent or white fill, a box off the page. An
        upper bound (white on a dark box counts): what a parser declares hidden is taken out of
        the reference only as far as these words support it."""
        raw = pdfium.raw
        tp = self.textpage.raw
        rgba = [ctypes.c_uint() for _ in range(4)]
        refs = [ctypes.byref(c) for c in rgba]
        left, right, bottom, top = (ctypes.c_double() for _ in range(4))
        boxes = (ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top))
        edges = [ctypes.c_float() for _ in range(4)]  # an object's left, bottom, right, top
        bounds = [ctypes.byref(c) for c in edges]
        chars: list[str] = []
        # A character's render mode and fill are its text object's (PDFium reads both off the
        # object): asked once per object, which holds a run of characters. An object drawn well
        # inside the page holds no character off it: a character's own box is asked for only
        # when its object's bounds reach the page's edge. (Over 10,696 pages of Debian's PDFs
        # and the shared corpus: the same words as asking each character, in 0.6 of the CPU.)
        unseen: dict[int | None, tuple[bool, bool]] = {}
        handle = ctypes.cast(tp, ctypes.c_void_p)  # for the untyped per-character calls
        for i in range(self.textpage.count_chars()):
            text = chr(char_unicode(handle, i))
            hidden = False
            if text.strip():
                key = char_object(handle, i)  # its address, or None
                known = unseen.get(key)
                if known is None:
                    obj = ctypes.cast(key, raw.FPDF_PAGEOBJECT) if key else None
                    mode = raw.FPDFTextObj_GetTextRenderMode(obj) if obj else 0
                    filled = raw.FPDFText_GetFillColor(tp, i, *refs)
                    red, green, blue, alpha = (c.value for c in rgba)
                    white = filled and (alpha == 0 or min(red, green, blue) >= _WHITE)
                    edge = True
                    if obj and raw.FPDFPageObj_GetBounds(obj, *bounds):
                        x0, y0, x1, y1 = (c.value for c in edges)
                        inside = _INSIDE < x0 <= x1 < self.width - _INSIDE
                        edge = not (inside and _INSIDE < y0 <= y1 < self.height - _INSIDE)
                    known = unseen[key] = (mode in (3, 7) or bool(white), edge)
                invisible, edge = known
                off = False
                if edge and not invisible:
                    char_box(handle, i, *boxes)
                    off = right.value <= 0 or left.value >= self.width or top.value <= 0 or bottom.value >= self.height
                hidden = invisible or off
            chars.append(text if hidden else " ")
        return Counter(words("".join(chars)))

    def to_image(self, box: Box, scale: float) -> Box:
        """Pixel box (x0, y0, x1, y1) on this page rendered at ``scale`` of a page-space box."""
        width, height = (round(v * scale) for v in self.page.get_size())
        points = [_device(self.page, width, height, x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass
class PdfSource:
    pdf: Any
    pages: dict[int, PdfPage]

    def close(self) -> None:
        for page in self.pages.values():
            page.textpage.close()
            page.page.close()
        self.pdf.close()

    def words_by_page(self) -> dict[int, list[str]]:
        return {n: words(p.text) for n, p in self.pages.items()}


def open_pdf(data: bytes, max_pages: int = 2000, password: str | None = None) -> PdfSource | None:
    """PDFium's view of the file (opened with the run's PDF password); None when PDFium cannot
    open it (the parser said why)."""
    pdf = None
    for attempt in (None, password) if password else (None,):  # the empty password first, as the parser
        try:
            pdf = pdfium.PdfDocument(data, password=attempt)
            break
        except pdfium.PdfiumError:
            continue
    if pdf is None:
        return None
    with contextlib.suppress(pdfium.PdfiumError):
        pdf.init_forms()  # before a page is loaded: form fields' values
    pages: dict[int, PdfPage] = {}
    for index in range(min(len(pdf), max_pages)):
        try:
            page = pdf[index]
        except pdfium.PdfiumError:
            continue  # a page PDFium cannot load (a /Kids that holds itself): the parser warned of it
        textpage = page.get_textpage()
        width, height = page.get_size()
        if page.get_rotation() in (90, 270):
            width, height = height, width  # get_size() is the displayed size; text is in page space
        text = textpage.get_text_range(errors="ignore")
        shown = _annotations(pdf.formenv.raw if pdf.formenv else None, page.raw)
        pages[index + 1] = PdfPage(index + 1, text, _direction(textpage), width, height, page, textpage, shown)
    return PdfSource(pdf, pages)


def _annotations(form: Any, page: Any) -> list[tuple[str, Box]]:
    """What a page's annotations show as text, read here on their own: a FreeText box's contents,
    a form field's value (a check box's state as ``[x]`` / ``[ ]``)."""
    raw = pdfium.raw
    out: list[tuple[str, Box]] = []
    rect = raw.FS_RECTF()  # type: ignore[no-untyped-call]
    for k in range(raw.FPDFPage_GetAnnotCount(page)):
        annot = raw.FPDFPage_GetAnnot(page, k)
        if not annot:
            continue
        try:
            subtype = raw.FPDFAnnot_GetSubtype(annot)
            text = ""
            if subtype == raw.FPDF_ANNOT_FREETEXT:
                text = _utf16(lambda b, n, a=annot: raw.FPDFAnnot_GetStringValue(a, b"Contents", b, n))
            elif subtype == raw.FPDF_ANNOT_WIDGET and form:
                kind = raw.FPDFAnnot_GetFormFieldType(form, annot)
                if kind in (raw.FPDF_FORMFIELD_CHECKBOX, raw.FPDF_FORMFIELD_RADIOBUTTON):
                    text = "[x]" if raw.FPDFAnnot_IsChecked(form, annot) else "[ ]"
                else:
                    text = _utf16(lambda b, n, a=annot: raw.FPDFAnnot_GetFormFieldValue(form, a, b, n))
            if text.strip() and raw.FPDFAnnot_GetRect(annot, ctypes.byref(rect)):
                low, high = sorted((rect.bottom, rect.top))
                out.append((text, (rect.left, low, rect.right, high)))
        finally:
            raw.FPDFPage_CloseAnnot(annot)
    return out


def _utf16(read: Any) -> str:
    length = int(read(None, 0))
    if length <= 2:
        return ""
    buffer = (ctypes.c_ushort * (length // 2))()
    read(buffer, length)
    return bytes(buffer).decode("utf-16-le", errors="replace").split("\x00", 1)[0]


def _direction(textpage: Any) -> int:
    """The direction most characters run in, from their text matrices (a sample suffices)."""
    count = textpage.count_chars()
    matrix = pdfium.raw.FS_MATRIX()  # type: ignore[no-untyped-call]
    votes = {0: 0, 90: 0, 180: 0, 270: 0}
    for i in range(0, count, max(1, count // 200)):
        if pdfium.raw.FPDFText_GetMatrix(textpage.raw, i, ctypes.byref(matrix)):  # type: ignore[no-untyped-call]
            a, b = matrix.a, matrix.b
            if abs(a) >= abs(b):
                votes[0 if a > 0 else 180] += 1
            else:
                votes[90 if b > 0 else 270] += 1
    return max(votes, key=lambda d: votes[d])


def _union(boxes: list[tuple[float, float, float, float]]) -> Box:
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def _device(page: Any, width: int, height: int, x: float, y: float) -> tuple[float, float]:
    """PDFium's own page → device mapping (it applies the page's /Rotate)."""
    dx, dy = ctypes.c_int(), ctypes.c_int()
    pdfium.raw.FPDF_PageToDevice(page.raw, 0, 0, width, height, 0, x, y, ctypes.byref(dx), ctypes.byref(dy))  # type: ignore[no-untyped-call]
    return float(dx.value), float(dy.value)
