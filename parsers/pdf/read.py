"""Everything that touches PDFium (and ctypes): opening the file, each page's glyphs with their
boxes and styles in content-stream order, its images and vector paths, the outline and the
metadata. Everything after this module works on plain boxes."""

from __future__ import annotations

import contextlib
import ctypes
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from parsegate.parsers.model import ParseError, ParseWarning
from parsegate.parsers.pdf.annotations import annotation_runs, place
from parsegate.parsers.pdf.hidden import CLEAR, INVISIBLE, WHITE, hide
from parsegate.parsers.pdf.layout import Bookmark, Box, Glyph, Style

_THIN = 2.0  # a path this thin in one direction is a rule, not a shape
_MAX_PATHS = 4000  # past this many paths (a map, a chart) a page's paths are read by their bounds only
_FORCE_BOLD, _ITALIC, _FIXED_PITCH = 1 << 18, 1 << 6, 1 << 0
_FILL_STROKE = 2  # text render mode that fakes bold by stroking the outline
_INVISIBLE_MODES = (3, 7)  # neither filled nor stroked (7 only adds to the clipping path)
_STROKED_MODES = (1, 5)  # stroked, not filled: the stroke's colour is the ink
_WHITE = 250  # of 255 in each channel
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|medi|-bd\b|bd$|cmbx|cmb\d|sfbx|^bx|\bbx\d", re.IGNORECASE)
_ITALIC_NAME = re.compile(r"italic|oblique|-it$|-it\b|cmti|sfti|cmsl|sfsl|ital", re.IGNORECASE)
_MONO_NAME = re.compile(
    r"mono|courier|cmtt|cmsltt|cmitt|sftt|consol|code|typewriter|menlo|inconsolata|nimbusmon", re.IGNORECASE
)


@dataclass
class Drawing:
    """A vector path that is not a rule: a frame, a filled box or a drawn shape."""

    box: Box
    curved: bool  # has Bézier segments or slanted lines: part of a drawing, not a box


@dataclass
class RawPage:
    number: int
    width: float
    height: float
    runs: list[list[Glyph]] = field(default_factory=list)  # PDFium's lines, in stream order
    images: list[Box] = field(default_factory=list)
    drawings: list[Drawing] = field(default_factory=list)
    edges: list[Box] = field(default_factory=list)  # horizontal and vertical rules and box sides
    rules: list[Box] = field(default_factory=list)  # thin paths: rules, and the dots of dotted curves
    hidden: list[tuple[str, list[Glyph]]] = field(default_factory=list)  # runs no reader sees, and why (hidden.py)


def open_pdf(data: bytes, password: str | None = None) -> pdfium.PdfDocument:
    if not data:
        raise ParseError("empty", "zero bytes: not a PDF")
    if b"%PDF" not in data[:1024]:
        raise ParseError("not_pdf", "not a PDF (no %PDF header)")
    # The empty password first: a PDF encrypted with an owner password only opens without one and
    # refuses any other (a --password meant for one file of a corpus locked all the others out).
    for attempt in (None, password) if password else (None,):
        try:
            pdf = pdfium.PdfDocument(data, password=attempt)
        except pdfium.PdfiumError as exc:
            if getattr(exc, "err_code", None) != 4 and "password" not in str(exc).lower():
                raise ParseError("malformed", f"PDFium cannot open it: {exc}") from None
            continue
        # Before any page is loaded: the values of filled form fields (annotations.py); without a
        # form environment the fields read as unfilled, the page's own text as ever.
        with contextlib.suppress(pdfium.PdfiumError):
            pdf.init_forms()
        return pdf
    raise ParseError("encrypted", "encrypted, needs a password: pass --password")


def read_page(pdf: pdfium.PdfDocument, index: int) -> RawPage:
    """One page's glyphs, images and paths; raises pdfium.PdfiumError for a page PDFium cannot load."""
    page = pdf[index]
    textpage = page.get_textpage()
    try:
        frame = Frame.of(page, textpage)
        out = RawPage(index + 1, frame.width, frame.height, _runs(textpage, frame))
        form = pdf.formenv.raw if pdf.formenv else None
        place(out.runs, annotation_runs(form, page.raw, frame, textpage.count_chars()))
        _shapes(ctypes.cast(page.raw, ctypes.c_void_p).value or 0, frame, out)
        hide(out)
    finally:
        textpage.close()
        page.close()
    return out


