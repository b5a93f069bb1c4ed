"""Does a heading look like one? A stray line of ``=`` under a paragraph makes it a setext
heading (CommonMark says so), and exporters style whole paragraphs as headings. Such a
"heading" becomes the section path of everything after it and rides in every chunk's
context, so a parser demotes it to a paragraph, with a ``suspect_heading`` warning.
"""

from __future__ import annotations

import re

MAX_WORDS = 20
MAX_CHARS = 160
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s+|$)")


def suspect_heading(title: str) -> str | None:
    """Why ``title`` does not look like a heading, or None if it does."""
    words = len(title.split())
    if words > MAX_WORDS:
        return f"{words} words (a heading has at most {MAX_WORDS})"
    if len(title) > MAX_CHARS:
        return f"{len(title)} characters (a heading has at most {MAX_CHARS})"
    if words > MAX_WORDS // 2:  # (a short heading may hold sentences: not counted for it)
        ends = len(_SENTENCE_END.findall(title.strip()))
        if ends >= 2:
            return f"{ends} sentences"
    return None
