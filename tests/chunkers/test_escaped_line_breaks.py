"""Text exported as JSON or a Python repr keeps its line breaks as the two characters '\\' 'n' (a
chat log's messages, Chroma's chunking-evaluation chat corpus): there they are line breaks for
boundary purposes, and a chunk ends at one instead of mid-sentence (issue 35)."""

from __future__ import annotations

import parsegate
from parsegate.chunkers.structural.boundaries import escaped_lines

MESSAGE = (
    "[{'content': 'Can you guide me through enabling the secondary image hover feature?', 'role': 'user'}, "
    "{'content': 'Sure, here are the steps:\\n\\n1. Log in to your Shopify account and open your Online Store.\\n"
    "2. Click on Customize theme and find the Collection pages section of your theme.\\n"
    "3. Scroll down to the Product grid settings and look for the option named Show secondary image on hover.\\n"
    "4. Tick the box next to that option so that the second image of each product appears.\\n"
    "5. Click Save in the top right corner, then open a collection page to check the result.\\n"
    "6. Repeat the same steps for the Featured Collections sections on your home page.', 'role': 'assistant'}]"
)


def test_literal_escapes_are_line_breaks_only_in_escaped_text() -> None:
    cuts = escaped_lines(MESSAGE, 0, len(MESSAGE))
    assert [MESSAGE[c.end : c.start] for c in cuts] == ["\\n\\n", "\\n", "\\n", "\\n", "\\n", "\\n"]
    prose = "Use the sequence \\n for a line break.\nIt is two characters.\nNothing more.\n"
    assert escaped_lines(prose, 0, len(prose)) == []  # one escape, real line breaks: not escaped text


def test_a_chunk_of_an_escaped_chat_ends_at_an_escaped_line_break() -> None:
    chunks = parsegate.chunk(text=MESSAGE, format="txt", max_tokens=64)
    assert len(chunks) > 2
    for c in chunks[:-1]:
        after = MESSAGE[c.end : c.end + 2]
        assert after == "\\n" or MESSAGE[c.end - 2 : c.end] == "\\n", (c.text[-40:], after)
