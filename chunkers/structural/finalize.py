"""Drafts → chunk records, with the budget checked on the real ``embed_text``.

Every strategy produces drafts (a span, its section and the context it needs); this
module builds each draft's ``embed_text`` (budgeted prefix, blank line, text) and its
token count. The count is read off the document's one tokenizer pass where that is
exact (an additive tokenizer, both ends of the span at pre-token boundaries: the
prefix's own count plus the span's plus the special tokens), and measured in one batch
everywhere else. A sample of the counts read off the pass is measured as well; if one
disagrees, every count is measured. A draft still over budget is cut again down the
boundary levels until none is: "no chunk over budget" is a guarantee.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from parsegate.chunkers.ids import ChunkIds
from parsegate.chunkers.ocr_meta import ocr_metadata
from parsegate.chunkers.record import Chunk
from parsegate.chunkers.structural.boundaries import PROSE, descend, is_title, titles_first
from parsegate.chunkers.structural.context import EMPTY, Context, ContextBuilder
from parsegate.chunkers.tokens.counter import Counter
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.formats import source_text_formats
from parsegate.parsers.model import Document, Element

# Formats whose Document.text is the user's file, so line numbers point into it (parsers/formats.py).
LINE_FORMATS = source_text_formats()
_SAMPLE_EVERY = 32  # one chunk in this many (and at least one per document) is measured for real


@dataclass(slots=True)
class Draft:
    start: int
    end: int
    section_path: tuple[str, ...]
    kinds: list[str]
    context: Context = EMPTY
    own_headings: int = 0  # headings the chunk's text opens with (not repeated in the prefix)
    context_cap: int | None = None  # tokens its prefix may take, when less than the usual share
    language: str | None = None
    symbol: str | None = None
    id: str | None = None  # strategies with their own id scheme (the fixed baseline)
    warnings: list[dict[str, str]] = field(default_factory=list)


def embed_text(prefix: str, text: str) -> str:
    return f"{prefix}\n\n{text}" if prefix else text


@dataclass
class Finalizer:
    doc: Document
    counter: Counter
    max_tokens: int
    chunk_set: str
    builder: ContextBuilder
    index: SpanIndex | None = None  # the one pass; without it every count is measured
    measured: int = 0  # embed_texts tokenized again (for the benchmark and the tests)

    def records(self, drafts: list[Draft]) -> list[Chunk]:
        pending = [d for d in drafts if d.end > d.start]
        done: list[tuple[Draft, str, int]] = []
        text = self.doc.text
        while pending:
            # Each prefix is kept beside its embed_text: _counts prices it by its remembered count.
            prefixes = [self._prefix(d) for d in pending]
            embeds = [embed_text(p, text[d.start : d.end]) for p, d in zip(prefixes, pending, strict=True)]
            counts = self._counts(pending, prefixes, embeds)
            retry: list[Draft] = []
            for draft, embed, n in zip(pending, embeds, counts, strict=True):
                pieces = [] if n <= self.max_tokens else self._split(draft, embed, n)
                if n <= self.max_tokens or pieces == [draft]:
                    done.append((draft, embed, n))  # the second case: one character, cannot shrink
                else:
                    retry.extend(pieces)
            pending = retry
        done.sort(key=lambda t: (t[0].start, t[0].end))
        return _records(self.doc, done, self.counter, self.chunk_set)

    def _prefix(self, d: Draft) -> str:
        return self.builder.prefix(d.section_path, d.context, d.own_headings, d.context_cap)

    def _counts(self, drafts: list[Draft], prefixes: list[str], embeds: list[str]) -> list[int]:
        """Each embed_text's tokens: off the one pass where exact, measured elsewhere, and a
        sample of the exact ones measured too (all of them, if any disagrees). (``prefixes``:
        the prefix each embed_text opens with.)"""
        counts: list[int | None] = [None] * len(drafts)
        index = self.index
        if index is not None and self.counter.additive:
            specials, tokens = self.counter.specials, self.builder.tokens
            for i, (d, prefix) in enumerate(zip(drafts, prefixes, strict=True)):
                if index.exact(d.start) and index.exact(d.end):
                    counts[i] = specials + tokens(prefix) + index.count(d.start, d.end)
        exact = [i for i, n in enumerate(counts) if n is not None]
        sample = exact[::_SAMPLE_EVERY]
        missing = [i for i, n in enumerate(counts) if n is None]
        measured = self._measure([embeds[i] for i in sample + missing])
        if any(counts[i] != n for i, n in zip(sample, measured, strict=False)):
            # The one pass disagrees with a real count: trust nothing read off it.
            return self._measure(embeds)
        for i, n in zip(sample + missing, measured, strict=True):
            counts[i] = n
        return [int(n) for n in counts if n is not None]

    def _measure(self, embeds: list[str]) -> list[int]:
        self.measured += len(embeds)
        return self.counter.count_embedded(embeds)

    def _split(self, draft: Draft, embed: str, n: int) -> list[Draft]:
        """An over-budget draft, cut down the boundary levels into pieces that should fit."""
        text = self.doc.text
        prefix_cost = n - self._span_tokens(draft)
        limit = max(1, self.max_tokens - prefix_cost)
        index = _Scaled(self.index or self.counter.index(text), draft, n - prefix_cost)
        pieces = titles_first(text, descend(text, draft.start, draft.end, PROSE, limit, index), index, limit)
        if len(pieces) <= 1:
            return _halves(text, draft)
        # The descent gives its finest pieces (words, say); join them back up to the limit. A
        # title line goes on with what it names (boundaries.is_title), not at the end of a span.
        spans: list[list[int]] = []
        for n, p in enumerate(pieces):
            if spans and index.count(spans[-1][0], p.end) <= limit:
                spans[-1][1] = p.end
                continue
            title = pieces[n - 1] if n else None
            if (
                title is not None
                and is_title(text, title, p)
                and spans[-1][0] < title.start
                and index.count(title.start, p.end) <= limit
            ):
                spans[-1][1] = pieces[n - 2].end  # (the title moves into the span it names)
                spans.append([title.start, p.end])
            else:
                spans.append([p.start, p.end])
        return [
            replace(draft, start=a, end=b, id=None, own_headings=draft.own_headings if k == 0 else 0)
            for k, (a, b) in enumerate(spans)
        ]

    def _span_tokens(self, draft: Draft) -> int:
        return self.counter.count_many([self.doc.text[draft.start : draft.end]])[0]


class _Scaled:
    """An index whose counts are scaled to agree with a real count of one span (for a draft the
    pass under-counted: its pieces are then cut with a margin)."""

    def __init__(self, index: SpanIndex, draft: Draft, real: int) -> None:
        self.index = index
        estimate = max(1, index.count(draft.start, draft.end))
        self.scale = max(1.0, real / estimate)

    def count(self, start: int, end: int) -> int:
        return int(self.index.count(start, end) * self.scale + 0.999)

    def exact(self, offset: int) -> bool:
        return self.index.exact(offset)

    def windows(self, start: int, end: int, limit: int) -> list[int]:
        return self.index.windows(start, end, max(1, int(limit / self.scale)))


def _halves(text: str, draft: Draft) -> list[Draft]:
    """The last resort: two halves, cut at whitespace nearest the middle if there is any."""
    if draft.end - draft.start <= 1:
        return [draft]
    middle = (draft.start + draft.end) // 2
    spaces = [i for i in range(draft.start + 1, draft.end) if text[i].isspace()]
    cut = min(spaces, key=lambda i: abs(i - middle)) if spaces else middle
    left_end, right_start = cut, cut
    while left_end > draft.start and text[left_end - 1].isspace():
        left_end -= 1
    while right_start < draft.end and text[right_start].isspace():
        right_start += 1
    halves = [
        replace(draft, end=left_end, id=None),
        replace(draft, start=right_start, own_headings=0, id=None),
    ]
    return [d for d in halves if d.end > d.start] or [draft]


def finalize(
    doc: Document,
    drafts: list[Draft],
    counter: Counter,
    max_tokens: int,
    chunk_set: str,
    builder: ContextBuilder,
    index: SpanIndex | None = None,
) -> list[Chunk]:
    return Finalizer(doc, counter, max_tokens, chunk_set, builder, index).records(drafts)


# -- records -----------------------------------------------------------------


def _provenance(doc: Document) -> tuple[list[int], list[Element]]:
    if all(e.page is None for e in doc.elements):
        return [], []  # no pages (every text format): no leaves to list
    located = sorted((e for e in doc.leaves() if e.page is not None), key=lambda e: e.start)
    return [e.start for e in located], located


def _pages_and_boxes(
    starts: list[int], located: list[Element], start: int, end: int, overlapping: list[int] | None = None
) -> tuple[list[int] | None, list[dict[str, Any]] | None]:
    """Pages (and boxes) of the elements a chunk overlaps, for formats that have them; the
    indices of those elements go into ``overlapping`` when it is given."""
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
            if overlapping is not None:
                overlapping.append(i)
        i += 1
    return (sorted(pages) or None), (boxes or None)


def _records(doc: Document, done: list[tuple[Draft, str, int]], counter: Counter, chunk_set: str) -> list[Chunk]:
    base_meta = dict(doc.metadata)
    chunks: list[Chunk] = []
    starts, located = _provenance(doc)
    span_id = ChunkIds(chunk_set, doc.doc_id, doc.version)
    # Asked once per document, not per chunk: whether it has lines, pages; the text.
    numbered = doc.format in LINE_FORMATS
    text = doc.text
    pages: list[int] | None = None
    boxes: list[dict[str, Any]] | None = None
    ocr = "ocr" in base_meta  # read by OCR: each chunk gets its own pages' confidences (chunkers/ocr_meta.py)
    metadata = base_meta
    # No pages (a DOCX whose images were read by OCR): the elements OCR read, for their confidences
    read = [e for e in doc.leaves() if e.data.ocr_confidence is not None] if ocr and not located else []
    for draft, embed, n in done:
        if located:
            overlapping: list[int] | None = [] if ocr else None
            pages, boxes = _pages_and_boxes(starts, located, draft.start, draft.end, overlapping)
            if overlapping is not None:
                metadata = ocr_metadata(base_meta, located, pages, draft.start, draft.end, overlapping)
        elif ocr:
            inside = [i for i, e in enumerate(read) if e.start < draft.end and e.end > draft.start]
            metadata = ocr_metadata(base_meta, read, None, draft.start, draft.end, inside)
        chunks.append(
            Chunk(
                id=draft.id or span_id(draft.start, draft.end),
                doc_id=doc.doc_id,
                doc_version=doc.version,
                chunk_set=chunk_set,
                start=draft.start,
                end=draft.end,
                text=text[draft.start : draft.end],
                embed_text=embed,
                tokens=n,
                tokenizer=counter.fingerprint,
                section_path=list(draft.section_path),
                kinds=draft.kinds,
                lines=doc.lines_of(draft.start, draft.end) if numbered else None,
                pages=pages,
                boxes=boxes,
                language=draft.language,
                symbol=draft.symbol,
                metadata=metadata,
                warnings=draft.warnings,
            )
        )
    for prev, nxt in itertools.pairwise(chunks):
        prev.next_id, nxt.prev_id = nxt.id, prev.id
    return chunks
