"""The boundary descent on messy text: lower case, no punctuation, hard wraps, German,
Japanese. Exact pieces, under the "words" counter so that budgets are easy to read."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.structural.boundaries import PROSE, Level, descend, prose_lines
from parsegate.chunkers.structural.sentences import boundaries
from parsegate.chunkers.tokens.counter import load_counter
from parsegate.parsers import text


def pieces(source: str, limit: int, counter: str = "words") -> list[tuple[str, Level]]:
    index = load_counter(counter).index(source)
    return [(source[p.start : p.end], p.level) for p in descend(source, 0, len(source), PROSE, limit, index)]


def test_lower_case_sentences_are_still_sentences() -> None:
    source = (
        "amounts expensed for deferred compensation arrangements were material. "
        "in 2009, 2008 and 2007 they were $1.2 million, $1.1 million and $0.9 million. "
        "no other plans exist."
    )
    assert pieces(source, 14) == [
        ("amounts expensed for deferred compensation arrangements were material.", Level.ELEMENT),
        ("in 2009, 2008 and 2007 they were $1.2 million, $1.1 million and $0.9 million.", Level.WEAK),
        ("no other plans exist.", Level.WEAK),
    ]


def test_a_strong_sentence_end_is_preferred_to_a_weak_one() -> None:
    source = "One two three. four five six. Seven eight nine. ten eleven twelve."
    # Strong boundaries first: two pieces, each holding a weak boundary inside.
    assert pieces(source, 7) == [
        ("One two three. four five six.", Level.ELEMENT),
        ("Seven eight nine. ten eleven twelve.", Level.SENTENCE),
    ]


def test_unpunctuated_text_descends_to_clauses_commas_then_words() -> None:
    source = "first part of it; second part here, with a comma and more words in it"
    got = pieces(source, 6)
    assert got[:3] == [("first part of it;", Level.ELEMENT), ("second part here,", Level.CLAUSE), ("with", Level.COMMA)]
    assert got[3:] == [(w, Level.WORD) for w in "a comma and more words in it".split()]
    # Packing joins them back, cutting at the strongest boundary in reach each time.
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=8)).chunk(text.parse(source.encode(), "u.txt"))
    assert [c.text for c in chunks] == ["first part of it;", "second part here,", "with a comma and more words in it"]
    # Where only words remain, the cut makes the pieces even.
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=8)).chunk(text.parse(b"a b c d e f g h i j", "w.txt"))
    assert [c.text for c in chunks] == ["a b c d e", "f g h i j"]


def test_a_line_break_after_a_long_line_is_a_paragraph_boundary() -> None:
    source = "Ragged first line that is quite long.\nshort one\nAnother line that is long enough to matter."
    assert pieces(source, 10) == [
        ("Ragged first line that is quite long.", Level.ELEMENT),
        ("short one", Level.LINE),
        ("Another line that is long enough to matter.", Level.LINE),
    ]


def test_hard_wrapped_prose_is_not_cut_at_its_wraps() -> None:
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi".split()
    prose = " ".join(words * 6)
    wrapped, line = [], ""
    for word in prose.split():
        if len(line) + 1 + len(word) > 60:
            wrapped.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    source = "\n".join(wrapped) + "\n" + line + "\n\nshort tail."
    # The wraps are the wrapper's, not the writer's: no line boundary at any of them.
    assert prose_lines(source, 0, len(source.split("\n\n")[0])) == []
    ragged = "a long first line of the list that goes on\nb\nc"
    assert len(prose_lines(ragged, 0, len(ragged))) == 2
    # The same with Windows line ends: a CRLF is one line break, not a blank line.
    crlf = ragged.replace("\n", "\r\n")
    assert len(prose_lines(crlf, 0, len(crlf))) == 2


def _pdf_page(paragraphs: list[str], width: int) -> list[str]:
    """Greedy wraps at ``width`` characters, as a PDF's text layer gives a page back."""
    lines: list[str] = []
    for paragraph in paragraphs:
        line = ""
        for word in paragraph.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(line)
    return lines


PARAGRAPHS = [
    "The starred list is evaluated once and should yield an iterable object from which an iterator is "
    "created for the loop. The first item provided by the iterator is assigned to the target list using "
    "the standard rules for assignments, and the suite is executed once for that item.",
    "This repeats for each item provided by the iterator until it is exhausted, and then the suite in the "
    "else clause is executed, if present, before the loop terminates and control passes on.",
]


