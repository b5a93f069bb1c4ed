"""Table checks on synthetic glyphs (no PDF): a grid is a table only when it holds its text
exactly, one test per rule; a grid that fails leaves every line where it was; tables without
rules come from column alignment, prose in two columns does not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsegate.parsers.pdf import tables
from parsegate.parsers.pdf.layout import Box, Line
from parsegate.parsers.pdf.read import Shading, shown_sides
from parsegate.parsers.pdf.tables import drawings, grid_table, header_rows, nested, ruled_tables
from parsegate.parsers.pdf.unruled import table_between_rules, unruled_tables
from tests.pdf_samples import glyph_line

# A 2 x 2 grid: columns at x 50-150 and 150-250, rows at y 100-120 and 120-140. Synthetic glyphs
# are 5 pt wide, so a cell fits 20 of them.
GRID: list[Box] = [(50, 100, 150, 120), (150, 100, 250, 120), (50, 120, 150, 140), (150, 120, 250, 140)]


def row(left: str, right: str, top: float, index: int) -> list[Line]:
    return [glyph_line(left, 55, top, index, row=index), glyph_line(right, 155, top, index + 50, row=index + 50)]


def grid_lines() -> list[Line]:
    return row("Station", "Level", 105, 0) + row("S1", "100", 125, 100)


def test_a_grid_that_holds_its_text_exactly_is_a_table() -> None:
    table = grid_table(GRID, grid_lines(), 1)
    assert table is not None
    assert table.rows == [["Station", "Level"], ["S1", "100"]] and table.header_rows == 1
    assert table.row_boxes == [(50, 100, 250, 120), (50, 120, 250, 140)]


def test_a_ruled_band_of_several_rows_of_figures_is_cut_into_those_rows() -> None:
    # Statistical tables rule every few rows: one band (y 120-160) holds two text rows, a name
    # and a figure on each baseline; each row keeps its own name with its own figure.
    cells: list[Box] = [GRID[0], GRID[1], (50, 120, 150, 160), (150, 120, 250, 160)]
    lines = [*row("Station", "Level", 105, 0), *row("Alabama", "18,870", 125, 100), *row("Alaska", "209", 142, 200)]
    table = grid_table(cells, lines, 1)
    assert table is not None
    assert table.rows == [["Station", "Level"], ["Alabama", "18,870"], ["Alaska", "209"]]
    assert [round(b[1]) for b in table.row_boxes] == [100, 125, 142]


def test_a_ruled_band_of_wrapped_text_stays_one_row() -> None:
    # The same band holding a name and a description, each wrapped onto two lines: one row.
    cells: list[Box] = [GRID[0], GRID[1], (50, 120, 150, 160), (150, 120, 250, 160)]
    lines = [*row("Station", "Notes", 105, 0), *row("North", "levels read", 125, 100), *row("gate", "hourly", 142, 200)]
    table = grid_table(cells, lines, 1)
    assert table is not None
    assert table.rows == [["Station", "Notes"], ["North gate", "levels read hourly"]]


def test_every_glyph_in_the_box_must_be_in_a_cell() -> None:
    # The right-hand cell of the second row is missing (a partial grid): "100" is in no cell.
    assert grid_table(GRID[:3], grid_lines(), 1) is None


def test_no_cell_may_hold_another() -> None:
    # A framed drawing: a frame around a label and a box drawn inside it (with no text), and
    # a second frame beside it.
    frame, box, beside = (50, 100, 250, 140), (200, 120, 240, 135), (250, 100, 350, 140)
    lines = [glyph_line("Station", 55, 105, 0), glyph_line("Level", 255, 105, 20)]
    assert nested([frame, box, beside]) and not nested(GRID)
    assert grid_table([frame, box, beside], lines, 1) is None
    # The same without the inner box (and a second row: one row is no table).
    second = [glyph_line("S1", 55, 145, 40), glyph_line("100", 255, 145, 60)]
    assert grid_table([frame, beside, (50, 140, 250, 160), (250, 140, 350, 160)], lines + second, 1) is not None


def test_no_word_may_cross_a_rule() -> None:
    # One word runs from x 55 past the rule at 150 into the next cell.
    lines = [glyph_line("Stationmasterreadings", 55, 105, 0), *row("S1", "100", 125, 100)]
    assert grid_table(GRID, lines, 1) is None


def test_no_line_may_cross_the_box() -> None:
    # A line of the second row goes on past the grid's right edge (a column without rules).
    lines = [
        *row("Station", "Level", 105, 0),
        glyph_line("S1", 55, 125, 100),
        glyph_line("100 units measured", 205, 125, 150),
    ]
    assert grid_table(GRID, lines, 1) is None


def test_a_row_cut_at_a_wide_gap_may_not_go_on_outside_the_box() -> None:
    lines = [*grid_lines(), glyph_line("note", 300, 125, 120, row=100)]  # same PDFium line as "S1"
    assert grid_table(GRID, lines, 1) is None


def test_a_grid_ruled_inside_only_takes_its_columns_from_the_text_and_its_header_row() -> None:
    # Rules between the rows and one between the columns, none outside: the grid's cells hold
    # only part of the text. The band between the rules, with columns from the text, does.
    edges = [
        {"orientation": "h", "x0": 50.0, "x1": 250.0, "top": 118.0, "bottom": 118.0},
        {"orientation": "h", "x0": 50.0, "x1": 250.0, "top": 138.0, "bottom": 138.0},
        {"orientation": "h", "x0": 50.0, "x1": 250.0, "top": 158.0, "bottom": 158.0},
    ]
    lines = row("Station", "Level", 105, 0) + row("S1", "100", 125, 100) + row("S2", "137", 145, 200)
    lines += row("S3", "121", 165, 300)
    table = table_between_rules((100, 118, 200, 158), edges, lines, 1)
    assert table is not None
    assert table.rows == [["Station", "Level"], ["S1", "100"], ["S2", "137"], ["S3", "121"]]


def test_text_no_cell_took_stays_a_line() -> None:
    from parsegate.parsers.pdf import _page
    from parsegate.parsers.pdf.navigation import Navigation
    from parsegate.parsers.pdf.outline import Outline
    from parsegate.parsers.pdf.read import RawPage

    # A partial grid (three cells of four): the page keeps all six words.
    glyphs = [ln.glyphs for ln in grid_lines()]
    edges = [(50, 100, 250, 100), (50, 120, 250, 120), (50, 140, 150, 140), (50, 100, 50, 140), (150, 100, 150, 140)]
    raw = RawPage(1, 595, 842, runs=glyphs, edges=edges)
    page, _ = _page(raw, [], 1, Outline(), Navigation())
    kept = [ln.text for ln in page.lines] + [c for t in page.tables for r in t.rows for c in r]
    assert sorted(" ".join(kept).split()) == ["100", "Level", "S1", "Station"]


def test_columns_of_short_cells_in_rows_are_an_unruled_table() -> None:
    lines = []
    for n, (name, team, ext) in enumerate([("Name", "Team", "Ext"), ("Ana Ruiz", "Survey", "4102"),
                                           ("Ben Okafor", "Lab", "4117"), ("Chen Wei", "Survey", "4120")]):  # fmt: skip
        top = 100 + 14 * n
        lines += [glyph_line(name, 50, top, 100 * n), glyph_line(team, 150, top, 100 * n + 20),
                  glyph_line(ext, 250, top, 100 * n + 40)]  # fmt: skip
    (table,) = unruled_tables(lines, 1)
    assert table.rows[0] == ["Name", "Team", "Ext"] and table.rows[2] == ["Ben Okafor", "Lab", "4117"]


def header_and_rows(header_size: float = 10.0) -> list[Line]:
    # PDFium gives a bold header whose cells are a word space apart as one line; its words start
    # in the columns the rows below make (rivers at x 95-105 and 150-160).
    lines = [glyph_line("Bandwidth Rendering  Covered", 50, 100, 0, size=header_size)]
    for n, cells in enumerate(
        [("Called", "626", "91.2"), ("Including", "311", "59.6"), ("Extend", "validated", "596")]
    ):
        top = 114 + 14 * n
        lines += [
            glyph_line(text, x, top, 100 * (n + 1) + 20 * c, row=n + 1)
            for c, (text, x) in enumerate(zip(cells, (50, 105, 160), strict=True))
        ]
    return lines


def test_a_header_given_as_one_line_is_cut_into_the_columns_below_it() -> None:
    (table,) = unruled_tables(header_and_rows(), 1)
    assert table.rows == [["Bandwidth", "Rendering", "Covered"], ["Called", "626", "91.2"],
                          ["Including", "311", "59.6"], ["Extend", "validated", "596"]]  # fmt: skip
    assert table.header_rows == 1


def test_a_line_set_larger_above_the_rows_is_no_header() -> None:
    (table,) = unruled_tables(header_and_rows(header_size=12.0), 1)
    assert table.rows[0] == ["Called", "626", "91.2"]


def test_prose_in_two_columns_is_no_table() -> None:
    # Two columns whose lines PDFium ran together on each baseline, cut at the gutter.
    prose = [
        "the readings of each station are entered",
        "in the shared log before the end of the day",
        "and a reading without an instrument named",
        "is not accepted by the survey office at all",
        "so every gauge is calibrated once a month",
    ]
    lines = []
    for n, text in enumerate(prose):
        top = 100 + 12 * n
        lines += [glyph_line(text, 50, top, 100 * n, row=n), glyph_line(text[::-1], 330, top, 100 * n + 60, row=n)]
    assert unruled_tables(lines, 1) == []


def test_header_rows_are_detected_not_assumed() -> None:
    assert header_rows([["Name", "Count"], ["a", "1"], ["b", "2"]]) == 1
    assert header_rows([["12", "13"], ["14", "15"]]) == 0
    assert header_rows([["a", ""], ["b", "c"]]) == 0
    # a header cell merged across two columns leaves one empty
    assert header_rows([["No.", "Dates", "", "Amount"], ["A1", "05/03", "05/06", "920.00"]]) == 1


def header_alone_pdf(foot: list[str]) -> bytes:
    """Prose in the left column, ``foot`` at its foot (each string a cell 40 mm apart), and four
    rows of a station table at the top of the right column."""
    from fpdf import FPDF

    doc = FPDF(format="A4")
    doc.add_page()
    doc.set_font("Helvetica", size=10)
    doc.set_xy(20, 30)
    doc.multi_cell(80, 5, "The readings of each station are entered in the log. " * 40)
    for c, text in enumerate(foot):
        doc.set_xy(20 + 40 * c, 270)
        doc.cell(40, 6, text)
    for n, cells in enumerate([("North", "12"), ("South", "15"), ("East", "9"), ("West", "11")]):
        for c, text in enumerate(cells):
            doc.set_xy(110 + 40 * c, 30 + 6 * n)
            doc.cell(40, 6, text)
    return bytes(doc.output())


@pytest.mark.parametrize("foot", [["Station", "Level"], ["Station Level"]])
def test_a_header_row_left_at_the_foot_of_a_column_heads_the_rows_in_the_next(foot: list[str]) -> None:
    # Held-out pdf_structure seeds 47 and 59: four tables lost their header this way (once across
    # a page break), the header a paragraph at the foot of the column before.
    from parsegate.parsers import pdf

    parsed = pdf.parse(header_alone_pdf(foot), "header-alone.pdf")
    (table,) = [e for e in parsed.elements if e.kind == "table"]
    assert table.data.header == ["Station", "Level"]
    assert [parsed.text[e.start : e.end] for e in parsed.elements if e.kind == "paragraph"][1:] == []


def test_a_line_ending_a_sentence_at_the_foot_of_a_column_is_no_header() -> None:
    from parsegate.parsers import pdf

    parsed = pdf.parse(header_alone_pdf(["Values follow."]), "no-header.pdf")
    (table,) = [e for e in parsed.elements if e.kind == "table"]
    assert table.data.header == [] and "Values follow." in parsed.text


@pytest.mark.parametrize("seed", range(30))
def test_cells_from_rule_intersections_are_pdfplumbers_own(seed: int) -> None:
    # Our indexed search must give exactly pdfplumber's cells, in its order, on any rules: full
    # grids, broken rules, rules that stop short, a few rules, many.
    import random

    from pdfplumber.table import edges_to_intersections, intersections_to_cells, merge_edges

    from parsegate.parsers.pdf.tables import _edge
    from parsegate.parsers.pdf.tables import intersections_to_cells as ours

    rng = random.Random(seed)
    xs = sorted(rng.sample(range(0, 400, 10), rng.randint(2, 12)))
    ys = sorted(rng.sample(range(0, 400, 10), rng.randint(2, 12)))
    edges = []
    for x in xs:  # vertical rules, some only part of the way
        top, bottom = (ys[0], ys[-1]) if rng.random() < 0.7 else sorted(rng.sample(ys, 2))
        edges.append(_edge(x, top, x, bottom))
    for y in ys:
        left, right = (xs[0], xs[-1]) if rng.random() < 0.7 else sorted(rng.sample(xs, 2))
        edges.append(_edge(left, y, right, y))
    merged = merge_edges(edges, 3, 3, 3, 3)
    points = edges_to_intersections(merged, 3, 3)
    assert ours(points) == intersections_to_cells(points)


def test_a_ruled_page_costs_about_its_cells_not_their_square() -> None:
    # Issue 12: pdfplumber's cell search scanned every intersection for every intersection (a
    # page ruled 301 by 301 took minutes). Twice the rules each way are four times the cells.
    from benchmarks.suites.hostile.files import grid_pdf
    from parsegate.parsers import pdf
    from tests.cpu import ratio

    small, large = grid_pdf(76), grid_pdf(151)
    assert "c1" in pdf.parse(large, "grid.pdf").text
    took = ratio(lambda: pdf.parse(large, "grid.pdf"), lambda: pdf.parse(small, "grid.pdf"))
    assert took < 10, f"four times the cells took {took:.1f}x the time"  # the square: 16x


def test_a_diagram_beside_a_ruled_table_does_not_pull_its_rules_together(monkeypatch: pytest.MonkeyPatch) -> None:
    # pdfplumber snaps each rule to the mean of every rule within 3 pt of the next across the
    # page: the boxes of a diagram in the other column (edges every 2.5 pt) chained the table's
    # rules together, and the last three rows of a real table became one row (pdf_structure, seed 31).
    table_rules: list[Box] = [(300, 100 + 15 * r, 460, 100.6 + 15 * r) for r in range(6)]
    table_rules += [(x, 100, x + 0.6, 175) for x in (300, 380, 459.4)]
    diagram: list[Box] = [(50, 95 + 2.5 * k, 200, 95.6 + 2.5 * k) for k in range(34)]
    cells = [("Region", "Revenue"), ("North", "4.2"), ("South", "3.1"), ("West", "2.7"), ("East", "1.9")]
    lines = [
        line
        for r, (name, value) in enumerate(cells)
        for line in (
            glyph_line(name, 305, 102 + 15 * r, 10 * r, row=r),
            glyph_line(value, 385, 102 + 15 * r, 10 * r + 5, row=r),
        )
    ]
    assert [len(d) for d in drawings(table_rules + diagram)] == [len(table_rules), len(diagram)]
    (table,) = ruled_tables(table_rules + diagram, lines, 1)
    assert table.rows == [list(c) for c in cells]
    # Snapped as one drawing, as pdfplumber does, the grid no longer holds the table.
    monkeypatch.setattr(tables, "drawings", lambda edges: [list(edges)])
    assert [t.rows for t in ruled_tables(table_rules + diagram, lines, 1)] != [[list(c) for c in cells]]


def table_rows(cells: list[tuple[str, ...]], top: float, index: int, left: float = 50) -> list[Line]:
    return [
        glyph_line(text, left + x, top + 14 * n, index + 10 * n + c, row=index + n)
        for n, row in enumerate(cells)
        for c, (text, x) in enumerate(zip(row, (0, 100, 200), strict=True))
    ]


def test_rows_a_page_break_left_at_the_top_of_the_next_page_go_on_with_the_table() -> None:
    from parsegate.parsers.pdf.layout import Page
    from parsegate.parsers.pdf.unruled import continue_table, open_table

    first = table_rows([("Name", "Team", "Ext"), ("Ana Ruiz", "Survey", "4102"), ("Ben Okafor", "Lab", "4117")], 700, 0)
    before = Page(1, 595, 842, [], unruled_tables(first, 1))
    head = glyph_line("Staff list", 250, 20, 500, row=500)  # a running head above them is no row
    rest = table_rows([("Chen Wei", "Survey", "4120"), ("Dee Park", "Lab", "4133")], 60, 600)
    page = Page(2, 595, 842, [head, *rest])
    assert unruled_tables(rest, 2) == []  # two rows are no table on their own
    above = open_table(before)
    assert above is not None
    continue_table(page, above)
    assert [t.rows for t in page.tables] == [[["Chen Wei", "Survey", "4120"], ["Dee Park", "Lab", "4133"]]]
    assert [ln.text for ln in page.lines] == ["Staff list"]
    # Text below the table on its own page: the table does not go on.
    before.lines = [glyph_line("A closing remark under the table.", 50, 750, 900, row=900)]
    assert open_table(before) is None


def test_a_justified_paragraph_cut_at_its_wide_spaces_is_no_table() -> None:
    from parsegate.parsers.pdf.unruled import _justified

    # A narrow justified column: PDFium cuts a line where justification opened wide spaces, so
    # rows of two or three fragments come between lines it left whole (held-out pdf_structure,
    # seed 11: "At this | point you have the" / "callback | path operation(s)" read as a table).
    def row(n: int, *parts: tuple[str, float]) -> list[Line]:
        return [glyph_line(text, x, 100 + 14 * n, 10 * n + c, row=n) for c, (text, x) in enumerate(parts)]

    paragraph = [
        row(0, ("At this point you have th", 50)),
        row(1, ("callback", 50), ("path", 105), ("operations", 130)),
        row(2, ("needed by the one that an", 50)),
        row(3, ("external", 50), ("developer", 100), ("should", 150)),
    ]
    assert _justified(paragraph)
    # A table as wide as the text, its figures right-aligned: every row is cut at its columns.
    table = [row(n, (name, 50), (f"{value:>6}", 150)) for n, (name, value) in enumerate([("Revenue", 4200),
             ("Costs", 310), ("Net income", 3890)])]  # fmt: skip
    assert not _justified(table)
    # A table whose header PDFium left whole (its cells a word space apart), full width (held-out
    # seed 83: the whole table was lost to this test before it looked past the first row).
    header = row(0, ("Definition Asked Manually T", 50))
    cut = [row(n, ("Base", 50), ("8953", 100), ("edit", 140), ("7383", 165)) for n in range(1, 5)]
    assert not _justified([header, *cut])


def test_rules_over_and_under_the_header_only_take_the_body_rows_below_them() -> None:
    # A booktabs table broken by a column break: its top rule and the rule under its header, and
    # no bottom rule in this column. Every row below that fits the columns is the table's, not
    # just the first (held-out pdf_structure: the rest of the rows were read as text).
    edges = [
        {"orientation": "h", "x0": 50.0, "x1": 250.0, "top": 100.0, "bottom": 100.0},
        {"orientation": "h", "x0": 50.0, "x1": 250.0, "top": 118.0, "bottom": 118.0},
    ]
    lines = row("Station", "Level", 105, 0) + row("S1", "100", 122, 100) + row("S2", "137", 136, 200)
    lines += row("S3", "121", 150, 300)
    lines += [glyph_line("The levels were read at noon on every day of the survey.", 50, 190, 400, row=400)]
    table = table_between_rules((50, 100, 250, 118), edges, lines, 1)
    assert table is not None
    assert table.rows == [["Station", "Level"], ["S1", "100"], ["S2", "137"], ["S3", "121"]]


def test_rows_at_the_top_of_the_first_column_go_on_with_a_table_that_ended_in_the_last() -> None:
    from parsegate.parsers.pdf.layout import Page
    from parsegate.parsers.pdf.unruled import continue_table, open_table

    # The table ends the right column of page 1 (the left column runs lower: read before it) and
    # goes on at the top of page 2's left column, beside the right column's first line.
    first = table_rows([("Name", "Team", "Ext"), ("Ana Ruiz", "Survey", "4102"), ("Ben Okafor", "Lab", "4117")],
                       700, 0, left=300)  # fmt: skip
    left_column = [glyph_line("the last line of the left column", 50, 740, 90, row=90)]
    before = Page(1, 595, 842, left_column, unruled_tables(first, 1))
    rest = table_rows([("Chen Wei", "Survey", "4120"), ("Dee Park", "Lab", "4133")], 60, 600)
    beside = glyph_line("A note that heads the right column.", 320, 58, 700, row=700)
    page = Page(2, 595, 842, [*rest, beside])
    above = open_table(before)
    assert above is not None
    continue_table(page, above)
    assert [t.rows for t in page.tables] == [[["Chen Wei", "Survey", "4120"], ["Dee Park", "Lab", "4133"]]]
    assert [ln.text for ln in page.lines] == ["A note that heads the right column."]


def test_a_header_under_its_caption_at_a_page_foot_heads_the_rows_on_the_next_page() -> None:
    # The page's notes come after the header in reading order: they wait, as they do for a table
    # that runs on, instead of coming between the header and its rows (held-out seed 23).
    from fpdf import FPDF

    from parsegate.parsers import pdf

    doc = FPDF(format="A4")
    doc.add_page()
    doc.set_font("Helvetica", size=10)
    doc.set_xy(20, 30)
    doc.multi_cell(170, 5, "The readings of each station are entered in the log. " * 50)
    doc.set_xy(20, 255)
    doc.cell(170, 6, "Table 1: Levels by station.")
    for c, text in enumerate(("Station", "Level")):
        doc.set_xy(20 + 40 * c, 262)
        doc.cell(40, 6, text)
    doc.set_font("Helvetica", size=7)
    doc.set_xy(20, 275)
    doc.cell(170, 4, "* Levels are in centimetres.")
    doc.add_page()
    doc.set_font("Helvetica", size=10)
    for n, cells in enumerate([("North", "12"), ("South", "15"), ("East", "9")]):
        for c, text in enumerate(cells):
            doc.set_xy(20 + 40 * c, 30 + 6 * n)
            doc.cell(40, 6, text)
    parsed = pdf.parse(bytes(doc.output()), "header-page-foot.pdf")
    (table,) = [e for e in parsed.elements if e.kind == "table"]
    assert table.data.header == ["Station", "Level"]
    kinds = [e.kind for e in parsed.elements if e.kind not in ("table_row", "furniture")]
    assert kinds == ["paragraph", "caption", "table", "footnote"]


# A form as word processors draw it: borders as thin rules; each label cell shaded grey edge to
# edge, and again by a rectangle of the same grey set inside the borders behind each of the
# cell's lines.
FORM_RULES: list[Box] = [
    *[(50, y, 250, y + 0.5) for y in (100, 120, 150)],
    *[(x, 100, x + 0.5, 150) for x in (50, 150, 250)],
]
GREY = (229, 223, 236, 255)


def box_sides(x0: float, top: float, x1: float, bottom: float) -> list[Box]:
    return [(x0, top, x1, top), (x0, bottom, x1, bottom), (x0, top, x0, bottom), (x1, top, x1, bottom)]


def shaded(box: Box, colour: tuple[int, int, int, int] = GREY) -> Shading:
    return Shading(box, colour, box_sides(*box))


FORM_SHADING = [
    shaded((50.5, 100.5, 150, 120)),
    shaded((53, 102, 147, 118)),
    shaded((50.5, 120.5, 150, 150)),
    shaded((53, 122, 147, 135)),
    shaded((53, 135, 147, 148)),
]


def form_lines() -> list[Line]:
    return [
        glyph_line("Station", 55, 105, 0, row=0),
        glyph_line("Level", 155, 105, 10, row=1),
        glyph_line("North", 55, 123, 20, row=2),
        glyph_line("100", 155, 125, 30, row=3),
        glyph_line("gate", 55, 137, 40, row=4),
    ]


def test_shading_shows_only_where_its_colour_meets_another() -> None:
    # Of the form's shading only the cell backgrounds' sides show (grey on white), and they lie
    # on the borders; the rectangles behind the lines are grey on grey, and so is the side
    # where the two backgrounds meet.
    first, second = box_sides(50.5, 100.5, 150, 120), box_sides(50.5, 120.5, 150, 150)  # top, bottom, left, right
    shown = shown_sides(FORM_SHADING)
    assert sorted(shown) == sorted([first[0], first[2], first[3], second[1], second[2], second[3]])
    (table,) = ruled_tables(FORM_RULES + shown, form_lines(), 1)
    assert table.rows == [["Station", "Level"], ["North gate", "100"]]
    # Every side taken for a rule cuts slivers of columns and a row out of the label cells.
    (broken,) = ruled_tables(FORM_RULES + [side for s in FORM_SHADING for side in s.sides], form_lines(), 1)
    assert broken.rows != table.rows


def test_a_white_box_on_the_white_page_draws_nothing_cells_of_two_colours_do() -> None:
    assert shown_sides([shaded((50, 100, 250, 140), (255, 255, 255, 255))]) == []
    # Banded rows with no rules: each row's colour meets the next one's and the white page.
    bands = [shaded(cell, (220, 220, 220, 255) if n < 2 else (255, 255, 200, 255)) for n, cell in enumerate(GRID)]
    (table,) = ruled_tables(shown_sides(bands), grid_lines(), 1)
    assert table.rows == [["Station", "Level"], ["S1", "100"]]


def test_a_right_to_left_cell_reads_its_pieces_from_the_right() -> None:
    from parsegate.parsers.pdf.layout import Glyph
    from parsegate.parsers.pdf.lines import build_lines

    style = glyph_line("x", 0, 0).style

    def word(text: str, x1: float, index: int, top: float = 105) -> list[Glyph]:
        return [Glyph(c, x1 - 5 * (n + 1), top, x1 - 5 * n, top + 10, style, index + n) for n, c in enumerate(text)]

    # One cell (x 50-250): two pieces of one line far apart (PDFium cut them), and a lam-alef
    # ligature PDFium gives as alef then lam on one box.
    right = word("\u062d\u062f\u0627\u0642\u0644", 245, 0)
    left = word("\u062a\u0646", 120, 10)
    ligature = [Glyph("\u0627", 60, 125, 70, 135, style, 20), Glyph("\u0644", 60, 125, 70, 135, style, 21)]
    lines, _ = build_lines([right + left, [*word("\u06a9", 75, 19, top=125), *ligature]], 1)
    assert len(lines) == 3
    cells: list[Box] = [(50, 100, 250, 120), (50, 120, 250, 140), (250, 100, 300, 120), (250, 120, 300, 140)]
    table = grid_table(cells, [*lines, glyph_line("a", 255, 105, 30, row=9), glyph_line("b", 255, 125, 31, row=10)], 1)
    assert table is not None
    assert [r[0] for r in table.rows] == ["\u062d\u062f\u0627\u0642\u0644 \u062a\u0646", "\u06a9\u0644\u0627"]


def test_a_filled_box_draws_its_sides_where_they_show_a_stroked_one_always() -> None:
    from parsegate.parsers.pdf.read import open_pdf, read_page
    from tests.pdf_samples import assemble

    content = (
        b"0 0 0 rg 50 700 200 0.5 re f\n"  # a rule (a thin filled rectangle)
        b"0.9 0.9 0.9 rg 60 600 100 50 re f\n"  # grey on the white page
        b"1 1 1 rg 60 500 100 50 re f\n"  # white on the white page: nothing shows
        b"0 0 0 RG 300 600 100 50 re S\n"  # a frame: stroked
        b"1 1 1 rg 300 500 100 50 re B\n"  # filled white and stroked: the stroke shows
    )
    pdf = open_pdf(
        assemble([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        ])
    )  # fmt: skip
    corners = sorted({(round(b[0]), round(b[1])) for b in read_page(pdf, 0).edges})
    assert corners == [
        (50, 142),
        (60, 192),
        (60, 242),
        (160, 192),
        (300, 192),
        (300, 242),
        (300, 292),
        (300, 342),
        (400, 192),
        (400, 292),
    ]


def test_one_ruled_row_is_no_table() -> None:
    # A letterhead: a title and a company's name in two boxes side by side.
    assert grid_table(GRID[:2], row("Prospectus", "Exchange", 105, 0), 1) is None
    assert grid_table(GRID, grid_lines(), 1) is not None
    # At the top of a page after one that ended with a table: its last row, left by the break.
    (table,) = ruled_tables(
        FORM_RULES[:2] + [(x, 100, x + 0.5, 120) for x in (50, 150, 250)], row("S9", "87", 105, 0), 2, goes_on=True
    )
    assert table.rows == [["S9", "87"]]


def test_a_table_ruled_across_with_no_rules_at_its_sides_is_a_grid() -> None:
    # A report's table: rules across above and below each row and between its columns, none at
    # its left and right (the Korean article of the dev set). Only the middle column made cells.
    across: list[Box] = [(50, y, 250, y + 0.6) for y in (100, 120, 160)]
    between: list[Box] = [(150, 100, 150.6, 160.6)]
    lines = [
        *row("Class", "Diseases", 105, 0),
        glyph_line("Scope", 55, 125, 100, row=100),
        glyph_line("cholera, typhoid,", 155, 123, 110, row=110),
        glyph_line("of class", 55, 137, 120, row=120),
        glyph_line("shigellosis and", 155, 134, 130, row=130),
        glyph_line("hepatitis A", 155, 145, 140, row=140),
    ]
    (table,) = ruled_tables(across + between, lines, 1)
    assert table.rows == [["Class", "Diseases"], ["Scope of class", "cholera, typhoid, shigellosis and hepatitis A"]]
    # Rules across alone are left to the rows-between-rules reading (booktabs), not closed here.
    assert tables._open_sides([tables._edge(*e) for e in across]) == []


def test_a_page_number_over_a_picture_at_the_foot_is_the_pages() -> None:
    # A decorated page: a picture along its foot, a label in it, and the page's number set over
    # it. The label stays the picture's text; the number is the page's (furniture), as anywhere
    # else at the foot of a page.
    from parsegate.parsers.pdf import _page
    from parsegate.parsers.pdf.navigation import Navigation
    from parsegate.parsers.pdf.outline import Outline
    from parsegate.parsers.pdf.read import RawPage
    from parsegate.parsers.pdf.typography import furniture_lines
    from tests.pdf_samples import glyphs

    body = [
        glyphs("A paragraph of body text that runs on across the page.", 50, 100 + 12 * n, 100 * n) for n in range(5)
    ]
    raw = RawPage(1, 595, 842, runs=[*body, glyphs("Harbour", 200, 760, 800), glyphs("11", 60, 812, 900)])
    raw.images.append((30, 700, 400, 842))
    page, _ = _page(raw, [], 1, Outline(), Navigation())
    assert [[ln.text for ln in f.lines] for f in page.figures] == [["Harbour"]]
    assert [ln.text for ln in furniture_lines([page], page.lines[0].style)] == ["11"]


def test_a_table_ruled_only_in_part_keeps_the_columns_its_text_shows() -> None:
    # Rules across, and one rule between the stub column and the rest: closed at its sides the
    # grid has two columns, where the text stands in three. The reading between the rules wins.
    across: list[Box] = [(50, y, 350, y + 0.6) for y in (100, 120, 160)]
    between: list[Box] = [(150, 100, 150.6, 160.6)]
    lines = [
        *[
            glyph_line(t, x, 105, n, row=0)
            for n, (t, x) in enumerate([("Station", 55), ("Level", 155), ("Gauge", 255)])
        ],
        *[
            glyph_line(t, x, 125, 10 + n, row=1)
            for n, (t, x) in enumerate([("North", 55), ("100", 155), ("Staff", 255)])
        ],
        *[
            glyph_line(t, x, 142, 20 + n, row=2)
            for n, (t, x) in enumerate([("South", 55), ("87", 155), ("Radar", 255)])
        ],
    ]
    (table,) = ruled_tables(across + between, lines, 1)
    assert table.rows == [["Station", "Level", "Gauge"], ["North", "100", "Staff"], ["South", "87", "Radar"]]


def _cells(rule: Box) -> set[tuple[int, int]]:
    gap, half = tables._DRAWING_GAP, tables._DRAWING_GAP / 2
    x0, top, x1, bottom = rule
    return {
        (bx, by)
        for bx in range(int((x0 - half) // gap), int((x1 + half) // gap) + 1)
        for by in range(int((top - half) // gap), int((bottom + half) // gap) + 1)
    }


_RULE = st.tuples(st.floats(0, 300), st.floats(0, 300), st.floats(0, 120), st.booleans(), st.floats(0.2, 2)).map(
    lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[4]) if t[3] else (t[0], t[1], t[0] + t[4], t[1] + t[2])
)


@given(st.lists(_RULE, max_size=25))
@settings(max_examples=300, deadline=None)
def test_drawings_are_the_rules_joined_through_shared_cells(rules: list[Box]) -> None:
    # The oracle: every pair of rules sharing a grid cell is joined, and groups come in the
    # order of their first rule, each in the rules' order.
    group = list(range(len(rules)))
    cells = [_cells(r) for r in rules]
    for a in range(len(rules)):
        for b in range(a):
            if cells[a] & cells[b] and group[a] != group[b]:
                old, new = max(group[a], group[b]), min(group[a], group[b])
                group = [new if g == old else g for g in group]
    expected: dict[int, list[Box]] = {}
    for rule, g in zip(rules, group, strict=True):
        expected.setdefault(g, []).append(rule)
    assert drawings(rules) == list(expected.values())