@dataclass
class Frame:
    """Reading space: where text runs left to right and lines go down, whatever the page's
    /Rotate or text matrix. Text set sideways to be read upright (a landscape table on a
    rotated page) is turned; a page merely rotated for display reads as it was written."""

    direction: int  # of the text in the page's own space: 0, 90, 180 or 270 degrees
    width: float  # of the page in reading space
    height: float
    page_width: float  # of the page in its own (unrotated) space
    page_height: float

    @classmethod
    def of(cls, page: Any, textpage: Any) -> Frame:
        w, h = page.get_size()
        if page.get_rotation() in (90, 270):
            w, h = h, w  # get_size() is the displayed size; boxes are in the unrotated space
        direction = _text_direction(textpage)
        width, height = (h, w) if direction in (90, 270) else (w, h)
        return cls(direction, width, height, w, h)

    def box(self, left: float, bottom: float, right: float, top: float) -> Box:
        """(x0, top, x1, bottom) in reading space of a box given in page space."""
        w, h = self.page_width, self.page_height
        if self.direction == 90:
            return bottom, left, top, right
        if self.direction == 270:
            return h - top, w - right, h - bottom, w - left
        if self.direction == 180:
            return w - right, bottom, w - left, top
        return left, h - top, right, h - bottom


def _text_direction(textpage: Any) -> int:
    """The direction most characters run in, from their text matrices (a sample suffices)."""
    count = textpage.count_chars()
    matrix = raw.FS_MATRIX()  # type: ignore[no-untyped-call]
    votes = {0: 0, 90: 0, 180: 0, 270: 0}
    for i in range(0, count, max(1, count // 200)):
        if raw.FPDFText_GetMatrix(textpage.raw, i, ctypes.byref(matrix)):  # type: ignore[no-untyped-call]
            a, b = matrix.a, matrix.b
            if abs(a) >= abs(b):
                votes[0 if a > 0 else 180] += 1
            else:
                votes[90 if b > 0 else 270] += 1
    return max(votes, key=lambda d: votes[d])


# -- glyphs ----------------------------------------------------------------------------------


def _plain(fn: Any, restype: Any, *argtypes: Any) -> Any:
    """The same PDFium function with handles passed as plain addresses. pypdfium2's bindings
    check each handle's pointer type on every call, which per glyph costs more than the call."""
    out = type(fn)(ctypes.cast(fn, ctypes.c_void_p).value)
    out.restype, out.argtypes = restype, argtypes
    return out


_float_p = ctypes.POINTER(ctypes.c_float)
_void, _int = ctypes.c_void_p, ctypes.c_int


def _untyped(fn: Any, restype: Any) -> Any:
    """The same PDFium function with no argument types: ctypes passes each argument as it is
    given, unchecked and unconverted, so the caller passes the handle as a ``c_void_p`` (a
    plain int would be cut to a C int), the char index as an int (a C int) and the boxes'
    doubles by reference. For the three calls made for every glyph: converting their arguments
    cost more than the calls (the char box: 1.16 against 0.44 us a glyph)."""
    out = type(fn)(ctypes.cast(fn, ctypes.c_void_p).value)
    out.restype = restype
    return out


# The per-character calls, untyped; the gate's PDF reference reads its characters with them too.
char_unicode = _untyped(raw.FPDFText_GetUnicode, ctypes.c_uint)  # (textpage, index)
char_object = _untyped(raw.FPDFText_GetTextObject, _void)  # (textpage, index): an address or None
char_box = _untyped(raw.FPDFText_GetCharBox, _int)  # (textpage, index, &left, &right, &bottom, &top)
_font_size = _plain(raw.FPDFTextObj_GetFontSize, _int, _void, _float_p)
_matrix = _plain(raw.FPDFPageObj_GetMatrix, _int, _void, ctypes.POINTER(raw.FS_MATRIX))
_text_font = _plain(raw.FPDFTextObj_GetFont, _void, _void)
_render_mode = _plain(raw.FPDFTextObj_GetTextRenderMode, _int, _void)
_count_objects = _plain(raw.FPDFPage_CountObjects, _int, _void)
_page_object = _plain(raw.FPDFPage_GetObject, _void, _void, _int)
_count_form_objects = _plain(raw.FPDFFormObj_CountObjects, _int, _void)
_form_object = _plain(raw.FPDFFormObj_GetObject, _void, _void, ctypes.c_ulong)
_object_type = _plain(raw.FPDFPageObj_GetType, _int, _void)
_bounds = _plain(raw.FPDFPageObj_GetBounds, _int, _void, *[_float_p] * 4)
_uint_p = ctypes.POINTER(ctypes.c_uint)
_fill_colour = _plain(raw.FPDFPageObj_GetFillColor, _int, _void, *[_uint_p] * 4)
_stroke_colour = _plain(raw.FPDFPageObj_GetStrokeColor, _int, _void, *[_uint_p] * 4)
_draw_mode = _plain(raw.FPDFPath_GetDrawMode, _int, _void, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))


def _runs(textpage: Any, frame: Frame) -> list[list[Glyph]]:
    """Glyphs in content-stream order, cut at PDFium's own line breaks.

    The text is read from the char list, never from get_text_range(): that text is not indexed
    like the chars (it leaves out glyphs mapped to control codes, such as bullets in symbol
    fonts, and a char above U+FFFF takes two char slots)."""
    tp = ctypes.cast(textpage.raw, ctypes.c_void_p)  # a c_void_p: the untyped calls' handle
    count = raw.FPDFText_CountChars(textpage.raw)
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    at_left, at_right, at_bottom, at_top = (
        ctypes.byref(left),
        ctypes.byref(right),
        ctypes.byref(bottom),
        ctypes.byref(top),
    )
    styles = _Styles()
    run: list[Glyph] = []
    runs: list[list[Glyph]] = [run]
    style = Style()
    last_object = None
    box = frame.box
    unicode, text_object, box_of = char_unicode, char_object, char_box
    known = styles.by_object
    i = 0
    while i < count:
        unit = unicode(tp, i)
        width = 1
        if 0xD800 <= unit < 0xDC00 and i + 1 < count:
            low = unicode(tp, i + 1)
            text, width = chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)), 2
        elif unit == 0x0A or unit == 0x0D:
            if unit == 0x0A and run:
                run = []  # PDFium's line break (CR LF, generated)
                runs.append(run)
            i += 1
            continue
        elif unit == 0x02 and raw.FPDFText_GetTextIndexFromCharIndex(textpage.raw, i) >= 0:
            text = "\ufffe"  # PDFium's mark for a hyphen that ends a line (its text says U+FFFE)
        else:
            text = chr(unit)
        obj = text_object(tp, i)
        if obj and obj != last_object:
            style = known.get(obj) or styles.of(obj)
            last_object = obj
        if unit == 0x20 or text.isspace():
            run.append(Glyph(" ", 0, 0, 0, 0, style, i))
        else:
            # Control codes (from fonts without a usable ToUnicode map) are kept: the lines
            # step decides what they were, a bullet or garbage to drop.
            box_of(tp, i, at_left, at_right, at_bottom, at_top)
            x0, y0, x1, y1 = box(left.value, bottom.value, right.value, top.value)
            run.append(Glyph(text, x0, y0, x1, y1, style, i))
        i += width
    return [run for run in runs if run]