def test_one_joined_line_does_not_hide_that_a_page_is_wrapped() -> None:
    lines = _pdf_page(PARAGRAPHS, 60)
    # PDFium joins two lines at a soft hyphen now and then: one line twice the width.
    lines[1] = lines[1] + " " + lines[2]
    del lines[2]
    source = "\n".join(lines)
    cuts = [source[c.end - 14 : c.end] for c in prose_lines(source, 0, len(source))]
    assert cuts == ["for that item."]  # the paragraph end, and no wrap
    # pdftotext joins less: one line 40% over the width must not hide the wraps either.
    lines = _pdf_page(PARAGRAPHS, 60)
    lines[1] = lines[1] + " and then some more words"
    longer = "\n".join(lines)
    assert [longer[c.end - 14 : c.end] for c in prose_lines(longer, 0, len(longer))] == ["for that item."]
    # The same page with every line in place: the same single cut.
    plain = "\n".join(_pdf_page(PARAGRAPHS, 60))
    assert [plain[c.end - 14 : c.end] for c in prose_lines(plain, 0, len(plain))] == ["for that item."]


def test_a_few_wrapped_lines_among_short_ones_are_still_wraps() -> None:
    # A page of one wrapped paragraph between short lines (a list, a signature): fewer than a third
    # of the lines are full, but those break off mid-sentence, so they are wraps.
    items = ["- first item", "- second item", "- third item", "- fourth item", "- fifth item", "- sixth item"]
    lines = [*items, *_pdf_page(PARAGRAPHS[:1], 60), *items, "Signed, the board"]
    source = "\n".join(lines)
    cut_before = {source[c.start :].split("\n")[0] for c in prose_lines(source, 0, len(source))}
    assert {line for line in lines[1:] if line not in items} - cut_before == set(_pdf_page(PARAGRAPHS[:1], 60)[1:])
    assert "- second item" in cut_before and "Signed, the board" in cut_before


def test_a_full_line_ending_a_sentence_in_proportional_type_is_a_wrap() -> None:
    # A PDF's text layer: lines of 52-59 characters (proportional type), all one paragraph.
    # The fourth ends a sentence, and "The" would fit within the longest line's 59 characters
    # — but not within the margin by which full lines fall short of it, so it is a wrap.
    lines = [
        "The starred list is evaluated once and should yield an iter",
        "object from which an iterator is made for each loop,",
        "the first item provided by the iterator is assigned to the",
        "target list using the standard rules; the suite runs.",
        "The same repeats for each item provided by the iterator un",
        "it is exhausted and then the suite in the else clause",
        "runs before the loop terminates and control passes to",
        "the statement after it, unless a break ended the loop.",
        "Short last line.",
    ]
    source = "\n".join(lines)
    assert prose_lines(source, 0, len(source)) == []
    # Set by a fixed-width wrapper, the same sentence end with room for "The" is the writer's.
    fixed = "\n".join(_pdf_page(PARAGRAPHS, 60))
    first = fixed.index("once for that item.") + len("once for that item.")
    assert [c.end for c in prose_lines(fixed, 0, len(fixed))] == [first]


def test_a_blank_line_inside_a_sentence_is_no_boundary() -> None:
    source = "the db has headroom and cpu is at\n\n54% of its limit. We can grow the pool.\n\nNext topic here."
    assert pieces(source, 12) == [
        ("the db has headroom and cpu is at\n\n54% of its limit.", Level.ELEMENT),
        ("We can grow the pool.", Level.SENTENCE),
        ("Next topic here.", Level.BLANK),
    ]


def test_german_abbreviations_and_ordinals_do_not_end_sentences() -> None:
    source = "Wir liefern z.B. am 3. Mai aus. Die Ware kommt im 2. Stock an. Das ist alles."
    spans = [source[b.start :] for b in boundaries(source)]
    assert spans == ["Die Ware kommt im 2. Stock an. Das ist alles.", "Das ist alles."]


def test_japanese_is_cut_at_its_full_stops_not_inside_words() -> None:
    source = "東京都は日本の首都です。大阪は西にあります。「明日は晴れる。」と彼は言った。"
    assert [source[b.start :][:3] for b in boundaries(source)] == ["大阪は", "「明日"]
    got = pieces(source, 16, counter="all-MiniLM-L6-v2")
    assert [p for p, _ in got] == [
        "東京都は日本の首都です。",
        "大阪は西にあります。",
        "「明日は晴れる。」と彼は言った。",
    ]


