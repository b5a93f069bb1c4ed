"""The real-world Markdown corpus (../shared/corpus/markdown/fastapi-docs)."""

from __future__ import annotations

from collections import Counter

from parsegate.parsers import markdown
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


def _messy_variants(source: str) -> dict[str, str]:
    """What users feed us: lower-cased, blank lines removed, Markdown stripped, tables flattened."""
    lines = source.splitlines()
    flat = [ln.strip().strip("|").strip() for ln in lines if not set(ln.strip()) <= set("|-: ")]
    return {
        "lower.md": source.lower(),
        "no-blank-lines.md": "\n".join(ln for ln in lines if ln.strip()),
        "plain.txt": "\n".join(ln.lstrip("#>*- ").replace("**", "").replace("`", "") for ln in lines),
        "flat-tables.txt": "\n".join(flat).lower(),
    }


def test_token_counts_off_the_one_pass_equal_a_fresh_count_on_messy_variants(chunker_factory) -> None:
    """Every chunk's reported count, read off the document's one tokenizer pass, equals a real count
    of its embed_text — on the fastapi docs made messy the ways users' files are."""
    from parsegate.parsers import text

    root = corpus_dir("markdown/fastapi-docs")
    files = sorted(root.rglob("*.md"))[::5]
    chunker = chunker_factory(max_tokens=200)
    reported: list[int] = []
    embeds: list[str] = []
    for path in files:
        for name, variant in _messy_variants(path.read_text()).items():
            parser = markdown if name.endswith(".md") else text
            doc = parser.parse(variant.encode(), f"{path.stem}/{name}")
            for c in chunker.chunk(doc):
                assert c.text == doc.text[c.start : c.end]
                reported.append(c.tokens)
                embeds.append(c.embed_text)
    assert len(reported) > 1000
    assert chunker.counter.count_embedded(embeds) == reported
    assert max(reported) <= 200