class _Styles:
    """Each text object's style, read once per object and once per font."""

    def __init__(self) -> None:
        self.by_object: dict[int, Style] = {}
        self.interned: dict[Style, Style] = {}
        self.fonts: dict[int | None, tuple[str, bool, bool, bool]] = {}
        self.matrix = raw.FS_MATRIX()  # type: ignore[no-untyped-call]
        self.size = ctypes.c_float()
        self.matrix_ref, self.size_ref = ctypes.byref(self.matrix), ctypes.byref(self.size)
        self.rgba = [ctypes.c_uint() for _ in range(4)]
        self.rgba_refs = [ctypes.byref(c) for c in self.rgba]

    def of(self, address: int) -> Style:
        style = self.by_object.get(address)
        if style is None:
            size = self.size.value if _font_size(address, self.size_ref) else 0.0
            if _matrix(address, self.matrix_ref):
                size *= (self.matrix.c**2 + self.matrix.d**2) ** 0.5
            name, bold, italic, mono = self.font(_text_font(address))
            mode = _render_mode(address)
            bold = bold or mode == _FILL_STROKE
            style = Style(name, round(size * 2) / 2, bold, italic, mono, self.ink(address, mode))
            style = self.interned.setdefault(style, style)  # one object per style: cheap to count
            self.by_object[address] = style
        return style

    def font(self, key: int | None) -> tuple[str, bool, bool, bool]:
        info = self.fonts.get(key)
        if info is None:
            font = ctypes.cast(key, raw.FPDF_FONT) if key else None
            buffer = ctypes.create_string_buffer(256)
            length = raw.FPDFFont_GetBaseFontName(font, buffer, 256) if font else 0
            name = buffer.value.decode("latin-1") if length else ""
            name = name.split("+", 1)[1] if len(name) > 7 and name[6] == "+" else name  # subset prefix
            flags = raw.FPDFFont_GetFlags(font) if font else 0
            weight = raw.FPDFFont_GetWeight(font) if font else -1
            angle = ctypes.c_int()
            slanted = bool(font) and raw.FPDFFont_GetItalicAngle(font, ctypes.byref(angle)) and angle.value != 0
            # PDFium's weight is unreliable (TeX bold faces report 250-545), so any signal counts.
            bold = weight >= 600 or bool(flags & _FORCE_BOLD) or bool(_BOLD_NAME.search(name))
            italic = bool(flags & _ITALIC) or slanted or bool(_ITALIC_NAME.search(name))
            mono = bool(flags & _FIXED_PITCH) or bool(_MONO_NAME.search(name))
            info = (name, bold, italic, mono)
            self.fonts[key] = info
        return info

    def ink(self, address: int, mode: int) -> str:
        """Why a text object's glyphs cannot be seen, from its render mode and colour ("" if they can)."""
        if mode in _INVISIBLE_MODES:
            return INVISIBLE
        read = _stroke_colour if mode in _STROKED_MODES else _fill_colour
        if not read(address, *self.rgba_refs):
            return ""
        red, green, blue, alpha = (c.value for c in self.rgba)
        if alpha == 0:
            return CLEAR
        return WHITE if min(red, green, blue) >= _WHITE else ""


