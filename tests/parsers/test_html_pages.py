"""Real-world style web pages (golden_docs/office/html): the main content without site chrome.

Each page was written after a real site's markup (a Sphinx/Read the Docs page with sidebar and
footer, an mdBook chapter with its keyboard-shortcuts help popup, a WordPress post with comments,
an API page whose navigation repeats every heading). Which headings and texts are chrome is known
by construction, so the checks here do not depend on what the parser decided.
"""

from __future__ import annotations

import pytest

from parsegate.chunkers import Chunk, ChunkConfig, Chunker
from parsegate.parsers.model import Document
from parsegate.parsers.registry import parse_file
from tests.conftest import GOLDEN

PAGES = GOLDEN / "office" / "html"
# The headings (and heading-like captions) of each page's chrome, by construction.
CHROME_HEADINGS = {
    "docs-sidebar": {"Getting started", "Operations", "Harbor"},
    "mdbook-chapter": {"Keyboard shortcuts", "The Ferry Book"},
    "blog-comments": {"3 replies on “Why our backups took nine hours”", "Leave a Reply", "Recent Posts"},
    "api-toc": {"Harbor v3.2 documentation", "Table of contents"},
}
# Words only the chrome of each page holds (navigation, popups, footers, banners, comments).
CHROME_PHRASES = {
    "docs-sidebar": ["Skip to main content", "Backups and restores", "View page source", "We use cookies", "Copyright"],
    "mdbook-chapter": ["Press", "Getting Started", "Coal", "The Ferry Book"],
    "blog-comments": ["Skip to the content", "pigz", "Leave a Reply", "Pager fatigue", "Powered by", "count visits"],
    "api-toc": ["About this documentation", "Edit on GitHub", "Trademark policy", "Other versions"],
}
# Evidence the content holds, which must reach a chunk.
CONTENT = {
    "docs-sidebar": ["Harbor refuses to start when the file is world-writable", "| Amazon S3 | s3 |"],
    "mdbook-chapter": ["It converts the error with From::from.", "Err(SendError::Refused) => ferry.retry(path),"],
    "blog-comments": ["The result is a backup that finishes in forty minutes.", "zstd -T8"],
    "api-toc": ["Calling timeout.ref() multiple times has no effect.", "| delay | number |"],
}


def chunks_of(case: str, max_tokens: int = 128) -> tuple[Document, list[Chunk]]:
    doc = parse_file(PAGES / case / "input.html", f"{case}.html")
    return doc, Chunker(ChunkConfig(max_tokens=max_tokens)).chunk(doc)


def chrome_share(pages: dict[str, tuple[Document, list[Chunk]]]) -> float:
    """The share of chunks whose section path names a heading of the site's chrome."""
    total = named = 0
    for case, (_, chunks) in pages.items():
        for chunk in chunks:
            total += 1
            named += any(part in CHROME_HEADINGS[case] for part in chunk.section_path)
    return named / total


def test_no_chunk_is_filed_under_a_heading_of_the_chrome() -> None:
    assert chrome_share({case: chunks_of(case) for case in CHROME_HEADINGS}) == 0.0


def test_the_share_counts_a_chunk_filed_under_chrome() -> None:
    """The measure itself: a page whose popup heading were content would count."""
    doc, chunks = chunks_of("mdbook-chapter")
    chunks[0].section_path = ["Keyboard shortcuts", *chunks[0].section_path]
    assert chrome_share({"mdbook-chapter": (doc, chunks)}) == pytest.approx(1 / len(chunks))


@pytest.mark.parametrize("case", sorted(CHROME_HEADINGS))
def test_chrome_stays_out_of_chunks_and_content_reaches_them(case: str) -> None:
    doc, chunks = chunks_of(case)
    embedded = "\n".join(c.embed_text for c in chunks)
    for phrase in CHROME_PHRASES[case]:
        assert phrase not in embedded, (case, phrase)
    for evidence in CONTENT[case]:
        assert any(evidence in c.text for c in chunks), (case, evidence)
    headings = {doc.text[e.start : e.end] for e in doc.elements if e.kind == "heading"}
    assert not headings & CHROME_HEADINGS[case]


