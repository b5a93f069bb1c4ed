"""Headings, their levels, and page furniture, on synthetic lines (no PDF)."""

from __future__ import annotations

from parsegate.parsers.pdf.layout import Bookmark, Line, Page, Style
from parsegate.parsers.pdf.order import Block, text_block
from parsegate.parsers.pdf.typography import body_style, find_headings, furniture_lines

BODY = Style("Serif", 10.0)
BOLD = Style("Serif-Bold", 10.0, bold=True)


def line(text: str, top: float, style: Style = BODY, x0: float = 50, page: int = 1, index: int = 0) -> Line:
    return Line(page, text, x0, top, x0 + 6 * len(text), top + style.size, style, True, index, index)


def body(top: float, n: int = 3, page: int = 1) -> list[Line]:
    return [line("body text of the section goes on here for a while", top + 12 * k, page=page) for k in range(n)]


def headings(pages: list[list[Line]], outline: list[Bookmark] | None = None) -> list[tuple[str, int]]:
    laid: list[tuple[Page, list[Block]]] = []
    for number, lines in enumerate(pages, start=1):
        page = Page(number, 595, 842, lines)
        laid.append((page, [text_block([ln]) for ln in lines]))
    found, _ = find_headings(laid, body_style(p for p, _ in laid), outline or [])
    return [(h.text, h.level) for _, blocks in laid for b in blocks if (h := found.get(b))]


def test_body_style_is_the_style_of_most_characters() -> None:
    page = Page(1, 595, 842, [line("Title", 50, Style("Sans", 20.0)), *body(100)])
    assert body_style([page]) == BODY


def test_a_short_bold_line_at_body_size_heads_what_follows_but_not_on_a_bold_page() -> None:
    assert headings([[line("Scope", 80, BOLD), *body(100)]]) == [("Scope", 1)]
    # a form: most lines bold, so bold marks nothing there
    form = [line(f"Field {n}", 80 + 24 * n, BOLD) for n in range(6)] + body(300, 2)
    assert headings([form]) == []


def test_never_smaller_than_the_body_and_never_a_sentence() -> None:
    small_bold = line("Figure label", 80, Style("Serif-Bold", 8.0, bold=True))
    sentence = line("This bold line is a whole sentence.", 120, BOLD)
    assert headings([[small_bold, sentence, *body(160, 6)]]) == []


def test_a_modest_size_step_is_enough_1_5_pt_over_the_body() -> None:
    assert headings([[line("Methods", 80, Style("Serif", 11.5)), *body(100)]]) == [("Methods", 1)]


def test_display_type_seen_once_shares_the_first_level_and_sections_rank_below() -> None:
    cover = [line("Annual", 60, Style("Sans", 30.0)), line("Report", 100, Style("Sans", 24.0))]
    sections = [line("Overview", 200, Style("Sans-Bold", 14.0, bold=True)), *body(220),
                line("Results", 300, Style("Sans-Bold", 14.0, bold=True)), *body(320),
                line("Details", 400, Style("Sans-Bold", 12.0, bold=True)), *body(420)]  # fmt: skip
    assert headings([cover + sections]) == [
        ("Annual", 1), ("Report", 1), ("Overview", 2), ("Results", 2), ("Details", 3),
    ]  # fmt: skip


def test_a_deeper_section_number_goes_deeper_within_one_style() -> None:
    style = Style("Serif-Bold", 12.0, bold=True)
    lines = [line("2 Methods", 80, style), *body(100), line("2.1 Sampling", 160, style), *body(180)]
    assert headings([lines]) == [("2 Methods", 1), ("2.1 Sampling", 2)]


def test_outline_levels_start_below_a_title_the_outline_leaves_out() -> None:
    title = line("Field Manual", 50, Style("Sans", 24.0))
    chapter = line("Gauges", 100, Style("Sans-Bold", 14.0, bold=True))
    outline = [Bookmark("Gauges", 1, 1), Bookmark("Upkeep", 1, 1)]
    lines = [title, chapter, *body(120), line("Upkeep", 200, Style("Sans-Bold", 14.0, bold=True)), *body(220)]
    assert headings([lines], outline) == [("Field Manual", 1), ("Gauges", 2), ("Upkeep", 2)]


def test_furniture_roman_folios_and_a_running_head_that_alternates() -> None:
    pages = []
    for n, folio in enumerate(("iii", "iv", "v", "vi"), start=1):
        head = line("Field Manual" if n % 2 else "Chapter 2: Gauges", 30, Style("Sans", 8.0), page=n)
        pages.append(Page(n, 420, 595, [head, *body(80, 8, page=n), line(folio, 560, Style("Sans", 8.0), page=n)]))
    found = furniture_lines(pages, BODY)
    assert sorted(ln.text for ln in found) == sorted(
        ["Field Manual"] * 2 + ["Chapter 2: Gauges"] * 2 + ["iii", "iv", "v", "vi"]
    )


