"""The gate's own readings that issue 38 made cheaper, against what they replaced: Markdown headings
read by pulldown-cmark (the parser reads with markdown-it), and unknown characters read run by run
(each distinct run of non-space characters encoded once) instead of whole texts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsegate.chunkers.tokens.counter import load_counter
from parsegate.quality_gates.checks.headings import Heading, markdown_headings


def test_headings_and_their_whole_lines() -> None:
    source = "# Guide {#top}\n\nIntro.\n\nSet *up*\nnow\n===\n\n## `run` &amp; [stop](x.md)\n"
    assert markdown_headings(source) == [
        Heading(0, 15, 1, "Guide"),
        Heading(24, 41, 1, "Set up now"),  # the setext underline is the heading's line too
        Heading(42, 70, 2, "run & stop"),
    ]


def test_front_matter_is_read_as_the_parser_reads_it() -> None:
    """mdit-py-plugins' front matter runs from the first line's dashes to a line of as many, blank
    lines and all (pulldown-cmark's own metadata blocks end at a blank line: it read the YAML below
    as a setext heading "jupyter: kernelspec: …")."""
    source = "---\ntitle: x\n\njupyter:\n  name: python3\n---\n\n# Body\n"
    assert markdown_headings(source) == [Heading(44, 51, 1, "Body")]
    assert markdown_headings("---\ntitle: x\n# no\n---\n") == []
    # Unclosed, it is no front matter: the dashes are a thematic break.
    assert markdown_headings("---\ntitle: x\n\n# H\n") == [Heading(14, 18, 1, "H")]
    assert markdown_headings("---\nt: 1\n...\n# A\n") == [Heading(13, 17, 1, "A")]


def test_line_ends_and_bytes_that_are_no_utf8() -> None:
    # A lone CR ends a line as CommonMark says (pulldown-cmark alone would not end one there).
    assert markdown_headings("# One\r\rText\r## Two\r") == [Heading(0, 6, 1, "One"), Heading(12, 19, 2, "Two")]
    assert markdown_headings("```\r# not\r```\r\r# yes\r") == [Heading(15, 21, 1, "yes")]
    assert markdown_headings("# One\r\n\r\n## Two\r\n") == [Heading(0, 7, 1, "One"), Heading(9, 17, 2, "Two")]
    # Offsets are characters, titles the source's own (a surrogate from surrogateescape kept).
    assert markdown_headings("Caf\udce9 é\n===\n\n# Ünï\n") == [
        Heading(0, 11, 1, "Caf\udce9 é"),
        Heading(12, 18, 1, "Ünï"),
    ]
    assert markdown_headings("# caf\x00\n") == [Heading(0, 7, 1, "caf\ufffd")]  # CommonMark's rule for NUL


def test_a_title_over_lines_of_a_block_quote_leaves_the_markers_out() -> None:
    source = "> Foo\n> bar\n> ===\n\n> # Quoted\n"
    assert [(h.start, h.end, h.title) for h in markdown_headings(source)] == [(0, 18, "Foo\nbar"), (19, 30, "Quoted")]


def test_an_inline_element_across_a_titles_lines_is_read_whole() -> None:
    """A code span or inline HTML running from one line of a setext title to the next: the
    title is all of it (its second line starts inside the element, not at an event)."""
    assert [h.title for h in markdown_headings("Foo `a\nb` bar\n===\n")] == ["Foo a b bar"]
    assert [h.title for h in markdown_headings("> Foo `a\n> b` c\n> ===\n")] == ["Foo a b c"]
    assert [h.title for h in markdown_headings("Foo <span\nclass=x> bar\n===\n")] == ["Foo bar"]


def test_code_and_html_blocks_hold_no_heading() -> None:
    source = "```\n# not\n```\n\n    # indented code\n\n<div>\n# html\n</div>\n\n- # in a list\n"
    assert [(h.title, h.level) for h in markdown_headings(source)] == [("in a list", 1)]


COUNTER = load_counter()
UNK = COUNTER.tokenizer.token_to_id("[UNK]")


def whole(texts: list[str]) -> list[int]:
    """The reading the run-by-run one replaced: every text that can hold an unknown token (a
    character beyond ASCII, a word over 100 characters) encoded whole, with offsets."""
    out = []
    for text, e in zip(texts, COUNTER.tokenizer.encode_batch(texts, add_special_tokens=False), strict=True):
        unknown = sum(end - start for token, (start, end) in zip(e.ids, e.offsets, strict=True) if token == UNK)
        out.append(unknown if not text.isascii() or any(len(w) > 100 for w in text.split()) else 0)
    return out


PIECES = st.sampled_from(
    [
        "plain",
        " ",
        "\n",
        "\t",
        "é",
        "東京",
        "🙂",
        "👍🏽",
        "\u0301",
        "\u00a0",
        "\u200b",
        "ﬁ",
        "½",
        "-",
        ".",
        "[UNK]",
        "\x0b",
        "\x00",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=12).map("".join), min_size=1, max_size=5))
def test_unknown_characters_run_by_run_are_those_of_whole_texts(texts: list[str]) -> None:
    assert COUNTER.unknown_chars(texts) == whole(texts)


@pytest.mark.parametrize("limit", [99, 100, 101, 150])
def test_a_word_over_the_models_length_is_unknown_run_by_run_too(limit: int) -> None:
    texts = ["word " + "x" * limit + " é", "🙂 " + "y" * limit + "é"]
    assert COUNTER.unknown_chars(texts) == whole(texts)
    assert COUNTER.unknown_chars(texts)[0] == (limit if limit > 100 else 0)


def old_by_position(text: str, declared: list[tuple[int, int]], chunked: list[tuple[int, int]]):
    """Extraction recall by position as it was read before: every word of the text in Python."""
    from parsegate.quality_gates.checks.recall import _spans
    from parsegate.quality_gates.words import spans

    (d_starts, d_ends), (c_starts, c_ends) = _spans(declared), _spans(chunked)
    total = found = d = c = 0
    lost: list[list[int]] = []
    previous_lost = False
    for start, end in spans(text):
        while d < len(d_ends) and d_ends[d] < end:
            d += 1
        if d < len(d_starts) and d_starts[d] <= start:
            continue
        total += 1
        while c < len(c_ends) and c_ends[c] < end:
            c += 1
        hit = c < len(c_starts) and c_starts[c] <= start
        found += hit
        if not hit and previous_lost:
            lost[-1][1] = end
        elif not hit:
            lost.append([start, end])
        previous_lost = not hit
    return total, found, lost


WORDS = st.sampled_from(["a", "bc", "déf", "東京", "x1", "_y", " ", " ", "\n\n", ".", "-", "é", "\u0301", "🙂"])


@st.composite
def texts_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
    text = "".join(draw(st.lists(WORDS, max_size=40)))
    cut = st.integers(0, len(text))
    spans_of = st.lists(st.tuples(cut, cut).map(sorted).map(tuple), max_size=8)
    return text, draw(spans_of), draw(spans_of)


@settings(max_examples=500, deadline=None)
@given(texts_and_spans())
def test_recall_by_position_reads_what_the_word_by_word_pass_read(case: tuple[str, list, list]) -> None:
    from parsegate.quality_gates.checks.recall import _counted, _lost_words, _spans

    text, declared, chunked = case
    total, lost = _lost_words(text, _spans(declared), _spans(chunked))
    found = total - sum(_counted(text, _spans(declared), lost))
    assert (total, found, lost) == old_by_position(text, declared, chunked)
