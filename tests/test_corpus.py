"""The real-world Markdown corpus (../shared/corpus/markdown/fastapi-docs)."""

from __future__ import annotations

from collections import Counter

from parsers import markdown
from tests.conftest import corpus_dir


def test_fastapi_docs_chunk_within_budget_with_exact_localization(chunker_factory) -> None:
    root = corpus_dir("markdown/fastapi-docs")
    files = sorted(root.rglob("*.md"))
    assert len(files) == 155
    chunker = chunker_factory(max_tokens=256)
    over_budget = localization_failures = chunks_total = 0
    kinds: Counter[str] = Counter()
    reported: list[int] = []
    embeds: list[str] = []
    for path in files:
        doc = markdown.parse(path.read_bytes(), path.relative_to(root).as_posix())
        kinds.update(e.kind for e in doc.elements)
        for c in chunker.chunk(doc):
            chunks_total += 1
            over_budget += c.tokens > 256
            localization_failures += c.text != doc.text[c.start : c.end]
            reported.append(c.tokens)
            embeds.append(c.embed_text)
    assert over_budget == 0
    assert localization_failures == 0
    # Summed counts (the additive fast path) equal a fresh count of every embed_text.
    assert chunker.counter.count_embedded(embeds) == reported
    assert chunks_total > 1000
    # What the corpus holds (counted once by hand): code, nested lists, HTML, a table, front matter.
    assert kinds["code"] == 400 and kinds["list_item"] == 5112 and kinds["html"] == 254
    assert kinds["table_row"] == 8 and kinds["front_matter"] == 4