def test_a_folio_line_on_a_page_of_its_own_but_not_a_footnote() -> None:
    folio = Page(1, 595, 842, [*body(100, 20), line("Annual report 2024 12", 800)])
    assert [ln.text for ln in furniture_lines([folio], BODY)] == ["Annual report 2024 12"]
    footnote = Page(1, 595, 842, [*body(100, 20), line("12 Calibration follows the manual", 800)])
    assert furniture_lines([footnote], BODY) == set()


def piece(text: str, x0: float, top: float, row: int, index: int) -> Line:
    """A fragment of a PDFium line cut at a wide gap (fragments of one line share its row)."""
    return Line(2, text, x0, top, x0 + 6 * len(text), top + 10, BODY, True, index, row)


def test_a_number_in_a_table_row_at_the_top_of_a_page_is_no_folio() -> None:
    # A table cut by a page break leaves its last rows at the top of the next page: "8058" stands
    # alone in the top band like a page number (rows padded a line apart), but it is a cell of a
    # row whose column goes on below it.
    rows = [
        piece("Files", 58, 67, 5, 1), piece("8058", 127, 67, 5, 2), piece("benefit 8367", 194, 67, 5, 3),
        piece("Once", 58, 89, 6, 4), piece("returning", 127, 89, 6, 5), piece("special", 194, 89, 6, 6),
        piece("7817", 250, 89, 6, 7),
    ]  # fmt: skip
    page = Page(2, 595, 842, [*rows, *body(200, 20, page=2)])
    assert furniture_lines([page], BODY) == set()
    # A running head with the page number at its end, over text that does not line up with it.
    head = [piece("Annual report", 50, 40, 1, 1), piece("12", 530, 40, 1, 2)]
    page = Page(2, 595, 842, [*head, *body(80, 20, page=2)])
    assert [ln.text for ln in furniture_lines([page], BODY)] == ["12"]


def doubts(lines: list[Line]) -> list[tuple[str, list[str]]]:
    laid = [(Page(1, 595, 842, lines), [text_block([ln]) for ln in lines])]
    _, doubtful = find_headings(laid, body_style(p for p, _ in laid), [])
    return [(b.lines[0].text, w.against) for b, w in doubtful]


def test_labels_side_by_side_are_no_headings_and_say_why() -> None:
    # A diagram's four labels in larger type over coloured shapes, one beside the other: each
    # became a heading, and the paragraph under the diagram was filed under the last label.
    big = Style("Sans-Bold", 12.0, bold=True)
    labels = [line(text, 500, big, x0=x0) for text, x0 in
              (("Human development", 60), ("National security", 180), ("Competitive economy", 300))]  # fmt: skip
    lines = [*body(300), *labels, *body(560)]
    assert headings([lines]) == []
    assert [why for _, why in doubts(lines)] == [["one of several labels side by side"]] * 3
    # One such line alone over the body is a heading.
    assert headings([[*body(300), labels[0], *body(560)]]) == [("Human development", 1)]


def test_a_table_title_in_any_of_its_languages_is_no_heading() -> None:
    big = Style("Sans-Bold", 12.0, bold=True)
    for title in (
        "Table 2: Tabulated adverse reactions",
        "[\ud45c 1] \uac10\uc5fc\ubcd1 \ube44\uad50",
        "Abb. 3 Aufbau",
    ):
        lines = [*body(300), line(title, 400, big), *body(420)]
        assert headings([lines]) == [] and doubts(lines) == [(title, ["a figure or table label"])]


def test_a_bookmark_names_one_heading_the_first_that_reads_as_its_title() -> None:
    # R's data manual: a sentence ending "... binary files." on the page of the bookmark "5
    # Binary files" was a heading at the chapter's level (its lower-case start against the
    # title's capital); gnuplot's part "Gnuplot" named its heading and, again, a later line.
    big = Style("Serif-Bold", 14.0, bold=True)
    page = [
        line("5 Binary files", 60, big),
        *body(80, 2),
        line("binary files.", 110),
        line("Gnuplot", 130, big),
        *body(150, 2),
        line("Gnuplot", 180, big),
        *body(200, 2),
    ]
    outline = [Bookmark("5 Binary files", 1, 1), Bookmark("I Gnuplot", 1, 1)]
    assert headings([page], outline) == [("5 Binary files", 1), ("Gnuplot", 1), ("Gnuplot", 2)]