# -- images and paths --------------------------------------------------------------------------


def _objects(parent: int, depth: int = 3, form: bool = False) -> Iterator[tuple[int, int]]:
    """(type, handle) of the page's objects, and of those inside its form XObjects."""
    count = _count_form_objects(parent) if form else _count_objects(parent)
    for i in range(count):
        obj = _form_object(parent, i) if form else _page_object(parent, i)
        kind = _object_type(obj)
        if kind == raw.FPDF_PAGEOBJ_FORM and depth > 1:
            yield from _objects(obj, depth - 1, form=True)
        else:
            yield kind, obj


def _shapes(page: int, frame: Frame, out: RawPage) -> None:
    """Images by their bounds; rules and box sides become edges (for ruled tables), those of a
    shape filled and not stroked only where they show (shown_sides); other paths become
    drawings."""
    matrix = raw.FS_MATRIX()  # type: ignore[no-untyped-call]
    corners = [ctypes.c_float() for _ in range(4)]
    refs = [ctypes.byref(c) for c in corners]
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    rgba = [ctypes.c_uint() for _ in range(4)]
    rgba_refs = [ctypes.byref(c) for c in rgba]
    shading: list[Shading] = []
    paths = 0
    for kind, obj in _objects(page):
        if kind not in (raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_IMAGE) or not _bounds(obj, *refs):
            continue
        left, bottom, right, top = (c.value for c in corners)
        box = frame.box(left, bottom, right, top)
        if kind == raw.FPDF_PAGEOBJ_IMAGE:
            out.images.append(box)
            continue
        paths += 1
        if right - left <= _THIN or top - bottom <= _THIN:
            out.edges.append(box)  # a thin rectangle or a line
            out.rules.append(box)
        elif paths > _MAX_PATHS:
            out.drawings.append(Drawing(box, True))
        else:
            _matrix(obj, ctypes.byref(matrix))
            edges, curved = _segments(ctypes.cast(obj, raw.FPDF_PAGEOBJECT), matrix, frame)
            filled = _draw_mode(obj, ctypes.byref(fill), ctypes.byref(stroke)) and fill.value and not stroke.value
            if filled and not curved and _fill_colour(obj, *rgba_refs):
                shading.append(Shading(box, tuple(c.value for c in rgba), edges))  # type: ignore[arg-type]
            else:
                out.edges.extend(edges)
            out.drawings.append(Drawing(box, curved))
    out.edges.extend(shown_sides(shading))


@dataclass
class Shading:
    """A shape filled and not stroked, in the order the page paints them."""

    box: Box
    colour: tuple[int, int, int, int]  # RGBA
    sides: list[Box]


_PAGE = (255, 255, 255, 255)  # the page's colour where no shape is painted
_OUTSIDE = 1.0  # points beyond a side where the colour it meets is read
_STEP = 48.0  # points: the grid the shapes are bucketed on, so a point is tested against a few


