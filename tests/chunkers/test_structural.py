from __future__ import annotations

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.structural.context import breadcrumb
from parsegate.parsers import markdown, text


def chunk_md(source: str, **config: object):
    doc = markdown.parse(source.encode(), "doc.md")
    return doc, Chunker(ChunkConfig(**config)).chunk(doc)  # type: ignore[arg-type]


def test_sections_become_chunks_with_breadcrumbs() -> None:
    _doc, chunks = chunk_md("# T\n\nOne two three. Four five six.\n\n## S\n\nSeven eight.\n", tokenizer="words")
    assert [(c.start, c.end) for c in chunks] == [(0, 34), (36, 54)]
    assert [c.text for c in chunks] == ["# T\n\nOne two three. Four five six.", "## S\n\nSeven eight."]
    assert chunks[1].embed_text == "T\n\n## S\n\nSeven eight."
    assert chunks[1].section_path == ["T", "S"]
    assert chunks[0].prev_id is None and chunks[0].next_id == chunks[1].id and chunks[1].prev_id == chunks[0].id
    assert [c.lines for c in chunks] == [(1, 3), (5, 7)]


def test_never_crosses_into_another_section_without_min_tokens() -> None:
    source = "# A\n\nalpha.\n\n## B\n\nbeta.\n\n## C\n\ngamma.\n"
    _, chunks = chunk_md(source, tokenizer="words", max_tokens=50)
    assert [c.text for c in chunks] == ["# A\n\nalpha.", "## B\n\nbeta.", "## C\n\ngamma."]
    _, merged = chunk_md(source, tokenizer="words", max_tokens=50, min_tokens=5)
    assert [c.text for c in merged] == [source.strip()]
    assert merged[0].section_path == ["A"]


def test_heading_stays_with_its_first_block_and_bare_headings_with_the_subsection() -> None:
    _, chunks = chunk_md("# A\n\n## B\n\nbody text here.\n", tokenizer="words", max_tokens=10)
    assert [c.text for c in chunks] == ["# A\n\n## B\n\nbody text here."]
    assert chunks[0].section_path == ["A", "B"]
    assert chunks[0].embed_text == chunks[0].text  # every heading above it is in its own text


def test_paragraph_over_budget_splits_at_sentences_keeping_the_exception() -> None:
    source = "Rule one applies here today. However it does not apply on holidays. Next topic is short. Fine."
    doc = text.parse(source.encode(), "p.txt")
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=12)).chunk(doc)
    assert [c.text for c in chunks] == [
        "Rule one applies here today. However it does not apply on holidays.",
        "Next topic is short. Fine.",
    ]


def test_table_rows_carry_their_header_and_text_stays_the_exact_slice() -> None:
    rows = "".join(f"| r{i} | value {i} |\n" for i in range(6))
    source = f"Intro line.\n\n| Name | Amount |\n|---|---|\n{rows}"
    doc, chunks = chunk_md(source, tokenizer="words", max_tokens=14)
    assert len(chunks) > 2
    for c in chunks:
        assert c.text == doc.text[c.start : c.end]
        if "table_row" in c.kinds:
            assert "| Name | Amount |" in c.embed_text
    later = [c for c in chunks if c.text.startswith("| r")]
    assert later and all(c.embed_text.startswith("| Name | Amount |\n\n") for c in later)


def test_list_items_carry_their_lead_in_when_the_list_splits() -> None:
    items = "".join(f"- item number {i} here\n" for i in range(8))
    _doc, chunks = chunk_md(f"Before you start, check:\n\n{items}", tokenizer="words", max_tokens=16)
    assert chunks[0].text.startswith("Before you start, check:\n\n- item number 0")
    for c in chunks[1:]:
        assert c.embed_text.startswith("Before you start, check:\n\n- item")


def test_turn_pieces_repeat_the_speaker() -> None:
    source = b"Ann: hi.\nBob: One two three four. Five six seven eight. Nine ten eleven twelve.\nAnn: ok.\n"
    doc = text.parse(source, "t.txt")
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=10)).chunk(doc)
    bob = [c for c in chunks if "Five" in c.text or "Nine" in c.text]
    assert bob and all(c.embed_text.startswith("Bob:\n\n") for c in bob if not c.text.startswith("Bob:"))


