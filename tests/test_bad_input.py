"""Bad input ends with a clear outcome, never a traceback, and never takes time out of proportion."""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable

import pytest

from parsers import markdown, text
from parsers.model import Document


def words_without_punctuation(chars: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    vocab = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda".split()
    out: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(vocab)
        out.append(word)
        size += len(word) + 1
    return " ".join(out)


def seconds(fn: Callable[[], object]) -> float:
    """CPU seconds, the best of two runs, with the garbage collector held: a ratio of wall times
    on a busy machine, or of collections over a heap the earlier tests grew, measures the
    machine, not the algorithm."""
    best = float("inf")
    for _ in range(2):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def assert_sound(doc: Document, chunks: list) -> None:
    for c in chunks:
        assert c.text == doc.text[c.start : c.end]
    covered = sum(c.end - c.start for c in chunks)
    assert covered >= len(doc.text.strip()) - sum(ch.isspace() for ch in doc.text)


def test_empty_file_gives_no_chunks_and_a_warning(chunker_factory) -> None:
    for parse, name in ((markdown.parse, "e.md"), (text.parse, "e.txt")):
        doc = parse(b"", name)
        assert chunker_factory().chunk(doc) == []
        assert [w.code for w in doc.warnings] == ["empty"]


def test_two_megabyte_paragraph_without_punctuation_is_split_within_budget_in_linear_time(chunker_factory) -> None:
    chunker = chunker_factory()
    big = words_without_punctuation(2_000_000)
    doc = text.parse(big.encode(), "big.txt")
    chunks = chunker.chunk(doc)
    assert max(c.tokens for c in chunks) <= chunker.max_tokens
    assert "".join(c.text for c in chunks).replace(" ", "") == big.replace(" ", "")
    # Complexity, not speed: four times the input must not cost sixteen times the time.
    small = text.parse(words_without_punctuation(500_000).encode(), "small.txt")
    ratio = seconds(lambda: chunker.chunk(doc)) / max(seconds(lambda: chunker.chunk(small)), 1e-3)
    assert ratio < 9, f"2 MB took {ratio:.1f}x the time of 0.5 MB"


def test_lists_nested_a_thousand_deep(chunker_factory) -> None:
    source = "".join("  " * i + f"- item {i}\n" for i in range(1000))
    doc = markdown.parse(source.encode(), "deep.md")
    chunks = chunker_factory().chunk(doc)
    assert [w.code for w in doc.warnings] == ["nesting_limit"]
    assert_sound(doc, chunks)
    assert "item 999" in chunks[-1].text


def test_ten_thousand_row_table_without_quadratic_blow_up(chunker_factory) -> None:
    def table(rows: int) -> bytes:
        return ("| id | value |\n|---|---|\n" + "".join(f"| {i} | v{i} |\n" for i in range(rows))).encode()

    chunker = chunker_factory()
    doc = markdown.parse(table(10_000), "t.md")
    chunks = chunker.chunk(doc)
    assert len([e for e in doc.elements if e.kind == "table_row"]) == 10_001
    assert all(c.embed_text.startswith("| id | value |") for c in chunks[1:])
    assert_sound(doc, chunks)
    ratio = seconds(lambda: chunker.chunk(markdown.parse(table(10_000), "t.md"))) / max(
        seconds(lambda: chunker.chunk(markdown.parse(table(2_500), "t.md"))), 1e-3
    )
    assert ratio < 9, f"4x the rows took {ratio:.1f}x the time"


def test_flat_list_of_twenty_thousand_items_is_linear() -> None:
    """Regression: each list item once scanned a copy of every token after it (a slice)."""

    def parse(items: int) -> float:
        source = "".join(f"- item {i}\n" for i in range(items)).encode()
        return seconds(lambda: markdown.parse(source, "flat.md"))

    ratio = parse(20_000) / max(parse(5_000), 1e-3)
    assert ratio < 9, f"4x the items took {ratio:.1f}x the time"


@pytest.mark.parametrize("data", [b"\x00\x01binary\x02", b"\xff\xfe\x00d\x00a\x00t\x00a"])
def test_binary_is_refused(data: bytes) -> None:
    from parsers.model import ParseError

    with pytest.raises(ParseError) as info:
        markdown.parse(data, "bin.md")
    assert info.value.code == "binary"
