"""Retrieval-side assembly: ranked hits → passages to put in front of a model.

Hits from the same document version that overlap or touch are merged into one passage, so
overlapping windows never count (or cost) twice; duplicates are dropped; a hit may be
expanded to its neighbours, its section or its parent chunk; and the passages are fitted to a
context budget, best rank first. Every passage keeps its provenance: the chunks it is made of,
which of them were retrieved, and its span in the document.

    from parsegate.evaluation.assemble import assemble
    result = assemble(hits, chunks=all_chunks_of_those_documents, expand="neighbours", budget=1024)
    for p in result.passages: print(p.doc_id, p.start, p.end, p.chunk_ids)

Chunks are ``parsegate.chunk/1`` records (``Chunk`` objects, or dicts read from
chunks.jsonl through ``from_records``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

EXPANSIONS = ("none", "neighbours", "section", "parent")


class AssemblyChunk(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def doc_id(self) -> str: ...
    @property
    def doc_version(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def embed_text(self) -> str: ...
    @property
    def section_path(self) -> Sequence[str]: ...
    @property
    def prev_id(self) -> str | None: ...
    @property
    def next_id(self) -> str | None: ...
    @property
    def parent_id(self) -> str | None: ...


@dataclass(frozen=True)
class Record:
    """A chunk read from a ``parsegate.chunk/1`` dict."""

    id: str
    doc_id: str
    doc_version: str
    start: int
    end: int
    text: str
    embed_text: str
    section_path: tuple[str, ...] = ()
    prev_id: str | None = None
    next_id: str | None = None
    parent_id: str | None = None


def from_records(rows: Iterable[Mapping[str, Any]]) -> list[Record]:
    return [
        Record(
            str(r["id"]),
            str(r["doc_id"]),
            str(r["doc_version"]),
            int(r["start"]),
            int(r["end"]),
            str(r["text"]),
            str(r.get("embed_text") or r["text"]),
            tuple(r.get("section_path") or ()),
            r.get("prev_id"),
            r.get("next_id"),
            r.get("parent_id"),
        )
        for r in rows
    ]


@dataclass(frozen=True)
class Passage:
    doc_id: str
    doc_version: str
    start: int
    end: int
    text: str  # the source from start to end (gaps between chunks filled when the source is given)
    embed_text: str  # what a model is shown: each member's context prefix once, then the text
    rank: int  # best (0-based) rank among the hits it holds
    chunk_ids: tuple[str, ...]  # every chunk merged in, in source order
    hit_ids: tuple[str, ...]  # the retrieved ones, best rank first
    section_path: tuple[str, ...]  # the section all its chunks share
    tokens: int | None = None


@dataclass
class Assembly:
    passages: list[Passage]
    dropped: list[str] = field(default_factory=list)  # hit ids left out to fit the budget
    tokens: int = 0


# -- expansion ---------------------------------------------------------------------------


def _neighbours(hit: AssemblyChunk, by_id: Mapping[str, AssemblyChunk], n: int) -> list[AssemblyChunk]:
    out = [hit]
    for step in ("prev_id", "next_id"):
        current: AssemblyChunk | None = hit
        for _ in range(n):
            link = getattr(current, step) if current is not None else None
            current = by_id.get(link) if link else None
            if current is None:
                break
            out.append(current)
    return out


def _section(hit: AssemblyChunk, pool: Sequence[AssemblyChunk]) -> list[AssemblyChunk]:
    path = tuple(hit.section_path)
    return [
        c
        for c in pool
        if (c.doc_id, c.doc_version) == (hit.doc_id, hit.doc_version) and tuple(c.section_path)[: len(path)] == path
    ]


def expand_hit(
    hit: AssemblyChunk, how: str, pool: Sequence[AssemblyChunk], by_id: Mapping[str, AssemblyChunk], neighbours: int
) -> list[AssemblyChunk]:
    if how == "none":
        return [hit]
    if how == "neighbours":
        return _neighbours(hit, by_id, neighbours)
    if how == "section":
        return _section(hit, pool) or [hit]
    if how == "parent":
        parent = by_id.get(hit.parent_id) if hit.parent_id else None
        return [hit, parent] if parent is not None else [hit]
    raise ValueError(f"unknown expansion '{how}'; choose one of {', '.join(EXPANSIONS)}")


# -- merging -----------------------------------------------------------------------------


def _touch(a: AssemblyChunk, b: AssemblyChunk, texts: Mapping[str, str] | None) -> bool:
    """``b`` starts inside ``a``, right after it, or after nothing but whitespace (or right
    after it in the chunk chain, when the source text is not at hand)."""
    if b.start <= a.end:
        return True
    source = texts.get(a.doc_id) if texts else None
    if source is not None:
        return not source[a.end : b.start].strip()
    return a.next_id == b.id


def _prefix(c: AssemblyChunk) -> str:
    return c.embed_text[: len(c.embed_text) - len(c.text)].strip() if c.embed_text.endswith(c.text) else ""


def _common(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    out: list[str] = []
    for parts in zip(*paths, strict=False):
        if len(set(parts)) != 1:
            break
        out.append(parts[0])
    return tuple(out)


def _passage(group: list[AssemblyChunk], ranks: Mapping[str, int], texts: Mapping[str, str] | None) -> Passage:
    first = group[0]
    start, end = first.start, max(c.end for c in group)
    source = texts.get(first.doc_id) if texts else None
    if source is not None:
        text = source[start:end]
    else:  # stitch the members: overlaps once, whitespace gaps as one blank line
        text, at = "", start
        for c in group:
            if c.end <= at:
                continue
            piece = c.text[max(0, at - c.start) :]
            text += ("\n\n" if c.start > at and text else "") + piece
            at = c.end
    prefixes = list(dict.fromkeys(p for p in map(_prefix, group) if p))
    hits = sorted((c.id for c in group if c.id in ranks), key=lambda i: ranks[i])
    return Passage(
        doc_id=first.doc_id,
        doc_version=first.doc_version,
        start=start,
        end=end,
        text=text,
        embed_text="\n".join(prefixes) + "\n\n" + text if prefixes else text,
        rank=min(ranks[i] for i in hits),
        chunk_ids=tuple(dict.fromkeys(c.id for c in group)),
        hit_ids=tuple(hits),
        section_path=_common([tuple(c.section_path) for c in group]),
    )


def merge_chunks(
    chunks: Iterable[AssemblyChunk], ranks: Mapping[str, int], texts: Mapping[str, str] | None = None
) -> list[Passage]:
    """Chunks (hits and what expansion added) → passages, best rank first. Only groups that
    hold a hit become passages."""
    unique = {c.id: c for c in chunks}
    by_doc: dict[tuple[str, str], list[AssemblyChunk]] = {}
    for c in unique.values():
        by_doc.setdefault((c.doc_id, c.doc_version), []).append(c)
    passages = []
    for members in by_doc.values():
        members.sort(key=lambda c: (c.start, c.end))
        group = [members[0]]
        for c in members[1:]:
            if _touch(max(group, key=lambda g: g.end), c, texts):
                group.append(c)
            else:
                passages.append(group)
                group = [c]
        passages.append(group)
    built = [_passage(g, ranks, texts) for g in passages if any(c.id in ranks for c in g)]
    return sorted(built, key=lambda p: (p.rank, p.doc_id, p.start))


# -- budget ------------------------------------------------------------------------------


def _default_count() -> Callable[[list[str]], list[int]]:
    from parsegate.chunkers.tokens.counter import DEFAULT_TOKENIZER, load_counter

    return load_counter(DEFAULT_TOKENIZER).count_many


def assemble(
    hits: Sequence[AssemblyChunk],
    *,
    chunks: Iterable[AssemblyChunk] = (),
    texts: Mapping[str, str] | None = None,
    expand: str = "none",
    neighbours: int = 1,
    budget: int | None = None,
    count: Callable[[list[str]], list[int]] | None = None,
) -> Assembly:
    """Merge ranked ``hits`` (best first) into passages.

    ``chunks``: every chunk of the hits' documents, for expansion (neighbours follow prev/next
    links, section takes the chunks under the hit's section path, parent the chunk named by
    ``parent_id``). ``texts``: document texts by ``doc_id``, to fill gaps exactly. ``budget``:
    tokens of the passages' ``embed_text`` (``count``, default all-MiniLM-L6-v2's tokenizer);
    a passage over what is left falls back to its retrieved chunks alone, then is dropped.
    """
    ranks: dict[str, int] = {}
    for rank, hit in enumerate(hits):
        ranks.setdefault(hit.id, rank)
    pool = list({c.id: c for c in [*chunks, *hits]}.values())
    by_id = {c.id: c for c in pool}
    expanded = [c for hit in hits for c in expand_hit(hit, expand, pool, by_id, neighbours)]
    passages = merge_chunks(expanded, ranks, texts)
    if budget is None:
        return Assembly(passages)
    return _fit(passages, hits, ranks, texts, budget, count or _default_count())


def _fit(
    passages: list[Passage],
    hits: Sequence[AssemblyChunk],
    ranks: Mapping[str, int],
    texts: Mapping[str, str] | None,
    budget: int,
    count: Callable[[list[str]], list[int]],
) -> Assembly:
    by_id = {h.id: h for h in hits}
    kept: list[Passage] = []
    dropped: list[str] = []
    used = 0

    def fits(option: Passage) -> bool:
        nonlocal used
        n = count([option.embed_text])[0]
        if used + n > budget:
            return False
        kept.append(Passage(**{**option.__dict__, "tokens": n}))
        used += n
        return True

    for passage in passages:
        if fits(passage):
            continue
        placed: set[str] = set()
        if len(passage.chunk_ids) > len(passage.hit_ids):  # expanded: the hits alone are smaller
            for option in merge_chunks([by_id[i] for i in passage.hit_ids], ranks, texts):
                if fits(option):
                    placed.update(option.hit_ids)
        dropped.extend(i for i in passage.hit_ids if i not in placed)
    kept.sort(key=lambda p: (p.rank, p.doc_id, p.start))
    return Assembly(kept, dropped, used)
