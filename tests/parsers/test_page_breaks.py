"""A page break inside a sentence in text taken from a PDF, when the next page opens with a
capital or a figure ("... any work containing the" | "Document or a portion of it ..."): pdftotext
writes a form feed there, PDFium's text of a PDF with no page numbers only a blank line after a
page of lines. Neither is a paragraph's end, and a chunk must not end there; a writer's short
paragraph, a listing's row, a numbered heading and a running header keep their blank line."""

from __future__ import annotations

from parsegate.chunkers.structural.boundaries import prose_blank_lines
from parsegate.parsers import text
from parsegate.parsers.signals.page_breaks import page_break_inside, page_bridge

WIDTH = 88


def _wrap(words: str, width: int = WIDTH) -> list[str]:
    lines, line = [], ""
    for word in words.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def _page(sentences: int, last_words: str) -> str:
    """A page of wrapped prose (``sentences`` sentences) whose last line stops mid-sentence on a
    full line: the words of ``last_words`` fill it to the width."""
    body = " ".join(f"Sentence {n} of the study reports the measured capacity of the cells." for n in range(sentences))
    lines = _wrap(body)
    tail = last_words
    while len(tail) < WIDTH - 8:
        tail = "very " + tail
    return "\n".join([*lines, tail])


NEXT = "NMC pouch cells, fast charging changed the capacity fade by 21.6% relative to controls (p = 0.03).\n"


def _gap(source: str) -> tuple[int, int]:
    left = source.index("\n\n")
    return left, left + len(source[left:]) - len(source[left:].lstrip())


def test_a_page_of_lines_that_stops_mid_sentence_runs_on_after_the_blank_line() -> None:
    source = _page(30, "across 335") + "\n\n" + NEXT
    left, right = _gap(source)
    assert len(source[:left].split("\n")) >= 20
    assert page_break_inside(source, left, right)
    doc = text.parse(source.encode(), "p.txt")
    assert [e.kind for e in doc.elements] == ["paragraph"]


def test_a_form_feed_marks_a_page_however_short_the_text_above() -> None:
    source = (
        "The Document means any such manual or work. Any member of the public is a licensee, and is\n"
        "addressed as you. A Modified Version of the Document means any work containing the\n\n\f"
        "Document or a portion of it, either copied verbatim, or with modifications.\n"
    )
    left, right = _gap(source)
    assert page_break_inside(source, left, right)
    # The same lines with no form feed are a writer's two paragraphs: too few lines for a page.
    plain = source.replace("\f", "")
    assert not page_break_inside(plain, *_gap(plain))


def test_the_chunker_does_not_cut_at_a_page_break_inside_a_sentence(chunker_factory) -> None:
    # A table in the middle of the page: the prose after it is an element of its own, shorter
    # than a page; the page above the blank line is what counts.
    lines = _page(30, "across 335").split("\n")
    table = ["Group | Period | Mean", "Control | Weeks 1-4 | 37.8", "Treatment | Weeks 1-4 | 51.2"]
    source = "\n".join([*lines[:12], *table, *lines[12:]]) + "\n\n" + NEXT
    doc = text.parse(source.encode(), "p.txt")
    assert doc.elements[0].kind == "paragraph" and doc.elements[-1].kind == "paragraph"
    assert doc.text[doc.elements[-1].start :].count("\n") < 20
    resumes = source.index("NMC pouch")
    last = doc.elements[-1]
    assert resumes not in {cut.start for cut in prose_blank_lines(source, last.start, last.end)}
    chunks = chunker_factory(tokenizer="words", max_tokens=60).chunk(doc)
    assert len(chunks) > 3
    assert resumes not in {c.start for c in chunks}
    whole = "across 335\n\nNMC pouch cells, fast charging changed"
    assert any(whole in c.text for c in chunks)


def test_what_ends_before_a_blank_line_on_purpose_keeps_it() -> None:
    page = _page(30, "across 335")
    cases = {
        # A row of a listing: words set apart in columns.
        "listing": page.rsplit("\n", 1)[0]
        + "\n"
        + "  MATCH2        4096    Display font-matching transformation in patterns ok",
        # A numbered heading: no sentence ends in the lines above it.
        "heading": "FAQ\n1. Troubles compiling or linking programs using the library on older systems",
    }
    for name, above in cases.items():
        source = (
            above + "\n\n\f" + "Usually the problem comes from the fact that the compiler does not find the headers.\n"
        )
        assert not page_break_inside(source, *_gap(source)), name
    # The next page opens with a running header, not the rest of the sentence.
    header = page + "\n\n" + "Chapter 2\n" + NEXT
    assert not page_break_inside(header, *_gap(header))
    # A sentence that ended: the next page starts a new one.
    ended = page + ".\n\n" + NEXT
    assert not page_break_inside(ended, *_gap(ended))


