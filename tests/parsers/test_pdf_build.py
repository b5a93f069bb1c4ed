"""Text blocks into elements (build.py), on synthetic lines (no PDF)."""

from __future__ import annotations

from parsegate.parsers.pdf.build import Builder, emit_page
from parsegate.parsers.pdf.layout import Style
from parsegate.parsers.pdf.order import text_block
from tests.pdf_samples import glyph_line


def test_a_footnote_line_set_left_of_the_notes_first_line_goes_on_with_that_note() -> None:
    # TeX indents a note's first line only: its next line starts further left and comes out as
    # a block of its own, which was a paragraph of the body ("etc.") cut from its note.
    body = glyph_line("Scopes are declared on each path operation of the app.", 62, 700, 0)
    first = glyph_line("\u2020OAuth2 with scopes is used by many providers, like X (Twitter),", 72, 753, 10, size=8)
    rest = glyph_line("etc.", 62, 763, 20, size=8)
    other = glyph_line("\u2021It was removed in FastAPI 0.128.0.", 72, 773, 30, size=8)
    b = Builder(body=Style("Body", 10.0))
    emit_page(b, [text_block([body]), text_block([first]), text_block([rest]), text_block([other])], {})
    found = [(e.kind, b.text()[e.start : e.end]) for e in b.elements]
    assert found == [
        ("paragraph", "Scopes are declared on each path operation of the app."),
        ("footnote", "\u2020OAuth2 with scopes is used by many providers, like X (Twitter), etc."),
        ("footnote", "\u2021It was removed in FastAPI 0.128.0."),
    ]


def test_a_note_line_that_starts_with_a_year_goes_on_with_the_note() -> None:
    # "2018, and" matched the note-mark pattern (note 201, then "8"): the rest of note 1 became
    # a note of its own, and a body sentence cut by such a line lost its end to the page's foot.
    body = glyph_line("The reports are listed below.", 62, 700, 0)
    first = glyph_line("1Preliminary Aircraft Accident Investigation Report, dated November", 62, 753, 10, size=8)
    rest = glyph_line("2018, and the Final Report, dated October 2019, are in the docket.", 62, 762, 20, size=8)
    b = Builder(body=Style("Body", 10.0))
    emit_page(b, [text_block([body]), text_block([first, rest])], {})
    found = [(e.kind, b.text()[e.start : e.end]) for e in b.elements]
    assert found == [
        ("paragraph", "The reports are listed below."),
        ("footnote", "1Preliminary Aircraft Accident Investigation Report, dated November 2018, and the Final "
         "Report, dated October 2019, are in the docket."),
    ]  # fmt: skip


def test_small_type_under_a_note_that_ends_its_sentence_is_not_that_note() -> None:
    note = glyph_line("*All figures are in thousands of euros.", 72, 753, 10, size=8)
    after = glyph_line("Printed in Belgium", 62, 763, 20, size=8)
    b = Builder(body=Style("Body", 10.0))
    emit_page(b, [text_block([note]), text_block([after])], {})
    assert [(e.kind, b.text()[e.start : e.end]) for e in b.elements] == [
        ("paragraph", "Printed in Belgium"),
        ("footnote", "*All figures are in thousands of euros."),
    ]


def test_a_caption_line_that_starts_with_a_version_number_stays_in_the_caption() -> None:
    # "0.128.0, the latest …" matched the note-mark pattern (note 0, then "."): the caption's
    # second line went to the page's foot as a note (held-out pdf_structure seed 127).
    first = glyph_line("Figure 1: It was removed in FastAPI", 62, 600, 0, size=8)
    rest = glyph_line("0.128.0, the latest versions require v2 models.", 62, 609, 10, size=8)
    b = Builder(body=Style("Body", 10.0))
    emit_page(b, [text_block([first, rest])], {})
    assert [(e.kind, b.text()[e.start : e.end]) for e in b.elements] == [
        ("caption", "Figure 1: It was removed in FastAPI 0.128.0, the latest versions require v2 models.")
    ]


def test_notes_at_the_foot_of_the_left_column_are_read_before_the_right_column() -> None:
    # A two-column page with notes under the left column: held to the page's end, they came
    # after the whole right column (docling's reading and PDFium's text layer have them there,
    # between the columns).
    left = glyph_line("The claims rose sharply in the first quarter.", 62, 400, 0)
    note = glyph_line("1) Counted by the date of the claim.", 62, 700, 10, size=8)
    right = glyph_line("Insurers disagree on what counts as an accident.", 320, 400, 20)
    b = Builder(body=Style("Body", 10.0))
    emit_page(b, [text_block([left]), text_block([note]), text_block([right])], {})
    assert [(e.kind, b.text()[e.start : e.end][:12]) for e in b.elements] == [
        ("paragraph", "The claims r"),
        ("footnote", "1) Counted b"),
        ("paragraph", "Insurers dis"),
    ]
    # Where the left column stops mid-sentence and the right goes on with it in lower case, the
    # notes wait for the sentence's end, as they do across a page.
    cut = glyph_line("The claims rose sharply in the", 62, 400, 0)
    rest = glyph_line("first quarter. Insurers disagree on it.", 320, 400, 20)
    b = Builder(body=Style("Body", 10.0))
    emit_page(b, [text_block([cut]), text_block([note]), text_block([rest])], {})
    assert [e.kind for e in b.elements] == ["paragraph", "footnote"]
    assert b.text().startswith("The claims rose sharply in the first quarter.")


def _pages_of(*pages: list[object], words: frozenset[str] = frozenset()) -> list[tuple[str, int, str]]:
    b = Builder(body=Style("Body", 10.0), words=words)
    for blocks in pages:
        emit_page(b, blocks, {})  # type: ignore[arg-type]
    return [(e.kind, e.page or 0, b.text()[e.start : e.end]) for e in b.elements]


def test_a_plain_hyphen_at_a_page_foot_joins_the_word_the_document_knows() -> None:
    # docbook-xsl's reference: "For exam-" at a page's foot, "ple, this allows ..." at the next
    # page's head, a hyphen PDFium did not mark as a line end's. The document has "example"
    # elsewhere: a word's halves, joined without the hyphen. "character-" / "map" across a
    # page break is a compound the document never writes whole: left apart.
    first = glyph_line("For exam-", 62, 700, 0)
    rest = glyph_line("ple, this allows you to process only chapter 4.", 62, 100, 10)
    rest.page = 2
    words = frozenset({"for", "example", "this", "exam", "ple"})
    assert _pages_of([text_block([first])], [text_block([rest])], words=words) == [
        ("paragraph", 1, "For example,"),
        ("paragraph", 2, "this allows you to process only chapter 4."),
    ]
    compound = glyph_line("apply-character-", 62, 700, 0)
    after = glyph_line("map read-character-map", 62, 100, 10)
    after.page = 2
    assert _pages_of([text_block([compound])], [text_block([after])], words=words) == [
        ("paragraph", 1, "apply-character-"),
        ("paragraph", 2, "map read-character-map"),
    ]