def test_overlap_repeats_sentences_and_costs_index_size() -> None:
    source = "Alpha is here. Beta is here. Gamma is here. Delta is here. Epsilon is here. Zeta is here."
    doc = text.parse(source.encode(), "o.txt")
    plain = Chunker(ChunkConfig(tokenizer="words", max_tokens=12)).chunk(doc)
    overlapped = Chunker(ChunkConfig(tokenizer="words", max_tokens=12, overlap=1)).chunk(doc)
    assert [c.text for c in plain] == [
        "Alpha is here. Beta is here. Gamma is here.",
        "Delta is here. Epsilon is here. Zeta is here.",
    ]
    # A quarter of the budget is kept free for the repeated sentence.
    assert [c.text for c in overlapped] == [
        "Alpha is here. Beta is here. Gamma is here.",
        "Gamma is here. Delta is here. Epsilon is here. Zeta is here.",
    ]
    assert all(c.tokens <= 12 for c in overlapped)
    assert sum(len(c.text) for c in overlapped) > sum(len(c.text) for c in plain)


def test_ids_are_content_addressed_and_configuration_named() -> None:
    source = b"# T\n\nSome text. More text.\n"
    a = Chunker(ChunkConfig(tokenizer="words")).chunk(markdown.parse(source, "d.md"))
    b = Chunker(ChunkConfig(tokenizer="words")).chunk(markdown.parse(source, "d.md"))
    c = Chunker(ChunkConfig(tokenizer="words", max_tokens=100)).chunk(markdown.parse(source, "d.md"))
    d = Chunker(ChunkConfig(tokenizer="words")).chunk(markdown.parse(source + b"\nNew.\n", "d.md"))
    assert [x.id for x in a] == [x.id for x in b]
    assert a[0].chunk_set == b[0].chunk_set != c[0].chunk_set
    assert a[0].id != c[0].id and a[0].id != d[0].id
    assert a[0].doc_version == "sha256:" + __import__("hashlib").sha256(source).hexdigest()


def test_record_shape() -> None:
    _, chunks = chunk_md("---\naccess: internal\n---\n# T\n\nx.\n")
    record = chunks[0].to_dict()
    assert record["schema"] == "parsegate.chunk/1"
    assert record["metadata"] == {"access": "internal", "title": "T"}
    assert record["tokenizer"].startswith("all-MiniLM-L6-v2@sha256:")
    assert set(record) >= {
        "id",
        "doc_id",
        "doc_version",
        "chunk_set",
        "start",
        "end",
        "text",
        "embed_text",
        "tokens",
        "section_path",
        "kinds",
        "prev_id",
        "next_id",
        "pages",
        "boxes",
        "lines",
    }


def test_breadcrumb_drops_what_the_text_already_says() -> None:
    assert breadcrumb("Doc", ("Doc", "A", "B"), 0) == "Doc > A > B"
    assert breadcrumb("Doc", ("Doc", "A", "B"), 1) == "Doc > A"
    assert breadcrumb("Doc", ("Doc", "A"), 2) == ""
    assert breadcrumb(None, (), 0) == ""


def test_recursive_baseline_offsets_are_exact() -> None:
    source = "para one is here.\n\npara two. has two sentences.\nand a line\n\n" + "word " * 40
    doc = text.parse(source.encode(), "r.txt")
    chunks = Chunker(ChunkConfig(strategy="recursive", tokenizer="words", max_tokens=8)).chunk(doc)
    assert all(c.text == doc.text[c.start : c.end] and c.tokens <= 8 for c in chunks)
    assert chunks[0].text == "para one is here."
    assert chunks[1].text == "para two. has two sentences.\nand a line"
    assert "".join(c.text for c in chunks).replace(" ", "").replace("\n", "") == source.replace(" ", "").replace(
        "\n", ""
    )


def test_tokenizer_json_path_counts_like_the_default() -> None:
    from parsegate.chunkers.tokens.counter import default_tokenizer_path

    doc = markdown.parse(b"# T\n\nA sentence with several words. Another one here.\n", "d.md")
    by_name = Chunker(ChunkConfig()).chunk(doc)
    by_path = Chunker(ChunkConfig(tokenizer=str(default_tokenizer_path()))).chunk(doc)
    assert [c.tokens for c in by_path] == [c.tokens for c in by_name]
    assert Chunker(ChunkConfig(tokenizer=str(default_tokenizer_path()))).max_tokens == 256
    assert by_path[0].tokenizer.split("@")[1] == by_name[0].tokenizer.split("@")[1]


