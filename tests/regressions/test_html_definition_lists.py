"""HTML definition lists lost the link between a term and its description (issue 36: 20.5 % of the
term/description pairs of Debian's git and PostgreSQL manuals): <dt> and <dd> became unrelated list
items, a chunk could end on a dangling term and the next start with a description that names its
subject nowhere. A term with its description is one list item (the term in its data); a piece of a
description split over chunks carries its term as context, and the term alone never ends a chunk."""

from __future__ import annotations

import parsegate

DESCRIPTION = " ".join(
    f"Sentence {n} explains how the setting changes what the server sees in its logs." for n in range(12)
)
PAGE = (
    "<html><body><main><h1>Config</h1><p>The variables below set the HTTP client.</p><dl>"
    f"<dt>http.userAgent</dt><dd><p>{DESCRIPTION}</p></dd>"
    "<dt>http.proxy</dt><dd><p>Override the HTTP proxy.</p><p>Empty means none.</p></dd>"
    "</dl></main></body></html>"
)


def test_a_term_and_its_description_are_one_item_that_names_the_term() -> None:
    doc = parsegate.parse(text=PAGE, format="html")
    items = [e for e in doc.elements if e.kind == "list_item"]
    assert [(e.data.term, doc.text[e.start : e.end].split("\n")[0]) for e in items] == [
        ("http.userAgent", "http.userAgent"),
        ("http.proxy", "http.proxy"),
    ]
    assert doc.text[items[1].start : items[1].end] == "http.proxy\n\nOverride the HTTP proxy.\n\nEmpty means none."


def test_every_chunk_of_a_long_description_names_its_term_and_none_ends_on_it() -> None:
    doc = parsegate.parse(text=PAGE, format="html")
    (item,) = [e for e in doc.elements if e.kind == "list_item" and e.data.term == "http.userAgent"]
    chunks = [c for c in parsegate.chunk(doc, max_tokens=80) if c.start < item.end and c.end > item.start]
    assert len(chunks) > 2
    assert all("http.userAgent" in c.embed_text for c in chunks)
    assert not any(c.text.endswith("http.userAgent") for c in chunks)
