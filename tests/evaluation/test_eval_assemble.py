"""parsegate.evaluation.assemble: ranked hits → passages with provenance, within a budget."""

from __future__ import annotations

import pytest

from parsegate.evaluation.assemble import Record, assemble, from_records

TEXT = "aaaa bbbb cccc dddd eeee ffff"  # words at 0, 5, 10, 15, 20, 25


def rec(cid: str, start: int, end: int, doc: str = "d", version: str = "v1", **links: object) -> Record:
    return Record(
        id=cid,
        doc_id=doc,
        doc_version=version,
        start=start,
        end=end,
        text=TEXT[start:end],
        embed_text=f"Title\n\n{TEXT[start:end]}",
        section_path=tuple(links.pop("section", ("Title",))),  # type: ignore[arg-type]
        **links,  # type: ignore[arg-type]
    )


def words(texts: list[str]) -> list[int]:
    return [len(t.split()) for t in texts]


def test_overlapping_windows_merge_into_one_passage_and_count_once() -> None:
    hits = [rec("w2", 5, 14), rec("w1", 0, 9), rec("w1", 0, 9)]  # two windows overlapping; one duplicate
    (passage,) = assemble(hits, texts={"d": TEXT}).passages
    assert (passage.start, passage.end, passage.text) == (0, 14, "aaaa bbbb cccc")
    assert passage.chunk_ids == ("w1", "w2") and passage.hit_ids == ("w2", "w1") and passage.rank == 0
    assert passage.embed_text == "Title\n\naaaa bbbb cccc"  # the shared prefix once


def test_touching_chunks_merge_only_within_one_document_version() -> None:
    a, b = rec("a", 0, 4, next_id="b"), rec("b", 5, 9, prev_id="a")
    other_version = rec("b2", 5, 9, version="v2")
    result = assemble([a, b, other_version])
    assert [(p.doc_version, p.start, p.end) for p in result.passages] == [("v1", 0, 9), ("v2", 5, 9)]
    # without the source, a whitespace gap between chain neighbours is stitched as a blank line
    assert result.passages[0].text == "aaaa\n\nbbbb"
    # with it, the gap is the source's own
    assert assemble([a, b], texts={"d": TEXT}).passages[0].text == "aaaa bbbb"
    # chunks that end where the next starts merge even without links or source
    assert [(p.start, p.end) for p in assemble([rec("x", 0, 5), rec("y", 5, 9)]).passages] == [(0, 9)]
    # chunks that are neither overlapping, touching nor neighbours stay apart, best rank first
    far = assemble([rec("e", 20, 24), a], texts={"d": TEXT}).passages
    assert [(p.start, p.rank) for p in far] == [(20, 0), (0, 1)]


def test_expansion_to_neighbours_section_and_parent() -> None:
    chunks = [
        rec("a", 0, 4, next_id="b", section=("T", "One")),
        rec("b", 5, 9, prev_id="a", next_id="c", section=("T", "One")),
        rec("c", 10, 14, prev_id="b", next_id="d", section=("T", "Two")),
        rec("d", 15, 19, prev_id="c", parent_id="p", section=("T", "Two")),
        rec("p", 10, 29, section=("T", "Two")),
    ]
    by = {c.id: c for c in chunks}
    assert [(p.start, p.end) for p in assemble([by["b"]], chunks=chunks, expand="neighbours").passages] == [(0, 14)]
    section = assemble([by["a"]], chunks=chunks, expand="section").passages
    assert [(p.start, p.end, p.chunk_ids, p.hit_ids) for p in section] == [(0, 9, ("a", "b"), ("a",))]
    parent = assemble([by["d"]], chunks=chunks, expand="parent").passages
    assert [(p.start, p.end, p.section_path) for p in parent] == [(10, 29, ("T", "Two"))]
    with pytest.raises(ValueError, match="unknown expansion"):
        assemble([by["a"]], expand="everything")


def test_budget_keeps_best_ranks_and_falls_back_to_the_hits_alone() -> None:
    chunks = [
        rec(c, s, s + 4, next_id=n, prev_id=p)
        for c, s, n, p in [("a", 0, "b", None), ("b", 5, "c", "a"), ("c", 10, None, "b")]
    ]
    by = {c.id: c for c in chunks}
    # each embed_text is "Title" + its words: 2 words per chunk, 4 for the expanded trio
    result = assemble([by["b"], rec("z", 25, 29)], chunks=chunks, expand="neighbours", budget=3, count=words)
    assert [(p.start, p.end, p.tokens) for p in result.passages] == [(5, 9, 2)]  # b alone: the trio is over budget
    assert result.dropped == ["z"] and result.tokens == 2
    roomy = assemble([by["b"]], chunks=chunks, expand="neighbours", budget=4, count=words)
    assert [(p.start, p.end) for p in roomy.passages] == [(0, 14)] and roomy.dropped == []


def test_records_from_chunk_dicts() -> None:
    row = {
        "id": "x",
        "doc_id": "d",
        "doc_version": "v",
        "start": 0,
        "end": 4,
        "text": "aaaa",
        "embed_text": "T\n\naaaa",
    }
    (record,) = from_records([row])
    assert (record.section_path, record.prev_id, record.embed_text) == ((), None, "T\n\naaaa")
