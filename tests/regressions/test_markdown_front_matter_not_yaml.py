"""Text between an opening `---` and a later `---` was taken as front matter although it is no
YAML, and dropped: not in chunks, not in metadata (issue 39: the gate passed it, since the parser
declared it front matter). Only a YAML mapping is front matter; anything else is the document's own
Markdown, with a warning that says why."""

from __future__ import annotations

import parsegate

NOT_YAML = """---
This is an intro paragraph: with a colon, and not YAML at all
- and a list item
key: [unclosed
---

# Title

Body text.
"""
A_SENTENCE = "---\nJust one sentence between two rules.\n---\n\nBody text.\n"
FRONT = "---\ntitle: Travel policy\nowner: finance\n---\n\n# Travel\n\nBody text.\n"


def test_what_is_no_yaml_mapping_is_read_as_markdown_and_chunked() -> None:
    for source, words in (
        (NOT_YAML, ["intro paragraph", "a list item", "[unclosed"]),
        (A_SENTENCE, ["Just one sentence"]),
    ):
        doc = parsegate.parse(text=source, format="md")
        assert "front_matter" not in [e.kind for e in doc.elements]
        (warning,) = [w for w in doc.warnings if w.code == "front_matter"]
        assert warning.message.startswith("not read as front matter: it")
        chunked = " ".join(c.text for c in parsegate.chunk(doc))
        assert all(word in chunked for word in words), chunked


def test_a_yaml_mapping_is_front_matter_and_metadata() -> None:
    doc = parsegate.parse(text=FRONT, format="md")
    assert [e.kind for e in doc.elements][:2] == ["front_matter", "heading"]
    assert doc.metadata["owner"] == "finance" and doc.warnings == []