def test_the_next_section_number_in_a_bold_form_heads_a_section_but_a_list_item_not() -> None:
    # A Persian form (dev right_to_left_03): its label cells are bold at 14 pt and outnumber the
    # values, so bold 14 is the body, and "-3 پذيرش در بورس" in that style, standing alone
    # after the heading "-2-5 استاندارد کالا", was read as text.
    heavy = Style("Sans-Bold", 10.0, bold=True)
    big = Style("Sans-Bold", 12.0, bold=True)

    def labels(top: float) -> list[Line]:
        return [line("name of the standard held by the producer", top + 12 * k, heavy) for k in range(4)]

    form = [line("-2-5 Standard", 60, big), *labels(80), line("-3 Admission", 140, heavy), *labels(160)]
    assert headings([form]) == [("-2-5 Standard", 1), ("-3 Admission", 1)]
    # A deeper number goes one level deeper than the heading it follows.
    deeper = [line("2 Scope", 60, big), *labels(80), line("2.1 Terms", 140, heavy), *labels(160)]
    assert headings([deeper]) == [("2 Scope", 1), ("2.1 Terms", 2)]
    # Items of a list in that style: "3." follows item "2.", not the heading.
    items = [line(f"{n}. Admission step", 130 + 12 * n, heavy) for n in (1, 2, 3)]
    assert headings([[line("2 Scope", 60, big), *labels(80), *items, *labels(200)]]) == [("2 Scope", 1)]
    # Not the next number, or another scheme: text.
    for text in ("-4 Admission", "3 Admission", "-2-5-2 Admission"):
        lines = [line("-2-5 Standard", 60, big), *labels(80), line(text, 140, heavy), *labels(160)]
        assert headings([lines]) == [("-2-5 Standard", 1)], text


def test_the_next_number_after_a_heading_weighs_for_a_bold_line_over_a_label() -> None:
    # A council's minutes (shared corpus 2023-06-20-PV.pdf): items "1." to "5." are bold lines,
    # and "4. Demande de démolition …", over the bold label "Résolution DM-2023-001", was text
    # (a bold line over another is a label over its value) while "3." and "5." were headings.
    item = "{}. Request to demolish the rear of 1069, boulevard de Sainte-Adèle"  # 11 words
    label = line("Resolution DM-2023-001", 150, BOLD, x0=200)
    page = [line(item.format(3), 60, BOLD), *body(80, 2), line(item.format(4), 130, BOLD), label, *body(170, 3)]
    assert headings([page]) == [(item.format(3), 1), (item.format(4), 1)]
    # Without a heading numbered just before it, such a line stays text.
    alone = [line("Minutes", 40, BOLD), *body(60, 2), line(item.format(4), 130, BOLD), label, *body(170, 3)]
    assert headings([alone]) == [("Minutes", 1)]


def test_a_candidate_followed_at_once_by_a_heading_as_large_opens_no_section() -> None:
    # makeindex.pdf (TeX Live's docs): the author line "Leslie Lamport", set a point over the
    # body, was a heading whose section was empty: the chapter heading came next. Likewise a
    # figure's labels (R-intro's "Plot region") and a sample letter's address (scrguide).
    body11 = Style("CMR10", 11.0)
    text = [Line(1, "MakeIndex is a program for making an index in a document", 126, 264 + 13 * k,
                 484, 275 + 13 * k, body11, True, 10 + k, 10 + k) for k in range(6)]  # fmt: skip
    title = line("MakeIndex: An Index Processor", 127, Style("CMR17", 17.0), index=1)
    author = line("Leslie Lamport", 168, Style("CMR12", 12.0), index=2)
    chapter = line("1 How to Use MakeIndex", 237, Style("CMBX10", 14.5, bold=True), index=3)
    assert headings([[title, author, chapter, *text]]) == [
        ("MakeIndex: An Index Processor", 1),
        ("1 How to Use MakeIndex", 2),
    ]
    # btxdoc.pdf: the author and the date, each 1.2 times the body's size, one over the other.
    big = Style("CMR12", 12.0)
    text10 = [line("body text of the section goes on here for a while", 264 + 12 * k, index=10 + k) for k in range(6)]
    page = [
        line("BibTeXing", 127, Style("CMR17", 17.0), index=1),
        line("Oren Patashnik", 168, big, index=2),
        line("February 8, 1988", 193, big, index=3),
        line("1 Overview", 237, Style("CMBX10", 14.5, bold=True), index=4),
        *text10,
    ]
    assert headings([page]) == [("BibTeXing", 1), ("1 Overview", 2)]
    # A heading over its subheading, set smaller, opens a section that starts with the other.
    section = line("1.1 Input", 237, Style("CMBX10", 12.0, bold=True), index=3)
    assert headings([[line("1 Usage", 200, Style("CMBX10", 14.5, bold=True), index=2), section, *text]]) == [
        ("1 Usage", 1),
        ("1.1 Input", 2),
    ]


def test_a_large_stamp_at_the_same_place_on_many_pages_is_furniture() -> None:
    # auto-multiple-choice's sample-separate.pdf: "DRAFT" at 89.5 pt across each of 60 pages
    # was 61 headings, every chunk filed under it. Each copy repeats its questions at the same
    # places too: those, at the body's size, stay text.
    stamp = Style("CMR17", 89.5)
    pages = [
        Page(n, 612, 792, [line("DRAFT", 267, stamp, x0=188, page=n), line("Question 1", 212, BOLD, page=n),
                           *body(230, 6, page=n)])
        for n in range(1, 6)
    ]  # fmt: skip
    assert sorted(ln.text for ln in furniture_lines(pages, BODY)) == ["DRAFT"] * 5
    # On two pages of five it is the document's (a big title repeated).
    assert furniture_lines(pages[:2] + [Page(n, 612, 792, body(230, 6, page=n)) for n in (3, 4, 5)], BODY) == set()
