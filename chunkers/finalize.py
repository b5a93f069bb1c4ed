"""Drafts → chunk records, with the budget measured on the real ``embed_text``.

Every strategy produces drafts (a span plus the context it needs); this module
builds each draft's ``embed_text``, counts it with the real tokenizer in one
batch, and splits any draft that is still over budget until none is. The budget
is therefore a guarantee, whatever the strategy estimated while packing.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from chunkers.budget import Counter
from chunkers.chunk import Chunk, chunk_id
from chunkers.sentences import sentence_spans
from parsers.model import Document, Element

CRUMB_SEP = " > "
# Formats whose Document.text is the user's file, so line numbers point into it.
LINE_FORMATS = frozenset({"markdown", "text", "code"})


@dataclass
class Draft:
    start: int
    end: int
    section_path: tuple[str, ...]
    kinds: list[str]
    context: tuple[str, ...] = ()
    own_headings: int = 0  # headings the chunk's text opens with (not repeated in the prefix)
    language: str | None = None
    symbol: str | None = None
    id: str | None = None  # strategies with their own id scheme (the fixed baseline)
    tokens: int | None = None  # the text's exact token count, when the strategy knows it
    warnings: list[dict[str, str]] = field(default_factory=list)


def breadcrumb(title: str | None, section_path: tuple[str, ...], own_headings: int = 0) -> str:
    """Title and section path, without the headings the chunk's own text opens with."""
    kept = section_path[: max(0, len(section_path) - own_headings)]
    crumbs: list[str] = []
    for part in ([title] if title else []) + list(kept):
        if part and (not crumbs or crumbs[-1] != part):
            crumbs.append(part)
    if own_headings and crumbs and len(kept) < len(section_path) and crumbs[-1] == section_path[len(kept)]:
        crumbs.pop()  # the title is the first heading the chunk states
    return CRUMB_SEP.join(crumbs)