def test_mixed_text_keeps_urls_decimals_and_versions_whole() -> None:
    source = "Install v1.2.3 from https://x.example/a.b. It costs 3.50 EUR. see also e.g. the faq."
    spans = [source[b.start :][:8] for b in boundaries(source)]
    assert spans == ["It costs", "see also"]


def test_a_paragraph_over_budget_in_lower_case_is_cut_between_sentences() -> None:
    source = (
        "the plan covers all staff. it does not cover contractors unless they are employed for a year. "
        "claims are paid monthly. the fund is audited every year by an outside firm."
    )
    doc = text.parse(source.encode(), "p.txt")
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=20)).chunk(doc)
    assert [c.text for c in chunks] == [
        "the plan covers all staff. it does not cover contractors unless they are employed for a year.",
        "claims are paid monthly. the fund is audited every year by an outside firm.",
    ]


SENTENCE = st.builds(
    lambda words, cap, end: (" ".join(words).capitalize() if cap else " ".join(words)) + end,
    st.lists(
        st.sampled_from("the fee is waived for staff who join before march and stay".split()), min_size=1, max_size=14
    ),
    st.booleans(),
    st.sampled_from([".", ".", "!", "?"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sentences=st.lists(SENTENCE, min_size=1, max_size=12), budget=st.integers(8, 40))
def test_no_cut_inside_a_sentence_that_fits(sentences: list[str], budget: int, chunker_factory) -> None:
    """A chunk boundary falls inside a sentence only when that sentence alone is over budget."""
    source = " ".join(sentences)
    doc = text.parse(source.encode(), "s.txt")
    chunker = chunker_factory(tokenizer="words", max_tokens=budget)
    chunks = chunker.chunk(doc)
    starts = {0} | {b.start for b in boundaries(source)}
    spans = sorted(starts)
    for c in chunks[1:]:
        if c.start in starts:
            continue
        opened = max(s for s in spans if s < c.start)
        closed = min([s for s in spans if s > c.start] + [len(source)])
        sentence = source[opened:closed].strip()
        assert len(sentence.split()) > budget, f"cut inside {sentence!r} at budget {budget}"


def test_no_clause_or_comma_cut_inside_inline_code_a_tag_or_a_link() -> None:
    source = (
        'Use the **[<abbr title="Server Name Indication - name shown">SNI</abbr>](https://x.org/a,b)** '
        "extension, or catch `RuntimeError: Task attached, wrongly` when it fails; then retry."
    )
    assert pieces(source, 12) == [
        (
            'Use the **[<abbr title="Server Name Indication - name shown">SNI</abbr>](https://x.org/a,b)** extension,',
            Level.ELEMENT,
        ),
        ("or catch `RuntimeError: Task attached, wrongly` when it fails;", Level.COMMA),
        ("then retry.", Level.CLAUSE),
    ]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sentences=st.lists(SENTENCE, min_size=2, max_size=10),
    budget=st.integers(8, 40),
    where=st.lists(st.integers(0, 10_000), min_size=1, max_size=3),
)
def test_a_page_break_inside_a_sentence_is_never_a_cut_there(
    sentences: list[str], budget: int, where: list[int], chunker_factory
) -> None:
    """Text from a PDF: a blank line where a page ended inside a sentence (a lower-case word
    follows) is cut only where the space it stands for could be: in a sentence over budget.
    Hypothesis found the one exception the parser makes on purpose (a short line alone that may
    be a heading), which the breaks drawn here leave out."""
    source = " ".join(sentences)
    gaps = [m.start() for m in re.finditer(r"(?<=[a-z]) (?=[a-z])", source)]
    if not gaps:
        return
    breaks = []
    for b in sorted({gaps[w % len(gaps)] for w in where}):
        # A short line alone before a blank line may be a heading ("risk factors"): not a page.
        line = source[breaks[-1] + 1 if breaks else 0 : b]
        if len(line) >= 40 or re.search(r"[.!?] ", line):
            breaks.append(b)
    paged = source
    for b in reversed(breaks):
        paged = paged[:b] + "\n\n" + paged[b + 1 :]
    doc = text.parse(paged.encode(), "p.txt")
    cut_starts = {c.start for c in chunker_factory(tokenizer="words", max_tokens=budget).chunk(doc)[1:]}
    ends = [m.end() for m in re.finditer(r"[.!?](?= |$)", source)]
    for n, b in enumerate(breaks):
        after = b + n + 2  # where the next word starts in the paged text
        if after in cut_starts:
            opened = max([0, *(e + 1 for e in ends if e < b)])
            sentence = source[opened : min(e for e in ends if e > b)]
            assert len(sentence.split()) > budget, f"cut at a page break inside {sentence!r} ({budget})"


def test_a_blank_line_in_code_stays_the_strongest_cut() -> None:
    # Prose lets a lower-case word after a blank line run on (a page break); code does not.
    from parsegate.chunkers.structural.boundaries import LINES

    source = "x = compute(a)\ny = other(b)\n\nz = third(c)\nw = fourth(d)"
    index = load_counter("words").index(source)
    got = [(source[p.start : p.end], p.level) for p in descend(source, 0, len(source), LINES, 8, index)]
    assert got == [("x = compute(a)\ny = other(b)", Level.ELEMENT), ("z = third(c)\nw = fourth(d)", Level.BLANK)]


def test_among_ragged_lines_a_full_one_whose_sentence_runs_on_is_a_wrap() -> None:
    # A PDF page of short lines (a note, a heading, code) where one full-width line was wrapped
    # inside a link's text: "... the main Tutorial - User Guide | for OAuth2 with Password".
    lines = [
        "/// note",
        "In OAuth2 a scope is just a string.",
        "///",
        "Global view",
        "First, let's quickly see the parts that change from the examples in the main Tutorial - User Guide",
        "for OAuth2 with Password (and hashing), Bearer with JWT tokens. Now using OAuth2 scopes:",
        "{* ../../docs_src/security/tutorial005.py *}",
        "Now let's review those changes step by step, starting with the security scheme.",
        "Because we are now declaring those scopes, they will show up in the API docs when you log in.",
    ]
    source = "\n".join(lines)
    cut_before = [source[c.start :].split("\n")[0] for c in prose_lines(source, 0, len(source))]
    assert cut_before == [lines[1], lines[2], lines[3], lines[4], lines[6], lines[7], lines[8]]
    # A list of lower-case items keeps every break: its lines are short.
    items = "apples from the north\npears\nplums and cherries\nfigs"
    assert len(prose_lines(items, 0, len(items))) == 3


def test_a_line_indented_deeper_than_the_one_above_continues_it() -> None:
    # A manual page's options with its blank lines gone: each description hangs a tab further in
    # than its option. The break before a deeper line parts a definition from its term; the break
    # back out to the next option, or a break between lines at one depth, stays a boundary.
    source = (
        "OPTIONS\n"
        "       -c, --config=FILE\n"
        "\t      Read berths and thresholds from FILE instead of the\n"
        "\t      default file. It is read again whenever it changes.\n"
        "       -q, --quiet\n"
        "\t      Send nothing between midnight and five."
    )
    cut_before = [source[c.start :].split("\n")[0] for c in prose_lines(source, 0, len(source))]
    assert cut_before == ["default file. It is read again whenever it changes.", "-q, --quiet"]
    assert pieces(source, 24) == [
        (
            "OPTIONS\n       -c, --config=FILE\n\t      Read berths and thresholds from FILE instead of the",
            Level.ELEMENT,
        ),
        ("default file. It is read again whenever it changes.", Level.LINE),
        ("-q, --quiet\n\t      Send nothing between midnight and five.", Level.LINE),
    ]
    # Only a short line (a term, a label) holds what hangs under it: after a line of prose, a
    # deeper line is a nested item or an example of its own (Markdown lists as plain text lost
    # spans when every deeper line was glued on).
    nested = "Sensors are read every minute by the watcher process.\n    Gauges that fall silent are warned."
    assert len(prose_lines(nested, 0, len(nested))) == 1
    # Tabs count to the next multiple of eight: a tab is deeper than seven spaces, not shallower.
    assert [source[c.start :].split("\n")[0] for c in prose_lines("a b\n       c\n\td", 0, 12)] == []


def test_a_manual_page_without_its_blank_lines_keeps_each_option_with_its_description() -> None:
    # Our golden manual page as man(1) sets it, its blank lines gone (as some exports leave it):
    # every option line is chunked with the first line of its description, a tab further in.
    page = Path(__file__).resolve().parents[2] / "golden_docs" / "text" / "man-page" / "input.txt"
    source = "\n".join(line for line in page.read_text(encoding="utf-8").splitlines() if line.strip())
    chunker = Chunker(ChunkConfig(max_tokens=80))
    chunks = chunker.chunk(text.parse(source.encode(), "man.txt"))
    options = [m for m in re.finditer(r"^ {7}(-\w, --[\w=-]+|/\S+)\n", source, re.M)]
    assert len(options) >= 5
    for option in options:
        description = source[option.end() : source.index("\n", option.end())].strip()
        (holder,) = [c for c in chunks if c.start <= option.start(1) < c.end]
        assert description in holder.text, (option.group(1), holder.text)


def test_a_manual_page_without_indentation_keeps_each_name_with_the_line_below_it() -> None:
    # The same page as a PDF's text layer gives it: no blank lines, no indentation, wrapped at
    # its width. The line before "FILES" ends a sentence but is full (the next word would not
    # have fitted), so it looked like a wrap; a short line with more below it opens something.
    page = Path(__file__).resolve().parents[2] / "golden_docs" / "text" / "man-page" / "input.txt"
    source = "\n".join(line.strip() for line in page.read_text(encoding="utf-8").splitlines() if line.strip())
    names = list(re.finditer(r"^([A-Z][A-Z ]+|-\w, --[\w=-]+|/\S+)\n(.+)\n", source, re.M))
    assert len(names) >= 10
    for budget in (80, 96):
        chunks = Chunker(ChunkConfig(max_tokens=budget)).chunk(text.parse(source.encode(), "man.txt"))
        for name in names:
            (holder,) = [c for c in chunks if c.start <= name.start(1) < c.end]
            assert name.group(2) in holder.text, (budget, name.group(1), holder.text)


def test_a_short_line_opens_something_only_after_a_sentence_s_end() -> None:
    # Wrapped prose (lines near 70 characters that break off mid-sentence); a short line with more
    # below it is a cut after "minutes." and none after "named", whose sentence runs on.
    body = (
        "The daemon reads the gauges of every berth once a minute and compares\n"
        "each reading with the threshold that the harbour office has set for it\n"
        "and warns the contacts when the water rises above it within five minutes.\n"
        "FILES\n"
        "The list of berths and their gauges is kept in the configuration named\n"
        "Berths.conf\n"
        "and the daemon reads it again whenever it receives the hang-up signal, so\n"
        "that a new berth is watched without a restart of the whole service.\n"
    )
    cuts = {body[cut.start : cut.start + 11] for cut in prose_lines(body, 0, len(body))}
    assert "FILES\nThe l" in cuts
    assert "Berths.conf" not in cuts


def test_among_line_breaks_a_cut_after_a_sentence_is_taken_before_one_after_a_label() -> None:
    # A manual page as text taken from a PDF: no indentation left to tell an option from its
    # description. The chunk used to end on "OPTIONS / -c, --config=FILE", the evenest of the line
    # breaks in reach, its description in the next chunk.
    lines = [
        "Predictions fall back to the tide table alone when the surge forecast is old,",
        "and every such prediction is marked as uncertain.",
        "OPTIONS",
        "-c, --config=FILE",
        "Read berths and thresholds from FILE instead of the default file.",
        "The file is read again whenever it changes.",
        "-q, --quiet",
        "Send nothing between midnight and five in the morning.",
    ]
    doc = text.parse("\n".join(lines).encode(), "man.txt")

    def chunked(budget: int) -> list[list[str]]:
        return [c.text.split("\n") for c in Chunker(ChunkConfig(tokenizer="words", max_tokens=budget)).chunk(doc)]

    assert chunked(32) == [lines[:2], lines[2:5], lines[5:]]
    assert chunked(36) == [lines[:2], lines[2:]]


def test_code_keeps_every_line_break_as_good_as_another() -> None:
    # Chunker 23 takes a cut after a sentence's end before one after a label, in prose only. Code
    # lines end in no stop as a rule ("if (ready7) {"): there the evenest line break stays the cut.
    # Without the restriction these chunks all end on the ";" lines (21 fastapi records moved).
    from parsegate.parsers import markdown

    body = [f"total = total + step({n});" if n % 3 == 0 else f"if (ready{n}) {{" for n in range(1, 19)]
    doc = markdown.parse(("```\n" + "\n".join(body) + "\n```\n").encode(), "c.md")
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=14)).chunk(doc)
    assert [c.text.split("\n")[-1] for c in chunks] == [
        "total = total + step(3);",
        "if (ready7) {",
        "if (ready11) {",
        "if (ready14) {",
        "if (ready16) {",
        "```",
    ]
