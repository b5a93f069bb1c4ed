"""Reading order on synthetic boxes (no PDF): lines grouped into blocks, blocks cut by XY-cut."""

from __future__ import annotations

from parsegate.parsers.pdf import _order
from parsegate.parsers.pdf.figures import Mark, figure_regions
from parsegate.parsers.pdf.layout import Figure, Line, Page, Table
from parsegate.parsers.pdf.order import Block, group_lines, item_block, order_blocks
from tests.pdf_samples import box_line

PITCH = 12.0  # 10 pt type on 12 pt leading


def column(x0: float, x1: float, tops: list[float], first: int, step: int = 1) -> list[Line]:
    """Lines of one column, one per top, numbered in stream order from ``first`` (step 0: the
    stream says nothing about their order)."""
    return [box_line(x0, top, x1, first + n * step) for n, top in enumerate(tops)]


def paragraphs(start: float, *sizes: int, gap: float = 2 * PITCH) -> list[float]:
    """Tops of paragraphs of so many lines each, a blank line apart."""
    tops, y = [], start
    for size in sizes:
        tops += [y + n * PITCH for n in range(size)]
        y += size * PITCH + gap
    return tops


def reading(blocks: list[Block]) -> list[int]:
    """The stream index of every line, in the order read (a figure reads as -1)."""
    return [ln.index for b in order_blocks(blocks) for ln in (b.lines or [box_line(0, 0, 1, -1)])]


def test_two_columns_on_a_shared_baseline_grid_read_column_by_column() -> None:
    # Both columns break their paragraphs at the same heights, so blank bands run right across
    # the page; cut at those first, the page would be read L1 R1 L2 R2.
    tops = paragraphs(100, 4, 4, 3)
    left, right = column(50, 280, tops, 0), column(310, 540, tops, 100)
    assert reading(group_lines(left + right)) == [ln.index for ln in left + right]


def test_without_a_say_from_the_stream_columns_still_come_first() -> None:
    tops = paragraphs(100, 4, 4, 3)
    left, right = column(50, 280, tops, 0, step=0), column(310, 540, tops, 0, step=0)  # all alike
    blocks = group_lines(left + right)
    order = [(round(b.x0), round(b.top)) for b in order_blocks(blocks)]
    assert order == [(50, 100), (50, 172), (50, 244), (310, 100), (310, 172), (310, 244)]


def test_two_stacked_two_column_sections_are_read_section_by_section() -> None:
    # No full-width block between the sections, and the gap between them no wider than the
    # gaps between paragraphs: only the content stream can tell this from two long columns.
    upper, lower = paragraphs(100, 3, 3), paragraphs(100 + 6 * PITCH + 4 * PITCH, 3, 3)
    lines = column(50, 280, upper, 0) + column(310, 540, upper, 10) + column(50, 280, lower, 20)
    lines += column(310, 540, lower, 30)
    assert reading(group_lines(lines)) == sorted(ln.index for ln in lines)


def test_stacked_sections_apart_by_a_wide_gap_need_no_say_from_the_stream() -> None:
    upper, lower = paragraphs(100, 3, 3), paragraphs(100 + 8 * PITCH + 40, 3, 3)
    lines = [*column(50, 280, upper, 0, 0), *column(310, 540, upper, 0, 0), *column(50, 280, lower, 0, 0)]
    lines += column(310, 540, lower, 0, 0)
    order = [(round(b.x0), round(b.top)) for b in order_blocks(group_lines(lines))]
    assert order == [(50, 100), (50, 160), (310, 100), (310, 160), (50, 236), (50, 296), (310, 236), (310, 296)]


def test_a_spanning_title_and_figure_cut_the_columns_into_bands() -> None:
    title = [box_line(120, 60, 470, 0, size=18)]
    upper = paragraphs(100, 3, 3)
    lower = paragraphs(330, 3, 3)
    lines = title + column(50, 280, upper, 10) + column(310, 540, upper, 20)
    lines += column(50, 280, lower, 30) + column(310, 540, lower, 40)
    figure = item_block(Figure(1, 60, 196, 530, 310, index=25))
    order = reading([*group_lines(lines), figure])
    assert order == [0, *range(10, 16), *range(20, 26), -1, *range(30, 36), *range(40, 46)]


def test_a_two_page_spread_on_one_sheet_reads_left_page_then_right_page() -> None:
    tops = paragraphs(90, 1, 5, 5)
    left, right = column(60, 530, tops, 0), column(655, 1125, tops, 100)
    assert reading(group_lines(left + right)) == [ln.index for ln in left + right]


