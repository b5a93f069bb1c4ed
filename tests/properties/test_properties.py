"""Invariants over generated Markdown and text, under the real default tokenizer."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.structural.units import leaf_units
from parsegate.parsers import markdown, text
from parsegate.parsers.model import NON_BODY_KINDS, Document

WORDS = st.sampled_from(
    [
        "the",
        "a",
        "policy",
        "claim",
        "exception",
        "however",
        "rule",
        "data",
        "it",
        "they",
        "Dr.",
        "e.g.",
        "3.5",
        "EUR",
        "https://x.example/a.b",
        "approval",
        "manager",
        "é",
        "東京",
        "limit",
        "table",
        "value",
        "row",
        "header",
        "install",
        "run",
        "deploy",
        "Ms.",
        "U.S.",
        "etc.",
    ]
)
SENTENCE = st.builds(
    lambda words, end: " ".join(words).capitalize() + end,
    st.lists(WORDS, min_size=1, max_size=25),
    st.sampled_from([".", ".", "!", "?", ""]),
)
PARAGRAPH = st.lists(SENTENCE, min_size=1, max_size=8).map(" ".join)
TITLE = st.lists(WORDS, min_size=1, max_size=5).map(" ".join)


@st.composite
def md_block(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["heading", "para", "para", "list", "table", "code", "quote", "setext", "rule"]))
    if kind == "heading":
        return "#" * draw(st.integers(1, 4)) + " " + draw(TITLE)
    if kind == "setext":
        return draw(TITLE) + "\n" + draw(st.sampled_from(["===", "---"]))
    if kind == "list":
        items = draw(st.lists(st.tuples(st.integers(0, 3), PARAGRAPH), min_size=1, max_size=8))
        lead = draw(PARAGRAPH) + ":\n\n"
        out, depth = [], 0
        for want, body in items:
            depth = min(want, depth + 1)
            out.append("  " * depth + "- " + body)
        return lead + "\n".join(out)
    if kind == "table":
        cols = draw(st.integers(1, 4))
        header = "| " + " | ".join(draw(TITLE) for _ in range(cols)) + " |"
        rows = ["| " + " | ".join(draw(TITLE) for _ in range(cols)) + " |" for _ in range(draw(st.integers(0, 12)))]
        return "\n".join([header, "|" + "---|" * cols, *rows])
    if kind == "code":
        lines = draw(st.lists(st.lists(WORDS, max_size=12).map(" ".join), min_size=1, max_size=10))
        return "```" + draw(st.sampled_from(["", "python", "bash"])) + "\n" + "\n".join(lines) + "\n```"
    if kind == "quote":
        return "\n>\n".join("> " + draw(PARAGRAPH) for _ in range(draw(st.integers(1, 3))))
    if kind == "rule":
        return "---"
    return draw(PARAGRAPH)


MARKDOWN = st.builds(
    lambda front, blocks, newline: (front + "\n\n".join(blocks) + "\n").replace("\n", newline),
    st.sampled_from(["", "---\ntitle: Generated\naccess: internal\n---\n"]),
    st.lists(md_block(), min_size=0, max_size=14),
    st.sampled_from(["\n", "\r\n"]),
)
TURN = st.builds(lambda who, body: f"{who}: {body}", st.sampled_from(["Ann", "Bob", "Dr. Li"]), PARAGRAPH)
TEXT = st.one_of(
    st.lists(PARAGRAPH, min_size=0, max_size=10).map("\n\n".join),
    st.lists(TURN, min_size=3, max_size=12).map("\n".join),
)
BUDGETS = st.sampled_from([24, 40, 64, 128, 256])
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def body_chars(doc: Document) -> list[int]:
    excluded = [(e.start, e.end) for e in doc.elements if e.kind in NON_BODY_KINDS]
    return [i for i, ch in enumerate(doc.text) if not ch.isspace() and not any(s <= i < e for s, e in excluded)]


def check_invariants(doc: Document, chunker: Chunker) -> None:
    chunks = chunker.chunk(doc)
    budget = chunker.max_tokens
    for c in chunks:
        assert c.text == doc.text[c.start : c.end]
        assert c.tokens <= budget
        assert c.tokens == chunker.counter.count(c.embed_text)
        assert c.embed_text.endswith(c.text)
    covered = bytearray(len(doc.text))
    for c in chunks:
        covered[c.start : c.end] = b"\x01" * (c.end - c.start)
    missing = [i for i in body_chars(doc) if not covered[i]]
    assert not missing, f"uncovered text: {doc.text[missing[0] : missing[0] + 40]!r}"
    assert [c.id for c in chunker.chunk(doc)] == [c.id for c in chunks]


def check_atomic_units_whole(doc: Document, chunker: Chunker) -> None:
    """A unit that fits the budget with its own context is never cut by a chunk boundary."""
    counter = chunker.counter
    builder = chunker.builder(doc)
    chunks = chunker.chunk(doc)
    bounds = {c.start for c in chunks} | {c.end for c in chunks}
    for u in leaf_units(doc):
        own = counter.count_many([doc.text[u.start : u.end]])[0]
        need = own + counter.specials + builder.tokens(builder.prefix(u.section, u.context, 0))
        if need <= chunker.max_tokens:
            inside = [b for b in bounds if u.start < b < u.end]
            assert not inside, f"unit {doc.text[u.start : u.end][:60]!r} was split"


@SETTINGS
@given(source=MARKDOWN, budget=BUDGETS)
# Found by hypothesis: a chunk of two bare headings was priced without the title it then got.
@example(source="## the\r\n\r\nThe.\r\n\r\nthe the the the e.g.\r\n===\r\n\r\nthe\r\n===\r\n", budget=24)
def test_markdown_invariants(source: str, budget: int, chunker_factory) -> None:
    doc = markdown.parse(source.encode(), "gen.md")
    check_invariants(doc, chunker_factory(max_tokens=budget))
    check_atomic_units_whole(doc, chunker_factory(max_tokens=budget))


@SETTINGS
@given(source=TEXT, budget=BUDGETS)
def test_text_invariants(source: str, budget: int, chunker_factory) -> None:
    doc = text.parse(source.encode(), "gen.txt")
    check_invariants(doc, chunker_factory(max_tokens=budget))
    check_atomic_units_whole(doc, chunker_factory(max_tokens=budget))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=MARKDOWN, budget=BUDGETS, overlap=st.integers(0, 2), min_tokens=st.sampled_from([0, 10]))
def test_options_keep_slices_and_budget(
    source: str, budget: int, overlap: int, min_tokens: int, chunker_factory
) -> None:
    doc = markdown.parse(source.encode(), "gen.md")
    check_invariants(doc, chunker_factory(max_tokens=budget, overlap=overlap, min_tokens=min_tokens))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=MARKDOWN, budget=BUDGETS, strategy=st.sampled_from(["recursive"]))
def test_baselines_keep_slices_and_budget(source: str, budget: int, strategy: str, chunker_factory) -> None:
    doc = markdown.parse(source.encode(), "gen.md")
    chunker = chunker_factory(max_tokens=budget, strategy=strategy)
    for c in chunker.chunk(doc):
        assert c.text == doc.text[c.start : c.end] and c.tokens <= budget


def test_chunk_config_is_hashable_for_the_fixture() -> None:
    assert hash(ChunkConfig(max_tokens=10)) == hash(ChunkConfig(max_tokens=10))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=st.one_of(st.none(), TITLE),
    headings=st.lists(TITLE, max_size=4),
    lead=st.one_of(st.none(), PARAGRAPH),
    header=st.one_of(st.none(), PARAGRAPH),
    budget=BUDGETS,
    share=st.sampled_from([0.1, 0.2, 0.3]),
)
def test_context_never_exceeds_its_budget_nor_starts_or_ends_mid_word(
    title: str | None, headings: list[str], lead: str | None, header: str | None, budget: int, share: float
) -> None:
    from parsegate.chunkers.structural.context import Context, ContextBuilder
    from parsegate.chunkers.tokens.counter import load_counter

    builder = ContextBuilder(load_counter(), title, budget, share)
    prefix = builder.prefix(tuple(headings), Context(lead_in=lead, header=header), 0)
    if prefix:
        assert builder.tokens(prefix) <= builder.cap
    sources = [s for s in (title, *headings, lead, header) if s]
    for part in re.split(r"\n| > ", prefix) if prefix else []:
        if part.startswith("… "):
            kept = part[2:]
            assert any(s.endswith(kept) and (s == kept or s[-len(kept) - 1] == " ") for s in sources), part
        elif part.endswith(" …"):
            kept = part[:-2]
            assert any(s.startswith(kept) and s[len(kept) : len(kept) + 1] == " " for s in sources), part
        else:
            assert part in sources, part