def test_context_is_budgeted_and_cut_only_at_words_with_an_ellipsis() -> None:
    lead = "Before you start make sure that every one of the following conditions holds for the account:"
    items = "".join(f"- condition number {i} holds\n" for i in range(12))
    source = f"# Account closure procedure for regulated customers\n\n{lead}\n\n{items}"
    doc, chunks = chunk_md(source, tokenizer="words", max_tokens=24)
    chunker = Chunker(ChunkConfig(tokenizer="words", max_tokens=24))
    cap = chunker.builder(doc).cap
    assert cap == 8  # a fifth of 24 is under the floor of 8 words
    later = chunks[1:]
    assert later
    for c in later:
        prefix = c.embed_text[: len(c.embed_text) - len(c.text)].removesuffix("\n\n")
        assert len(prefix.split()) <= cap
        assert prefix.startswith("Account closure procedure")
        lead_line = prefix.split("\n")[1]
        # The lead-in keeps its last words, cut at a word, with a visible ellipsis.
        assert lead_line.startswith("… ") and lead.endswith(lead_line[2:])
        assert lead[: len(lead) - len(lead_line) + 2].endswith(" ")


def test_flattened_table_rows_stay_whole_and_carry_the_first_row_as_header() -> None:
    rows = "".join(f"region {i} | {1000 + i} | {900 + i} | up\n" for i in range(30))
    source = f"Sales by region\n\nregion | 2009 | 2008 | trend\n{rows}"
    doc = text.parse(source.encode(), "t.txt")
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=60)).chunk(doc)
    row_spans = [(e.start, e.end) for e in doc.elements if e.kind == "table_row"]
    assert len(row_spans) == 31 and len(chunks) > 3
    for c in chunks:
        assert all(not (s < c.start < e or s < c.end < e) for s, e in row_spans)
    for c in chunks[1:]:
        assert c.embed_text.startswith("Sales by region\nregion | 2009 | 2008 | trend\n\n")


def test_a_flattened_row_stays_whole_with_its_header_cut_short() -> None:
    """A row that fits the budget alone is never cut at a pipe because its long header rides along:
    the header is cut at a word, with an ellipsis, to what the row leaves (issue 35)."""
    rows = (
        "north america enterprise software and cloud subscriptions | 1,234 | 1,100 | up\neurope services | 7 | 6 | up\n"
    )
    source = "Revenue by segment\n\nsegment | revenue this fiscal year | revenue prior fiscal year | change\n" + rows
    doc = text.parse(source.encode(), "t.txt")
    assert [(e.start, e.end) for e in doc.elements if e.kind == "table_row"] == [(20, 91), (92, 170), (171, 199)]
    prefixes = {
        16: "segment | …",
        20: "segment | revenue this fiscal year …",
        24: "segment | revenue this fiscal year | …",
    }
    for budget, prefix in prefixes.items():
        chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=budget)).chunk(doc)
        assert [(c.start, c.end) for c in chunks] == [(0, 91), (92, 170), (171, 199)], budget
        assert all(c.tokens <= budget for c in chunks)
        assert chunks[1].embed_text == prefix + "\n\n" + doc.text[92:170]


def test_one_tokenizer_pass_per_document(chunker_factory) -> None:
    """The document is tokenized once (with offsets); embed_texts are counted off that pass, and
    only a sample of them is tokenized again to check it."""
    from parsegate.chunkers.tokens.counter import HFCounter, default_tokenizer_path

    counter = HFCounter(default_tokenizer_path(), "all-MiniLM-L6-v2")
    seen = {"chars": 0}
    real = counter.tokenizer

    class Spy:
        def __getattr__(self, name: str):
            method = getattr(real, name)

            def call(arg, *a, **k):
                seen["chars"] += len(arg) if isinstance(arg, str) else sum(len(x) for x in arg)
                return method(arg, *a, **k)

            return call

    paragraphs = "\n\n".join(f"## Part {i}\n\n" + "The rule applies to every claim. " * 30 for i in range(40))
    doc = markdown.parse(f"# Guide\n\n{paragraphs}\n".encode(), "g.md")
    chunker = Chunker(ChunkConfig(max_tokens=128))
    chunker.counter = counter
    counter._tokenizer = Spy()  # type: ignore[assignment]
    chunks = chunker.chunk(doc)
    assert len(chunks) > 40
    assert seen["chars"] < 1.2 * len(doc.text), seen["chars"] / len(doc.text)
    assert [c.tokens for c in chunks] == [len(e.ids) for e in real.encode_batch_fast([c.embed_text for c in chunks])]


def test_an_empty_section_goes_on_into_the_next_sibling_instead_of_standing_alone() -> None:
    source = "# Tools\n\n## Line width\n\n## Arrow style\n\nPick one of six arrow styles.\n"
    _doc, chunks = chunk_md(source, tokenizer="words", max_tokens=60)
    assert [c.text for c in chunks] == [source.strip()]
    assert chunks[0].section_path == ["Tools", "Arrow style"]
    # A section with a body is never joined to its sibling.
    source = "# Tools\n\n## Line width\n\nThin or thick.\n\n## Arrow style\n\nPick one.\n"
    _doc, chunks = chunk_md(source, tokenizer="words", max_tokens=60)
    assert [c.text for c in chunks] == ["# Tools\n\n## Line width\n\nThin or thick.", "## Arrow style\n\nPick one."]


