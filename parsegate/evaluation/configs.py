"""Chunking configurations the evaluation compares, by name, and how to add one.

A configuration turns a parsed ``Document`` into ``Chunk`` records at a token budget. Ours are
``structural``, ``recursive`` and ``fixed``; the peers (``langchain``, ``chonkie``,
``semchunk``) are offered when installed, each given the same all-MiniLM-L6-v2 tokenizer and
the budget less the tokenizer's special tokens (ours count those), and run over the same
parsed text, so every configuration is scored against the same evidence offsets.

A new strategy plugs in with ``register(name, factory)``: the factory takes the budget and
the ``key=value`` options of a spec such as ``structural:overlap=1,min_tokens=16`` and returns
a ``Configuration``. A configuration may index only some of its chunks (children of a
parent–child strategy) and name the expansion that assembly applies after retrieval.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import Any

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.ids import chunk_id
from parsegate.chunkers.record import Chunk
from parsegate.chunkers.tokens.counter import DEFAULT_TOKENIZER, Counter, default_tokenizer_path, load_counter
from parsegate.parsers.model import Document

Segment = Callable[[Document], list[Chunk]]


class ConfigurationError(ValueError):
    pass


@dataclass(frozen=True)
class Configuration:
    name: str  # as it appears in the table, e.g. "structural@128"
    strategy: str
    max_tokens: int
    description: str
    segment: Segment = field(compare=False)
    indexed: Callable[[Chunk], bool] = field(default=lambda c: True, compare=False)  # what the retriever sees
    expand: str = "none"  # assembly's expansion after retrieval (see parsegate.evaluation.assemble)
    parent_tokens: int | None = None  # the budget of the chunks that are not indexed (parents)


Factory = Callable[[int, dict[str, str]], Configuration]
_FACTORIES: dict[str, tuple[Factory, Callable[[], bool]]] = {}


def register(name: str, factory: Factory, available: Callable[[], bool] = lambda: True) -> None:
    _FACTORIES[name] = (factory, available)


def available() -> list[str]:
    return [name for name, (_, ok) in _FACTORIES.items() if ok()]


def known() -> list[str]:
    return list(_FACTORIES)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``name`` or ``name:key=value,key=value``."""
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigurationError(f"'{spec}': options are key=value, separated by commas")
        options[key.strip()] = value.strip()
    return name.strip(), options


def build(spec: str, max_tokens: int) -> Configuration:
    name, options = parse_spec(spec)
    if name not in _FACTORIES:
        raise ConfigurationError(f"unknown configuration '{name}'; known: {', '.join(known())}")
    factory, ok = _FACTORIES[name]
    if not ok():
        raise ConfigurationError(f"'{name}' is not installed in this environment")
    return factory(max_tokens, options)


# -- ours ---------------------------------------------------------------------------------


def chunker_settings(options: dict[str, str]) -> dict[str, Any]:
    fields = {f.name: f.type for f in dataclasses.fields(ChunkConfig)}
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key not in fields or key in ("strategy", "max_tokens"):
            raise ConfigurationError(f"unknown option '{key}' (chunker settings: {', '.join(fields)})")
        kind = str(fields[key]).removesuffix(" | None")
        try:
            out[key] = int(value) if kind == "int" else float(value) if kind == "float" else value
        except ValueError:
            raise ConfigurationError(f"option '{key}' takes a {kind}, got '{value}'") from None
    return out


def label(name: str, max_tokens: int, options: dict[str, Any]) -> str:
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}{':' + extra if extra else ''}@{max_tokens}"