# pdftotext's text of a manual: each page after a form feed opens with its running head and its
# number, each a paragraph of its own, whatever sentence the page before left unfinished.
def _manual(heads: list[str], bodies: list[str]) -> str:
    return "".join(
        f"\f{head}\n\n{n + 1}\n\n{body}\n\n" for n, (head, body) in enumerate(zip(heads, bodies, strict=True))
    )


def test_a_sentence_goes_on_past_a_page_s_running_head_and_number(chunker_factory) -> None:
    long = " ".join(f"Sentence {n} of the manual says what the program does with its input." for n in range(8))
    bodies = [
        long + " If the file has no header of its own, the program may at",
        "your option write one, or stop with an error. " + long,
        long + " The end.",
    ]
    source = _manual(["Chapter 2: Invoking the program"] * 3, bodies)
    doc = text.parse(source.encode(), "manual.txt")
    crossing = next(e for e in doc.elements if "may at" in doc.text[e.start : e.end])
    assert "your option write one" in doc.text[crossing.start : crossing.end]
    sentence = source.index("If the file has no header"), source.index("or stop with an error.")
    for budget in (40, 60):
        chunks = chunker_factory(tokenizer="words", max_tokens=budget).chunk(doc)
        assert any(c.start <= sentence[0] and sentence[1] <= c.end for c in chunks), budget
    # What lies between is found as furniture: a page number, a running head on many pages.
    left = source.index("may at") + len("may at")
    assert page_bridge(source, left, len(source)) == source.index("your option")
    # A head on this page alone goes with the page's number; a foot (its number at its end)
    # before the form feed, and the sentence going on in the first line of the next page.
    # And a head right above the line the sentence goes on in, no blank line between.
    # pdftotext -layout sets a head and its number far apart on one line.
    layout = "\n\n\f" + "Chapter 3: Invoking the program" + " " * 60 + "10\n\n\n\n"
    for between in (
        "\n\n\fChapter 1: Introduction\n\n2\n\n",
        "\n\nPreamble 17\n\n\f",
        "\n\n2\n\n\fThe manual\n",
        layout,
    ):
        paged = (
            f"{long} If the file has no header of its own, the program may at{between}your option write one. {long}\n"
        )
        parts = [doc.text[e.start : e.end] for e in text.parse(paged.encode(), "manual.txt").elements]
        assert len(parts) == 1 and "your option" in parts[0], between
    # -layout puts the page number and the next head on two lines of one paragraph: that line
    # break is no cut either.
    number_then_head = "\n\n\n" + " " * 40 + "13\n\fChapter 3: The program" + " " * 30 + "CHAPTER 3\n\n\n"
    paged = f"{long} If the file has no header of its own, the program may at{number_then_head}your option write one, or stop with an error. {long}\n"
    sentence = paged.index("If the file has no header"), paged.index("or stop with an error.")
    chunks = chunker_factory(tokenizer="words", max_tokens=40).chunk(text.parse(paged.encode(), "manual.txt"))
    assert any(c.start <= sentence[0] and sentence[1] <= c.end for c in chunks)


def test_body_text_between_the_halves_is_no_page_furniture() -> None:
    body = "Sentence one of the manual says what the program does. The program may at"
    # A line of body text (no page number, on no other page's edge) between: no bridge.
    other = f"\fChapter 2\n\n3\n\n{body}\n\nReturns the options found in the file\n\nyour option write one.\n"
    assert page_bridge(other, other.index("may at") + 6, len(other)) is None
    # The same running head on three pages' edges is furniture; on one page it could be a heading.
    heads = "".join(f"\fThe program's manual\n\nPage text {n}.\n\n" for n in range(3))
    once = f"{body}\n\n\fThe program's manual\n\nyour option write one.\n"
    assert page_bridge(heads + once, len(heads) + once.index("may at") + 6, len(heads + once)) is not None
    assert page_bridge(once, once.index("may at") + 6, len(once)) is None
    # Without a form feed it is no page break; a page number alone is no sentence going on.
    plain = f"{body}\n\n12\n\nyour option write one.\n"
    assert page_bridge(plain, plain.index("may at") + 6, len(plain)) is None
    later = f"{body}\n\n12\n\nyour option write one.\n\n\fNext page.\n"  # the form feed comes after
    assert page_bridge(later, later.index("may at") + 6, len(later)) is None
    number = f"{body}\n\n\f12\n\nReturns nothing.\n"
    assert page_bridge(number, number.index("may at") + 6, len(number)) is None
