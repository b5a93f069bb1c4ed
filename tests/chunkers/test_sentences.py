from __future__ import annotations

import pytest

from parsegate.chunkers.structural.sentences import continues_previous, sentence_spans


def split(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Dr. Smith arrived. He sat down.", ["Dr. Smith arrived.", "He sat down."]),
        ("It costs 3.50 EUR. Pay now.", ["It costs 3.50 EUR.", "Pay now."]),
        ("See https://x.example/a.b.c for more. Then stop.", ["See https://x.example/a.b.c for more.", "Then stop."]),
        ("Use e.g. the portal. Or call.", ["Use e.g. the portal.", "Or call."]),
        ("J. R. R. Tolkien wrote it. Yes!", ["J. R. R. Tolkien wrote it.", "Yes!"]),
        ("We start at 9 a.m. and stop at 5 p.m. Every day.", ["We start at 9 a.m. and stop at 5 p.m.", "Every day."]),
        ('"Why?" she asked. (It was late.) Fine.', ['"Why?" she asked.', "(It was late.)", "Fine."]),
        ("No punctuation at all", ["No punctuation at all"]),
        # An abbreviation that closes a bracket goes on where a lower-case word follows
        # (German nouns are capitalised, its sentences too: "laufen" is no sentence's start).
        (
            "Ein Programm auf dem Server (der Maschine, dem Host usw.) laufen lassen. Das ist alles.",
            ["Ein Programm auf dem Server (der Maschine, dem Host usw.) laufen lassen.", "Das ist alles."],
        ),
        ("We sell apples, pears, etc.) and more. Fine.", ["We sell apples, pears, etc.) and more.", "Fine."]),
        ("It is in the list (see Fig.) The next one.", ["It is in the list (see Fig.)", "The next one."]),
        ("An env.] [what is it? Then.", ["An env.]", "[what is it?", "Then."]),
        ("  \n ", []),
    ],
)
def test_sentence_boundaries(text: str, expected: list[str]) -> None:
    assert split(text) == expected


def test_spans_are_offsets_into_the_range() -> None:
    text = "xx Ab cd. Ef gh. yy"
    assert sentence_spans(text, 3, 16) == [(3, 9), (10, 16)]


def test_sentences_that_lean_on_the_previous_one() -> None:
    assert continues_previous("However, not on Sundays.", 0)
    assert continues_previous("This limit does not apply.", 0)
    assert not continues_previous("Thistles grow here.", 0)
    # Japanese and Chinese: a demonstrative or a connective, with no space after it.
    assert continues_previous("これらの証明書は短命です。", 0)
    assert continues_previous("しかし、例外があります。", 0)
    assert continues_previous("因此我们需要证书。", 0)
    assert not continues_previous("証明書は無料です。", 0)


def test_a_sentence_with_an_additive_particle_early_leans_on_the_one_before() -> None:
    assert continues_previous("Static methods are also transformed on lookup.", 0)
    assert continues_previous("Moreover, the limit applies to contractors.", 0)
    assert continues_previous("Das gilt auch für Auftragnehmer.", 0)
    # Only early in the sentence: far into it, "also" belongs to a clause of its own.
    late = "The report lists every site, every observer and every instrument in use on the day, and also the weather."
    assert late.index("also") > 80 and not continues_previous(late, 0)
    assert not continues_previous("Alsop Street is closed.", 0)


def test_a_cut_avoids_the_sentence_that_says_also() -> None:
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.parsers import text

    source = "Class methods are bound to their class. Static methods are also transformed there. Then the topic changes to something else."
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=14)).chunk(text.parse(source.encode(), "p.txt"))
    assert [c.text for c in chunks] == [
        "Class methods are bound to their class. Static methods are also transformed there.",
        "Then the topic changes to something else.",
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        # A list item's number opens the item: after a line break (real, or an escaped "\n" of a
        # chat export) or after the sentence before it on the same line (a list run together).
        ("Many events.\n\n3. Clapham Grand is a theatre.", ["Many events.", "3. Clapham Grand is a theatre."]),
        (
            "Many events.\\n\\n3. Clapham Grand is a theatre.",
            ["Many events.\\n\\n3. Clapham Grand is a theatre."],  # (one span: the escapes are no stop)
        ),
        ("The steps: 1. Log in. 2. Click Save.", ["The steps: 1. Log in.", "2. Click Save."]),
        ("Open the store. 2. Click Customize.", ["Open the store.", "2. Click Customize."]),
        # A number that ends a sentence is still its end.
        ("The team scored 3. Then it rained.", ["The team scored 3.", "Then it rained."]),
    ],
)
def test_a_list_enumerator_is_never_a_sentence_end(text: str, expected: list[str]) -> None:
    assert split(text) == expected


@pytest.mark.parametrize(
    "opening",
    ["Alternatively, you can search", "Consequently, the city", "Accordingly, the board", "Nonetheless, it grew",
     "Conversely, a", "In contrast, Portland", "For example, the museum", "For instance, a", "As a result, the team"],
)  # fmt: skip
def test_a_sentence_opening_with_a_connective_leans_on_the_one_before(opening: str) -> None:
    # An alternative, a consequence, a contrast or an example presupposes the sentence before it.
    assert continues_previous(opening, 0)
    assert not continues_previous("Alternative energy is cheap.", 0)