def ours(strategy: str) -> Factory:
    def factory(max_tokens: int, options: dict[str, str]) -> Configuration:
        settings = chunker_settings(options)
        if strategy == "fixed":
            # A character window sized to the budget (about 3 characters a token leaves room for
            # the breadcrumb), 10% overlap, unless given; the budget still cuts any window over it.
            settings.setdefault("fixed_size", 3 * max_tokens)
            settings.setdefault("fixed_overlap", settings["fixed_size"] // 10)
        chunker = Chunker(ChunkConfig(strategy=strategy, max_tokens=max_tokens, **settings))
        shown = {k: v for k, v in settings.items() if k in options}
        description = f"parsegate {strategy}" + (
            f" ({settings['fixed_size']} chars, overlap {settings['fixed_overlap']})" if strategy == "fixed" else ""
        )
        return Configuration(label(strategy, max_tokens, shown), strategy, max_tokens, description, chunker.chunk)

    return factory


for _name in ("structural", "recursive", "fixed"):  # the others: parsegate/evaluation/strategies.py
    register(_name, ours(_name))


# -- peers ----------------------------------------------------------------------------------


def _hf_tokenizer() -> Any:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(default_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()
    return tok


def records(doc: Document, spans: list[tuple[int, int]], name: str, counter: Counter) -> list[Chunk]:
    """A peer's spans as chunk records: text is the source slice, embedded as it is."""
    spans = [(s, e) for s, e in spans if e > s and doc.text[s:e].strip()]
    texts = [doc.text[s:e] for s, e in spans]
    counts = counter.count_embedded(texts)
    chunk_set = f"peer-{name}"
    out = [
        Chunk(
            id=chunk_id(chunk_set, doc.doc_id, doc.version, s, e),
            doc_id=doc.doc_id,
            doc_version=doc.version,
            chunk_set=chunk_set,
            start=s,
            end=e,
            text=t,
            embed_text=t,
            tokens=n,
            tokenizer=counter.fingerprint,
            section_path=[],
            kinds=["text"],
        )
        for (s, e), t, n in zip(spans, texts, counts, strict=True)
    ]
    for prev, nxt in itertools.pairwise(out):
        prev.next_id, nxt.prev_id = nxt.id, prev.id
    return out


def _peer(name: str, description: str, make: Callable[[Any, int], Callable[[str], list[tuple[int, int]]]]) -> Factory:
    def factory(max_tokens: int, options: dict[str, str]) -> Configuration:
        if options:
            raise ConfigurationError(f"'{name}' takes no options")
        counter = load_counter(DEFAULT_TOKENIZER)
        split = make(_hf_tokenizer(), max_tokens - counter.specials)

        def segment(doc: Document) -> list[Chunk]:
            return records(doc, split(doc.text), name, counter)

        return Configuration(f"{name}@{max_tokens}", name, max_tokens, description, segment)

    return factory


def _langchain(tok: Any, limit: int) -> Callable[[str], list[tuple[int, int]]]:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=limit,
        chunk_overlap=0,
        length_function=lambda s: len(tok.encode(s, add_special_tokens=False).ids),
        add_start_index=True,
    )

    def split(text: str) -> list[tuple[int, int]]:
        docs = splitter.create_documents([text])
        return [(d.metadata["start_index"], d.metadata["start_index"] + len(d.page_content)) for d in docs]

    return split


def _chonkie(tok: Any, limit: int) -> Callable[[str], list[tuple[int, int]]]:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=tok, chunk_size=limit)
    # chonkie's offsets are taken as given; where it cuts inside a token run it rebuilds the text
    # by decoding, so its own text may differ from the slice (we index the slice).
    return lambda text: [(c.start_index, c.end_index) for c in chunker.chunk(text)]


def _semchunk(tok: Any, limit: int) -> Callable[[str], list[tuple[int, int]]]:
    import semchunk

    # Typed loosely: semchunk's own annotations vary between releases (its chunker's result is a
    # list, or a pair of lists with offsets=True).
    chunkerify: Any = semchunk.chunkerify  # type: ignore[attr-defined,unused-ignore]
    chunker = chunkerify(lambda s: len(tok.encode(s, add_special_tokens=False).ids), limit)

    def split(text: str) -> list[tuple[int, int]]:
        _, offsets = chunker(text, offsets=True)
        return [(int(s), int(e)) for s, e in offsets]

    return split


register(
    "langchain",
    _peer("langchain", "LangChain RecursiveCharacterTextSplitter (token length, no overlap)", _langchain),
    lambda: find_spec("langchain_text_splitters") is not None,
)
register("chonkie", _peer("chonkie", "chonkie RecursiveChunker", _chonkie), lambda: find_spec("chonkie") is not None)
register("semchunk", _peer("semchunk", "semchunk", _semchunk), lambda: find_spec("semchunk") is not None)

DEFAULT_COMPARE = (
    "structural",
    "parent-child",
    "semantic-lexical",
    "semantic-embedding",
    "recursive",
    "fixed",
    "langchain",
    "chonkie",
    "semchunk",
)