def test_breadcrumb_gives_way_to_a_whole_paragraph() -> None:
    """A paragraph that fits the budget only without its full breadcrumb stays whole; its prefix
    gets what the text leaves (the nearest heading first) and the chunk stays within budget."""
    para = "Cash rose to nine million. Operations provided four million. We bought back shares for two million."
    source = (
        f"# Quarterly report of the northern region\n\n## Liquidity and capital resources\n\nCash is fine.\n\n{para}\n"
    )
    _doc, chunks = chunk_md(source, tokenizer="words", max_tokens=20)
    assert [c.text for c in chunks] == [source[:92], para]
    assert chunks[1].embed_text == f"Liquidity and capital resources\n\n{para}"
    assert chunks[1].tokens == 20 == len(chunks[1].embed_text.split())


def test_a_heading_is_not_left_alone_for_a_paragraph_kept_whole() -> None:
    """Where the heading and the paragraph under it do not fit together even without a
    breadcrumb, the paragraph is cut as before: the heading goes on with its first sentences."""
    para = "Cash rose to nine million. Operations provided four million. We bought back shares for two million."
    _, chunks = chunk_md(f"# Quarterly report of the northern region\n\n{para}\n", tokenizer="words", max_tokens=20)
    assert [c.text for c in chunks] == [
        "# Quarterly report of the northern region\n\nCash rose to nine million.",
        "Operations provided four million. We bought back shares for two million.",
    ]


def test_a_table_that_fits_whole_is_not_cut_between_its_rows() -> None:
    """A block that fits in one chunk with its lead-in ends a chunk before or after it, not inside;
    one too big for a chunk is cut between its rows as before."""
    rows = "".join(f"| r{i} | value {i} |\n" for i in range(3))
    table = f"The values:\n\n| key | value |\n|---|---|\n{rows}"
    first = "First paragraph one two three four five six seven eight nine ten."
    source = f"{first}\n\n{table}\nAfter the table comes this closing sentence.\n"
    _, chunks = chunk_md(source, tokenizer="words", max_tokens=30, context_share=0.0)
    assert [c.text for c in chunks] == [first, table.strip(), "After the table comes this closing sentence."]
    big = "".join(f"| r{i} | value {i} |\n" for i in range(12))
    _, chunks = chunk_md(
        f"{first}\n\nThe values:\n\n| key | value |\n|---|---|\n{big}", tokenizer="words", max_tokens=30
    )
    assert chunks[0].text.startswith(first) and chunks[0].text.endswith("| r0 | value 0 |")


def test_a_chunk_of_headings_alone_is_in_the_section_common_to_them() -> None:
    # A contents list set as headings (a manual exported to Word or Markdown): sections with no
    # text of their own. A chunk of three sibling headings was filed under the first of them,
    # "Manual > 1. Scope", a section two of its three lines are not in, and the gate's heading
    # inheritance (its own reading of the headings) failed every such chunk.
    from parsegate.quality_gates.measure import measure
    from parsegate.quality_gates.thresholds import Thresholds
    from parsegate.quality_gates.verdict import evaluate

    source = "# Manual\n\n" + "".join(f"## {n}. Part {n} of the valve manual\n\n" for n in range(1, 13))
    source += "Valves are inspected every spring.\n"
    doc = markdown.parse(source.encode(), "manual.md")
    chunker = Chunker(ChunkConfig(max_tokens=40))
    chunks = chunker.chunk(doc)
    assert [(list(c.section_path), c.text.count("## ")) for c in chunks] == [
        (["Manual"], 3),  # the document's heading with the first parts under it: its own section
        (["Manual"], 3),
        (["Manual"], 3),
        (["Manual", "12. Part 12 of the valve manual"], 3),
    ]
    assert chunks[0].embed_text.startswith("# Manual\n\n## 1. Part 1")  # no breadcrumb: it states it
    assert chunks[1].embed_text.startswith("Manual\n\n## 4. Part 4")  # the breadcrumb room() priced
    # Text under the last of three headings: only that one is on its section's path; the two
    # siblings above it in the same chunk do not take the document's heading out of the breadcrumb.
    assert chunks[3].embed_text.startswith("Manual\n\n## 10. Part 10")
    assert all(c.tokens <= 40 for c in chunks)
    verdict = evaluate(measure(doc, chunks, chunker.counter, 40, source.encode()), Thresholds())
    assert verdict.metrics["heading_inheritance"] == 1.0, verdict.failed
