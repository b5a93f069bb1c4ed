"""A heading's title in a section path is its text, not its markup (issue 36): a heading kept as raw
Markdown put a link's URL into every chunk's section path (``How is it different from
[`got`](https://…)?``), and entities stayed undecoded (``&amp; &lt;``). The gate reads titles the
same way, so its heading inheritance holds."""

from __future__ import annotations

import parsegate

SOURCE = """# Intro &amp; setup

Text under the introduction.

## How is it different from [`got`](https://github.com/sindresorhus/got)?

Body about the differences.

## Use **bold**, _em_, &lt;tags&gt; and ![a diagram](d.png)

More words here.

## Only `code` spans `here`

Last words.
"""


def test_section_paths_hold_the_headings_text() -> None:
    doc = parsegate.parse(text=SOURCE, format="md")
    paths = [e.section_path for e in doc.elements if e.kind == "heading"]
    assert paths == [
        ("Intro & setup",),
        ("Intro & setup", "How is it different from got?"),
        ("Intro & setup", "Use bold, em, <tags> and a diagram"),
        ("Intro & setup", "Only code spans here"),
    ]
    assert doc.metadata["title"] == "Intro & setup"
    chunks = parsegate.chunk(doc, max_tokens=48)
    assert not any("https://" in c.embed_text[: len(c.embed_text) - len(c.text)] for c in chunks)
    verdict = parsegate.gate(doc, chunks, source=SOURCE.encode(), max_tokens=48)
    assert verdict.metrics["heading_inheritance"] == 1.0, verdict.failed