class Prefixer:
    """Builds context prefixes and remembers their token counts (they repeat a lot)."""

    def __init__(self, doc: Document, counter: Counter, max_tokens: int) -> None:
        self.doc = doc
        self.counter = counter
        self.cap = max(1, (max_tokens - counter.specials) // 2)  # context never takes over half
        self._tokens: dict[str, int] = {}
        self._prefixes: dict[tuple[tuple[str, ...], tuple[str, ...], int], str] = {}

    def prefix(self, section_path: tuple[str, ...], context: tuple[str, ...], own_headings: int) -> str:
        key = (section_path, context, own_headings)
        if key in self._prefixes:
            return self._prefixes[key]
        text = self._raw(section_path, context, own_headings)
        if text and self.tokens(text) > self.cap:
            text = text[: self.counter.cuts(text, self.cap)[0]].rstrip()
            self._tokens[text] = min(self.cap, self.tokens(text))
        self._prefixes[key] = text
        return text

    def warm(self, keys: Iterable[tuple[tuple[str, ...], tuple[str, ...], int]]) -> None:
        """Count every prefix these chunk starts may need in one batch."""
        todo = sorted({self._raw(*key) for key in keys} - self._tokens.keys() - {""})
        for text, n in zip(todo, self.counter.count_many([t + "\n\n" for t in todo]), strict=True):
            self._tokens[text] = n

    def _raw(self, section_path: tuple[str, ...], context: tuple[str, ...], own_headings: int) -> str:
        crumb = breadcrumb(self.doc.title, section_path, own_headings)
        return "\n".join(([crumb] if crumb else []) + [c for c in context if c])

    def tokens(self, text: str) -> int:
        if not text:
            return 0
        if text not in self._tokens:
            # The blank line that joins prefix and text costs what it costs: count them together.
            self._tokens[text] = self.counter.count_many([text + "\n\n"])[0]
        return self._tokens[text]


def embed_text(prefix: str, text: str) -> str:
    return f"{prefix}\n\n{text}" if prefix else text


def finalize(
    doc: Document,
    drafts: list[Draft],
    counter: Counter,
    max_tokens: int,
    chunk_set: str,
    prefixer: Prefixer | None = None,
) -> list[Chunk]:
    prefixer = prefixer or Prefixer(doc, counter, max_tokens)
    pending = [d for d in drafts if d.end > d.start]
    done: list[tuple[Draft, str, int]] = []
    while pending:
        embeds = [_embed(doc, prefixer, d) for d in pending]
        counts = _counts(pending, embeds, prefixer, counter)
        retry: list[Draft] = []
        for draft, embed, n in zip(pending, embeds, counts, strict=True):
            halves = [] if n <= max_tokens else _halve(doc, draft, counter)
            if n <= max_tokens or halves == [draft]:
                done.append((draft, embed, n))  # the second case: one character, cannot shrink
            else:
                retry.extend(halves)
        pending = retry
    done.sort(key=lambda t: (t[0].start, t[0].end))
    return _records(doc, done, counter, chunk_set)


def _counts(drafts: list[Draft], embeds: list[str], prefixer: Prefixer, counter: Counter) -> list[int]:
    """Tokens of each embed_text: summed where the counter is additive and the draft's count is
    exact, measured (in one batch) everywhere else."""
    counts: list[int | None] = [None] * len(drafts)
    if counter.additive:
        for i, (d, embed) in enumerate(zip(drafts, embeds, strict=True)):
            if d.tokens is not None:
                prefix = embed[: len(embed) - (d.end - d.start)].removesuffix("\n\n")
                counts[i] = counter.specials + prefixer.tokens(prefix) + d.tokens
    missing = [i for i, n in enumerate(counts) if n is None]
    for i, n in zip(missing, counter.count_embedded([embeds[i] for i in missing]), strict=True):
        counts[i] = n
    return [int(n) for n in counts if n is not None]


def _embed(doc: Document, prefixer: Prefixer, d: Draft) -> str:
    prefix = prefixer.prefix(d.section_path, d.context, d.own_headings)
    return embed_text(prefix, doc.text[d.start : d.end])


def _halve(doc: Document, draft: Draft, counter: Counter) -> list[Draft]:
    """Split an over-budget draft in two: at the sentence nearest its middle, else by tokens."""
    text = doc.text
    middle = (draft.start + draft.end) // 2
    bounds = [s for s, _ in sentence_spans(text, draft.start, draft.end)][1:]
    if bounds:
        cut = min(bounds, key=lambda b: abs(b - middle))
    else:
        span = text[draft.start : draft.end]
        tokens = max(2, counter.count_many([span])[0])
        cuts = counter.cuts(span, (tokens + 1) // 2)
        cut = draft.start + cuts[0] if cuts else draft.start + max(1, (draft.end - draft.start) // 2)
    left_end = cut
    while left_end > draft.start and text[left_end - 1].isspace():
        left_end -= 1
    right_start = cut
    while right_start < draft.end and text[right_start].isspace():
        right_start += 1
    if (left_end <= draft.start and right_start >= draft.end) or draft.end - draft.start <= 1:
        return [draft]
    left = replace(draft, end=left_end, id=None, tokens=None)
    right = replace(draft, start=right_start, own_headings=0, id=None, tokens=None)
    return [d for d in (left, right) if d.end > d.start]


def _provenance(doc: Document) -> tuple[list[int], list[Element]]:
    located = sorted((e for e in doc.leaves() if e.page is not None), key=lambda e: e.start)
    return [e.start for e in located], located


def _pages_and_boxes(
    starts: list[int], located: list[Element], start: int, end: int
) -> tuple[list[int] | None, list[dict[str, Any]] | None]:
    """Pages (and boxes) of the elements a chunk overlaps, for formats that have them."""
    if not located:
        return None, None
    i = max(0, bisect.bisect_right(starts, start) - 1)
    pages: list[int] = []
    boxes: list[dict[str, Any]] = []
    while i < len(located) and located[i].start < end:
        el = located[i]
        if el.end > start and el.page is not None:
            if el.page not in pages:
                pages.append(el.page)
            if el.bbox is not None:
                boxes.append({"page": el.page, "bbox": list(el.bbox)})
        i += 1
    return (sorted(pages) or None), (boxes or None)


def _records(doc: Document, done: list[tuple[Draft, str, int]], counter: Counter, chunk_set: str) -> list[Chunk]:
    base_meta = dict(doc.metadata)
    chunks: list[Chunk] = []
    starts, located = _provenance(doc)
    for draft, embed, n in done:
        pages, boxes = _pages_and_boxes(starts, located, draft.start, draft.end)
        chunks.append(
            Chunk(
                id=draft.id or chunk_id(chunk_set, doc.doc_id, doc.version, draft.start, draft.end),
                doc_id=doc.doc_id,
                doc_version=doc.version,
                chunk_set=chunk_set,
                start=draft.start,
                end=draft.end,
                text=doc.text[draft.start : draft.end],
                embed_text=embed,
                tokens=n,
                tokenizer=counter.fingerprint,
                section_path=list(draft.section_path),
                kinds=draft.kinds,
                lines=doc.lines_of(draft.start, draft.end) if doc.format in LINE_FORMATS else None,
                pages=pages,
                boxes=boxes,
                language=draft.language,
                symbol=draft.symbol,
                metadata=base_meta,
                warnings=draft.warnings,
            )
        )
    for prev, nxt in itertools.pairwise(chunks):
        prev.next_id, nxt.prev_id = nxt.id, prev.id
    return chunks