@pytest.mark.parametrize("case", sorted(CHROME_HEADINGS))
def test_chrome_is_furniture_with_its_reason(case: str) -> None:
    doc, _ = chunks_of(case)
    furniture = [(doc.text[e.start : e.end], e.data.reason) for e in doc.elements if e.kind == "furniture"]
    held = " ".join(text for text, _ in furniture)
    for phrase in CHROME_PHRASES[case]:
        assert phrase in held, (case, phrase)
    assert all(reason for _, reason in furniture)


def test_how_each_page_found_its_content_and_its_chrome() -> None:
    reasons = {}
    for case in CHROME_HEADINGS:
        doc, _ = chunks_of(case)
        reasons[case] = (
            doc.metadata["main_content"],
            {e.data.reason for e in doc.elements if e.kind == "furniture"},
        )
    assert reasons["mdbook-chapter"][0] == "<main>"
    assert "outside the main content (<main>)" in reasons["mdbook-chapter"][1]  # the help popup
    assert reasons["api-toc"][0] == "text density"  # no <main>, no <article>
    assert "navigation (role=navigation)" in reasons["api-toc"][1]  # the table of contents
    assert {"skip link (class or id 'skip')", "cookie banner (class or id 'cookie')"} <= reasons["docs-sidebar"][1]
    assert {"comments (class or id 'comments')", "sidebar (<aside>)", "dialog (role=dialog)"} <= reasons[
        "blog-comments"
    ][1]


def test_a_heading_s_link_to_itself_is_not_its_text() -> None:
    doc, _ = chunks_of("api-toc")
    assert [doc.text[e.start : e.end] for e in doc.elements if e.kind == "heading"][:3] == [
        "Timers",
        "Class: Timeout",
        "timeout.ref()",
    ]


def test_the_page_title_comes_from_the_content_else_from_title() -> None:
    assert chunks_of("mdbook-chapter")[0].metadata["title"] == "Recoverable Errors with Result"
    assert chunks_of("api-toc")[0].metadata["title"] == "Timers | Harbor v3.2 API Documentation"


def _index_page() -> bytes:
    """An API index as libxslt's documentation writes one: a layout table, a title block, a menu
    cell, and the content: a definition list of words, each with links to the functions."""
    entries = "".join(
        f"<dt>{word}</dt><dd><a href='html/api.html#xslt{word}'>xslt{word}Context</a><br />"
        f"<a href='html/api.html#xslt{word}Free'>xslt{word}Free</a><br /></dd>"
        for word in ("Save", "Saxon", "Scaling", "Search", "Set", "Should", "Shutdown", "Signature", "Sort") * 4
    )
    return (
        "<html><head><title>API Alphabetic Index S-a for libxslt</title></head><body>"
        "<table><tr><td><h1>The XSLT C library for GNOME</h1><h2>API Alphabetic Index S-a for libxslt</h2>"
        "</td></tr></table><table><tr><td><ul><li><a href='index.html'>Home</a></li>"
        "<li><a href='intro.html'>Introduction</a></li></ul></td><td>"
        f"<h2>Letter S:</h2><dl>{entries}</dl></td></tr></table></body></html>"
    ).encode()


def test_a_page_whose_content_is_links_is_read_whole_with_a_warning() -> None:
    # Read by prose density, the index's content is all links (chrome to a readability score): the
    # densest block was the 64-character title, and the index was furniture, out of every chunk.
    doc = parse_file_bytes(_index_page(), "APIchunk2.html")
    assert doc.metadata["main_content"] == "the whole page (its densest prose block was too small a part of it)"
    assert [w.code for w in doc.warnings] == ["main_content_unclear"]
    body = " ".join(doc.text[e.start : e.end] for e in doc.elements if e.kind != "furniture")
    assert "xsltShutdownFree" in body and "Letter S:" in body
    # A page with a block of prose keeps reading that block alone.
    article, _ = chunks_of("api-toc")
    assert article.metadata["main_content"] == "text density" and not article.warnings


def parse_file_bytes(data: bytes, name: str) -> Document:
    from parsegate.parsers import office

    return office.parse(data, name)