def test_a_page_without_columns_whose_order_the_stream_contradicts_keeps_the_stream() -> None:
    # Never worse than the text layer: scattered blocks, no gutter, and the content stream
    # orders them bottom to top on every pair (top to bottom would read 50, 49, ... 46).
    lines = [box_line(50 + 60 * n, 100 + 40 * n, 200 + 60 * n, 50 - n) for n in range(5)]
    assert reading(group_lines(lines)) == [46, 47, 48, 49, 50]


def test_lines_of_a_paragraph_form_one_block_and_a_heading_its_own() -> None:
    heading = box_line(50, 80, 200, 0, size=14)
    body = column(50, 280, paragraphs(100, 4), 1)
    blocks = group_lines([heading, *body])
    assert [[ln.index for ln in b.lines] for b in blocks] == [[0], [1, 2, 3, 4]]


def test_two_figures_whose_images_reach_across_the_gutter_stay_two_figures() -> None:
    # A manual page: a figure at the foot of each column, each image's bounds (white included)
    # reaching into the other column. Joined, their box held the left column's prose, so the
    # region was taken for a text box and every label became a paragraph of the body.
    prose = [box_line(72, 400 + 12 * n, 309, n, text="one two three four five six seven eight") for n in range(8)]
    right_text = [
        box_line(321, 400 + 12 * n, 558, 20 + n, text="one two three four five six seven eight") for n in range(3)
    ]
    labels = [box_line(90, 560, 150, 40, text="Boots nut"), box_line(420, 470, 480, 41, text="Nut case")]
    marks = [Mark((71.0, 535.0, 341.0, 606.0), "image"), Mark((320.0, 451.0, 530.0, 588.0), "image")]
    figures = figure_regions(marks, [*prose, *right_text, *labels], [], 612, 792, 1)
    assert sorted([ln.text for ln in f.lines] for f in figures) == [["Boots nut"], ["Nut case"]]


def test_a_band_behind_one_line_of_text_is_no_figure() -> None:
    # A numbered section heading on a coloured image strip: read as a figure, its text went
    # after the paragraphs below it as figure text, and the section had no heading.
    number = box_line(75, 431, 80, 3, size=12, text="1")
    title = box_line(95, 431, 143, 4, size=12, text="Introduction")
    assert figure_regions([Mark((65.0, 421.0, 299.0, 449.0), "image")], [number, title], [], 595, 842, 1) == []


def test_a_region_holding_a_heading_the_outline_names_is_no_figure() -> None:
    # AMC's manual: an admonition's icon (an image) and a listing's shaded box joined into one
    # region around a section heading, its prose and its listing; all of it became figure text
    # and the section "Simple questions" had no heading.
    heading = box_line(72, 300, 200, 1, size=12, text="5.4.3.1 Simple questions")
    code = [box_line(90, 320 + 12 * n, 300, 2 + n, text="\\correctchoice{x}") for n in range(6)]
    marks = [Mark((60.0, 290.0, 90.0, 320.0), "image"), Mark((85.0, 318.0, 320.0, 395.0), "box")]
    assert len(figure_regions(marks, [heading, *code], [], 595, 842, 1)) == 1
    named = figure_regions(marks, [heading, *code], [], 595, 842, 1, lambda ln: ln is heading)
    assert named == []


def test_a_page_read_from_the_right_reads_its_right_column_first_and_its_rows_from_the_right() -> None:
    # A Persian form: label cells on the right, values on the left. Read left first, every
    # value came before its label and each table row read backwards.
    label = [
        box_line(
            400, 160 + 14 * n, 520, n, text="\u0646\u0627\u0645 \u0627\u0633\u062a\u0627\u0646\u062f\u0627\u0631\u062f"
        )
        for n in range(3)
    ]
    value = [
        box_line(70, 160 + 14 * n, 260, 10 + n, text="\u0634\u0645\u0634\u0647 \u0648 \u0634\u0645\u0634\u0627\u0644")
        for n in range(3)
    ]
    table = Table(1, [["1403/09/19", "\u062a\u0627\u0631\u064a\u062e"]], 70, 300, 520, 330, index=50)
    page = Page(1, 595, 842, [*value, *label], [table])
    order = [b.lines[0].index if b.lines else -1 for b in _order(page, set(), lambda _: False)]
    assert order == [0, 10, -1]
    assert table.rows == [["\u062a\u0627\u0631\u064a\u062e", "1403/09/19"]]