def shown_sides(shading: list[Shading]) -> list[Box]:
    """The sides of the filled shapes that show: where the colour just outside a side differs
    from the shape's own (the topmost other shape there, or the white page). A cell's background
    set inside its borders over a background of the same colour, one behind each line of a
    cell, a white box on the white page: their sides are drawn nowhere, and taken for rules they
    cut slivers and rows out of the cells the borders draw. A shape other than a box keeps its
    sides (what lies outside a slanted side is not read)."""
    buckets: dict[tuple[int, int], list[int]] = {}
    for n, s in enumerate(shading):
        x0, top, x1, bottom = s.box
        for bx in range(int(x0 // _STEP), int(x1 // _STEP) + 1):
            for by in range(int(top // _STEP), int(bottom // _STEP) + 1):
                buckets.setdefault((bx, by), []).append(n)

    def colour_at(x: float, y: float, not_this: int) -> tuple[int, int, int, int]:
        for n in reversed(buckets.get((int(x // _STEP), int(y // _STEP)), [])):  # painted last first
            b = shading[n].box
            if n != not_this and b[0] <= x <= b[2] and b[1] <= y <= b[3]:
                return shading[n].colour
        return _PAGE

    out: list[Box] = []
    for n, s in enumerate(shading):
        x0, top, x1, bottom = s.box
        for side in s.sides:
            mx, my = (side[0] + side[2]) / 2, (side[1] + side[3]) / 2
            if side[3] - side[1] < 0.5 and abs(my - top) < 0.5:
                outside = (mx, top - _OUTSIDE)
            elif side[3] - side[1] < 0.5 and abs(my - bottom) < 0.5:
                outside = (mx, bottom + _OUTSIDE)
            elif abs(mx - x0) < 0.5:
                outside = (x0 - _OUTSIDE, my)
            elif abs(mx - x1) < 0.5:
                outside = (x1 + _OUTSIDE, my)
            else:
                out.append(side)  # a side inside the shape's box: not a box
                continue
            if colour_at(*outside, n) != s.colour or s.colour[3] != 255:
                out.append(side)
    return out


def _segments(path: Any, m: Any, frame: Frame) -> tuple[list[Box], bool]:
    """The horizontal and vertical straight segments of one path (a grid drawn as one path, a
    box), and whether it also has curves or slanted lines."""
    out: list[Box] = []
    curved = False
    x, y = ctypes.c_float(), ctypes.c_float()
    start = current = None
    for i in range(raw.FPDFPath_CountSegments(path)):
        segment = raw.FPDFPath_GetPathSegment(path, i)
        raw.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y))
        point = (m.a * x.value + m.c * y.value + m.e, m.b * x.value + m.d * y.value + m.f)
        kind = raw.FPDFPathSegment_GetType(segment)
        if kind == raw.FPDF_SEGMENT_MOVETO or current is None:
            start = current = point
            continue
        straight = kind == raw.FPDF_SEGMENT_LINETO and _straight(out, current, point, frame)
        curved = curved or not straight
        current = point
        if raw.FPDFPathSegment_GetClose(segment) and start is not None:
            curved = not _straight(out, current, start, frame) or curved
            current = start
    return out, curved


def _straight(out: list[Box], a: tuple[float, float], b: tuple[float, float], frame: Frame) -> bool:
    """Adds a horizontal or vertical segment as an edge; False for a slanted one."""
    if abs(a[1] - b[1]) < 0.5 or abs(a[0] - b[0]) < 0.5:
        x0, x1 = sorted((a[0], b[0]))
        y0, y1 = sorted((a[1], b[1]))
        if x1 - x0 > 1 or y1 - y0 > 1:
            out.append(frame.box(x0, y0, x1, y1))
        return True
    return False


# -- outline and metadata ----------------------------------------------------------------------


def read_outline(pdf: pdfium.PdfDocument, warnings: list[ParseWarning]) -> Iterator[Bookmark]:
    for bookmark in pdf.get_toc():
        try:
            title = bookmark.get_title()
        except UnicodeDecodeError:
            warnings.append(ParseWarning("malformed", "a bookmark title is not valid UTF-16; left out"))
            continue
        dest = bookmark.get_dest()
        index = dest.get_index() if dest is not None else None
        yield Bookmark(title, bookmark.level + 1, index + 1 if index is not None else None)


def read_info(pdf: pdfium.PdfDocument) -> dict[str, str]:
    try:
        return dict(pdf.get_metadata_dict(skip_empty=True))
    except UnicodeDecodeError:  # a metadata string that is not valid UTF-16
        return {}
