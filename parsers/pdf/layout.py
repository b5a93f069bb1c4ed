"""The PDF parser's own data, in reading space (x to the right, y down, in points): glyphs with
their style, lines cut from PDFium's lines, tables, figures and pages. Pure data, no PDFium, so
that every later step can be tested on boxes made by hand."""

from __future__ import annotations

from dataclasses import dataclass, field

Box = tuple[float, float, float, float]  # x0, top, x1, bottom


@dataclass(frozen=True, slots=True)
class Style:
    """How a glyph is set. ``font`` is the base font name without its subset prefix."""

    font: str = ""
    size: float = 10.0  # type size in points, to half a point
    bold: bool = False
    italic: bool = False
    mono: bool = False
    ink: str = ""  # why no reader sees it (parsers/pdf/hidden.py: render mode, colour); "" when seen

    @property
    def key(self) -> tuple[str, float, bool, bool]:
        return (self.font, self.size, self.bold, self.italic)


@dataclass(slots=True, eq=False)
class Glyph:
    text: str  # one character, or a pair joined from surrogate halves; " " for a space
    x0: float
    top: float
    x1: float
    bottom: float
    style: Style
    index: int  # PDFium's char index: the order of the content stream


@dataclass(slots=True, eq=False)
class Line:
    """A run of glyphs on one baseline, without a wide gap: PDFium's line, cut where it joined
    text that only shares a baseline (two columns, two captions, the cells of a table row)."""

    page: int
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    style: Style  # the style most of its glyphs are set in
    uniform: bool = True  # (nearly) all its glyphs are set in that style
    index: int = 0  # stream order: its first glyph's char index
    row: int = 0  # the PDFium line it was cut from; fragments of one line share it
    hyphen: bool = False  # ends in a line-end hyphen (U+FFFE, U+00AD): the word goes on
    sideways: bool = False  # runs across the page's reading direction (a rotated label)
    listing: bool = False  # a line of a listing: monospaced, with (almost) no letter in a text font
    glyphs: list[Glyph] = field(default_factory=list, repr=False)  # with its spaces, in stream order

    @property
    def size(self) -> float:
        return self.style.size

    @property
    def bold(self) -> bool:
        return self.style.bold

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def box(self) -> Box:
        return round_box(self.x0, self.top, self.x1, self.bottom)

    @property
    def letterless(self) -> bool:
        """No letter in it (a listing's closing brace in a math font, a line's number)."""
        return not any(c.isalpha() for c in self.text)

    def ink(self) -> list[Glyph]:
        """Its glyphs without the spaces."""
        return [g for g in self.glyphs if g.text != " "]

    def words(self) -> list[list[Glyph]]:
        """Its glyphs in words (runs between spaces)."""
        words: list[list[Glyph]] = [[]]
        for g in self.glyphs:
            if g.text == " ":
                words.append([])
            else:
                words[-1].append(g)
        return [w for w in words if w]


@dataclass(eq=False)
class Table:
    page: int
    rows: list[list[str]]
    x0: float
    top: float
    x1: float
    bottom: float
    header_rows: int = 0
    index: int = 0  # stream order of its first glyph
    ruled: bool = True
    lines: list[Line] = field(default_factory=list, repr=False)  # the lines its cells took
    row_boxes: list[Box] = field(default_factory=list, repr=False)  # one per row


@dataclass(eq=False)
class Figure:
    """A drawing or an image, with the text set inside it (labels, callouts)."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    lines: list[Line] = field(default_factory=list)
    index: int = 0


@dataclass
class Page:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    navigation: list[list[Line]] = field(default_factory=list)  # contents and index entries (navigation.py)
    hidden: list[Line] = field(default_factory=list)  # text no reader sees (hidden.py)


@dataclass(frozen=True)
class Bookmark:
    title: str
    level: int  # 1 for the top level
    page: int | None  # 1-based page it points to, when it says


def union(a: Box, b: Box) -> Box:
    """The smallest box holding both."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def round_box(x0: float, top: float, x1: float, bottom: float) -> Box:
    return (round(x0, 1), round(top, 1), round(x1, 1), round(bottom, 1))
