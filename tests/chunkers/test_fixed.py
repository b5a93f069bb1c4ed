from __future__ import annotations

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.fixed import fixed_windows
from parsegate.parsers import markdown

SECTIONS = [("Letters", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), ("Digits", "1234567890")]


def test_reference_vectors() -> None:
    windows = fixed_windows(SECTIONS, 10, 3, "doc", "v1")
    assert [(w.section_index, w.start, w.end) for w in windows] == [
        (0, 0, 10),
        (0, 7, 17),
        (0, 14, 24),
        (0, 21, 26),
        (1, 0, 10),
    ]
    assert [w.id for w in windows][:2] == ["doc:v1:0:0-10", "doc:v1:0:7-17"]
    assert windows[3].text == "VWXYZ"
    assert windows[4].heading == "Digits"


def test_empty_section_gives_no_windows() -> None:
    assert fixed_windows([("Empty", "")], 10, 3, "d", "v") == []


@pytest.mark.parametrize("size, overlap", [(0, 0), (10, 10), (10, -1), (True, 0), (10.0, 0), (10, False)])
def test_refused_settings(size: object, overlap: object) -> None:
    with pytest.raises(ValueError):
        fixed_windows(SECTIONS, size, overlap, "d", "v")  # type: ignore[arg-type]


def test_fixed_strategy_maps_windows_to_document_offsets() -> None:
    source = b"# A\n\nabcdefghij klmno\n\n# B\n\n0123456789\n"
    doc = markdown.parse(source, "d.md")
    chunks = Chunker(ChunkConfig(strategy="fixed", fixed_size=8, fixed_overlap=2, tokenizer="chars")).chunk(doc)
    for c in chunks:
        assert c.text == doc.text[c.start : c.end]
        assert c.id.startswith(f"d.md:{doc.version}:")
    assert [c.text for c in chunks if c.section_path == ["B"]] == ["\n\n012345", "456789\n"]


def test_fixed_windows_over_budget_are_cut_into_pieces_that_fill_the_budget() -> None:
    """A 1000-character window of table rows is far over 32 tokens: it is cut again, but into
    pieces joined back up to the budget, not into one piece per word."""
    from parsegate.parsers import markdown

    rows = "".join(f"| S{i} | {i} | {100 + i} |\n" for i in range(60))
    doc = markdown.parse(f"| Station | Week | Level |\n|---|---|---|\n{rows}".encode(), "t.md")
    chunker = Chunker(ChunkConfig(strategy="fixed", max_tokens=32))
    chunks = chunker.chunk(doc)
    assert all(c.tokens <= 32 for c in chunks)
    assert sum(c.tokens for c in chunks) / len(chunks) > 20
