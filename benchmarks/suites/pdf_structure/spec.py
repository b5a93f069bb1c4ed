"""Document specs: what each generated document says, in reading order, before any engine lays it out.

A spec is data only. Renderers (render_html, render_docx, render_latex) turn it into a PDF; truth.py
turns it into the truth. Both read the same spec, so the truth is known by construction.

Data flow: make_specs → doc_spec (layout, title, furniture) → sections → blocks (heading, paragraph,
list, table, figure) with their text drawn from prose.py by a seeded random generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from benchmarks.suites.pdf_structure import prose

ENGINES = ("chromium", "libreoffice", "latex")
# Layouts each engine can set. A spread (two pages side by side on one wide sheet) is drawn
# explicitly in HTML and LaTeX; Writer has no such page, so LibreOffice gets none.
LAYOUTS = {
    "chromium": ("single", "two", "stacked", "three", "mixed", "single", "two", "spread"),
    "libreoffice": ("single", "two", "stacked", "three", "mixed", "single", "two"),
    "latex": ("single", "two", "stacked", "three", "mixed", "single", "twocolumn", "spread"),
}
# Right-to-left languages per engine. pdfLaTeX sets neither without extra fonts. Chromium's PDFs
# of Arabic hold glyph runs in visual order that PDFium reads back as reversed fragments split at
# tanween marks ("وفضلاً" → "ضفو الً"): no text layer to check a truth against, so Hebrew only.
RTL = {"chromium": ("he",), "libreoffice": ("ar", "he"), "latex": ()}
TABLE_STYLES = ("ruled", "booktabs", "unruled", "inner")  # inner: rules between cells only
SERIES = ("Field Notes", "Working Paper", "Technical Memo", "Design Review", "Service Guide", "Study Report")


@dataclass
class Footnote:
    mark: str  # a symbol, never a digit: a digit glued to the word before it would change that word
    text: str


@dataclass
class Heading:
    level: int  # 1 section, 2 subsection, 3 subsubsection
    text: str
    number: str = ""  # "2.1", printed before the text; kept apart so scoring can ignore it

    @property
    def shown(self) -> str:
        return f"{self.number} {self.text}" if self.number else self.text


@dataclass
class Paragraph:
    text: str
    lang: str = "en"  # "ar" or "he": set right to left
    note: Footnote | None = None


@dataclass
class ListBlock:
    ordered: bool
    items: list[str]

    def shown(self) -> list[str]:
        """Items as the engine prints them: ordered lists get "1." markers, bullets are no word."""
        return [f"{n}. {item}" if self.ordered else item for n, item in enumerate(self.items, 1)]


@dataclass
class Table:
    style: str  # one of TABLE_STYLES
    caption: str  # "Table 2: ...", printed above the table, part of the body
    rows: list[list[str]]  # rows[0] is the header row
    long: bool = False  # long enough to run over a page break


@dataclass
class Figure:
    kind: str  # "vector" (drawn boxes) or "image" (a raster picture with text set over it)
    labels: list[str]  # text inside the figure: not body text
    caption: str  # "Figure 1: ...", printed below the figure


Block = Heading | Paragraph | ListBlock | Table | Figure


@dataclass
class Section:
    columns: int  # 1, 2 or 3
    blocks: list[Block] = field(default_factory=list)


@dataclass
class DocSpec:
    id: str
    engine: str
    layout: str  # single, two, three, stacked, mixed, twocolumn, spread
    title: str
    running_head: str  # furniture at the top of every page
    footer: str  # furniture at the bottom: "Page {page} of {pages}", "Page {page}" or "{page}"
    sections: list[Section]  # a spread has two: the left page and the right page
    first_folio: int = 1  # the number on the first page (a spread starts mid-book)

    def blocks(self) -> list[Block]:
        return [b for s in self.sections for b in s.blocks]


def make_specs(seed: int, per_engine: dict[str, int]) -> list[DocSpec]:
    return [doc_spec(seed, engine, i) for engine in ENGINES for i in range(per_engine.get(engine, 0))]


def doc_spec(seed: int, engine: str, i: int) -> DocSpec:
    doc_id = f"{engine}-{i:03d}"
    rng = random.Random(f"{seed}:{doc_id}")
    layout = LAYOUTS[engine][i % len(LAYOUTS[engine])]
    draw = _Draw(rng, numbered=i % 2 == 0)
    title = draw.heading_text()
    head = f"{rng.choice(SERIES)} {rng.randint(10, 99)}-{i:02d}"
    footer = _footer(engine, i)
    if layout == "spread":
        sections = spread_sections(draw)
        return DocSpec(doc_id, engine, layout, title, head, "{page}", sections, first_folio=2 * rng.randint(5, 60))
    rtl = RTL[engine] if i % 4 == 2 else ()
    # A table that runs over a page break; LaTeX's longtable cannot break inside multicols.
    long_table = i % 2 == 0 and (layout == "single" or (layout == "mixed" and engine != "latex"))
    sections = body_sections(draw, layout, rtl=rtl, long_table=long_table, notes=engine != "libreoffice" or i % 2 == 1)
    return DocSpec(doc_id, engine, layout, title, head, footer, sections)


def _footer(engine: str, i: int) -> str:
    if engine == "latex":
        return ("Page {page}", "{page}")[i % 2]  # LaTeX's own plain style prints a bare number
    return ("Page {page} of {pages}", "Page {page}", "{page}")[i % 3]


def body_sections(draw: _Draw, layout: str, *, rtl: tuple[str, ...], long_table: bool, notes: bool) -> list[Section]:
    """The document body as sections of one to three columns, in reading order."""
    cols = {"single": 1, "two": 2, "three": 3, "mixed": 2, "twocolumn": 2}.get(layout, 1)
    if layout == "stacked":
        # Two short two-column sections on the first page, a full-width block between them.
        first = Section(2, draw.section(1, paragraphs=2, cols=2, notes=notes, extras=False))
        middle = Section(1, [draw.table(cols=1) if draw.rng.random() < 0.5 else draw.figure()])
        second = Section(2, draw.section(1, paragraphs=2, cols=2, notes=notes, extras=False))
        rest = Section(1, draw.section(1, paragraphs=2, cols=1, notes=notes))
        return [first, middle, second, rest]
    sections = []
    if layout == "mixed":
        sections.append(Section(1, [draw.paragraph()]))  # a full-width opening paragraph
    body = Section(cols)
    for n in range(draw.rng.randint(2, 4)):
        body.blocks += draw.section(1, paragraphs=draw.rng.randint(1, 3), cols=cols, notes=notes)
        if n == 0 and draw.rng.random() < 0.7:
            body.blocks += draw.section(2, paragraphs=draw.rng.randint(1, 2), cols=cols, notes=notes)
            if draw.rng.random() < 0.4:
                body.blocks += draw.section(3, paragraphs=1, cols=cols, notes=notes)
        if rtl and n == 0:
            body.blocks += [draw.heading(1, cols), *draw.rtl_paragraphs(rtl)]
    if long_table:
        body.blocks.insert(min(len(body.blocks), 4), draw.table(cols=cols, rows=draw.rng.randint(45, 60)))
    sections.append(body)
    return sections


def spread_sections(draw: _Draw) -> list[Section]:
    """Two facing pages on one sheet: each half a page of text that fits it."""
    left = draw.section(1, paragraphs=3, cols=2, notes=False, extras=False)
    left += [draw.list_block(), draw.paragraph()]
    right = draw.section(1, paragraphs=2, cols=2, notes=False, extras=False)
    right += [draw.figure(), *draw.section(2, paragraphs=2, cols=2, notes=False, extras=False)]
    return [Section(1, left), Section(1, right)]


class _Draw:
    """Draws text from the prose pools without repeating a paragraph, heading or caption in a document."""

    def __init__(self, rng: random.Random, numbered: bool) -> None:
        self.rng = rng
        self.numbered = numbered
        self.counters = [0, 0, 0]
        self.tables = 0
        self.figures = 0
        self.marks = iter("*†‡§¶")
        self.used: set[str] = set()
        self.en = prose.english()

    def _fresh(self, pool: tuple[str, ...]) -> str:
        while True:
            text = self.rng.choice(pool)
            if text.casefold() not in self.used:
                self.used.add(text.casefold())
                return text

    def heading_text(self, narrow: bool = False) -> str:
        """A heading phrase; in a column, none with a word Writer would have to break ("EventSourceResponse")."""
        while True:
            text = self._fresh(self.en.headings)
            if not narrow or max(len(w) for w in text.split()) <= 13:
                return text

    def heading(self, level: int, cols: int = 1) -> Heading:
        self.counters[level - 1] += 1
        self.counters[level:] = [0] * (3 - level)
        number = ".".join(str(c) for c in self.counters[:level]) if self.numbered else ""
        return Heading(level, self.heading_text(narrow=cols > 1), number)

    def paragraph(self, notes: bool = False) -> Paragraph:
        note = None
        if notes and self.rng.random() < 0.25:
            mark = next(self.marks, None)
            note = Footnote(mark, self._fresh(self.en.sentences)) if mark else None
        return Paragraph(self._fresh(self.en.paragraphs), note=note)

    def rtl_paragraphs(self, langs: tuple[str, ...]) -> list[Paragraph]:
        lang = self.rng.choice(langs)
        pool = prose.right_to_left({"ar": "arb", "he": "heb"}[lang])
        start = self.rng.randrange(len(pool) - 2)
        return [Paragraph(text, lang=lang) for text in pool[start : start + self.rng.randint(1, 2)]]

    def section(self, level: int, *, paragraphs: int, cols: int, notes: bool, extras: bool = True) -> list[Block]:
        blocks: list[Block] = [self.heading(level, cols)]
        blocks += [self.paragraph(notes) for _ in range(paragraphs)]
        extra = self.rng.random() if extras else 1.0
        if extra < 0.3:
            blocks.insert(2, self.list_block())
        elif extra < 0.6:
            blocks.append(self.table(cols))
        elif extra < 0.8:
            blocks.append(self.figure())
        return blocks

    def list_block(self) -> ListBlock:
        return ListBlock(
            self.rng.random() < 0.5, [self._fresh(self.en.sentences) for _ in range(self.rng.randint(2, 5))]
        )

    def table(self, cols: int, rows: int | None = None) -> Table:
        self.tables += 1
        width = {1: self.rng.randint(3, 5), 2: 3, 3: 2}[cols]
        words = self.en.words
        short = cols > 1
        header = [
            self._fresh(tuple(w for w in words if len(w) <= 8)) if short else self._fresh(words) for _ in range(width)
        ]
        body = [[self._cell(c, short) for c in range(width)] for _ in range(rows or self.rng.randint(3, 7))]
        caption = f"Table {self.tables}: {self._fresh(self.en.sentences)}"
        return Table(TABLE_STYLES[(self.tables + self.rng.randrange(4)) % 4], caption, [header, *body], long=bool(rows))

    def _cell(self, col: int, short: bool) -> str:
        kind = self.rng.random() if col else 1.0
        if kind < 0.4:
            return str(self.rng.randint(2, 9999))
        if kind < 0.6:
            return f"{self.rng.randint(0, 99)}.{self.rng.randint(0, 9)}"
        word = self._word(short)
        return word if col == 0 else word.lower()

    def _word(self, short: bool) -> str:
        """A word for a cell; a narrow column gets short words only (Writer breaks a word that does not fit)."""
        while True:
            word = self.rng.choice(self.en.words)
            if not short or len(word) <= 8:
                return word

    def figure(self) -> Figure:
        self.figures += 1
        labels = [self._fresh(self.en.words) for _ in range(self.rng.randint(3, 5))]
        caption = f"Figure {self.figures}: {self._fresh(self.en.sentences)}"
        return Figure(self.rng.choice(("vector", "image")), labels, caption)
