"""What both adapters share: finding the files to load, parsing a framework's text back into a
parsegate Document, chunking it, and a chunk's metadata."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal

from parsegate.api import chunk, parse

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.parsers.model import Document

log = logging.getLogger("parsegate")
Content = Literal["embed_text", "text"]
OnError = Literal["raise", "skip"]
# Record fields that are the content, or that a framework object holds elsewhere.
_NOT_METADATA = ("schema", "embed_text")


@dataclass(frozen=True)
class Settings:
    """How the adapters chunk: the arguments of ``parsegate.chunk``, and what becomes the content.

    ``content="embed_text"`` (default): the string the token budget was counted on (context prefix +
    text), so what the framework embeds is within budget; the exact evidence is ``metadata["text"]``.
    ``content="text"``: the evidence alone.
    """

    max_tokens: int | None = None
    tokenizer: str = "all-MiniLM-L6-v2"
    strategy: str = "structural"
    content: Content = "embed_text"
    options: Mapping[str, Any] = field(default_factory=dict)

    def chunks(self, doc: Document) -> list[Chunk]:
        return chunk(doc, max_tokens=self.max_tokens, tokenizer=self.tokenizer, strategy=self.strategy, **self.options)


def sources(paths: str | Path | Sequence[str | Path]) -> Iterator[tuple[Path, str]]:
    """Each file with its document id: a file by its name, a folder's files as ``parsegate run``
    finds them (ids relative to the folder; .gitignore, hidden and binary files left out)."""
    from parsegate.runner.discover import discover

    for item in [paths] if isinstance(paths, str | Path) else paths:
        path = Path(item)
        if path.is_dir():
            for source in discover(path):
                yield source.path, source.doc_id
        else:
            yield path, path.name


def load_documents(paths: str | Path | Sequence[str | Path], on_error: OnError) -> Iterator[Document]:
    """The parsed documents; a file that cannot be parsed raises ParseError, or is logged and
    skipped with ``on_error="skip"``."""
    from parsegate.parsers.model import ParseError

    for path, doc_id in sources(paths):
        try:
            yield parse(path, doc_id=doc_id)
        except ParseError as exc:
            if on_error == "raise":
                raise
            log.warning("%s: skipped: %s [%s]", doc_id, exc.message, exc.code)


def document_from_text(text: str, name: str, fmt: str | None, path: str | None = None) -> Document:
    """A framework's text as a parsegate Document. When ``path`` is the file the text came from and
    parsing it gives exactly this text (a document our own loader or reader made), the file is
    parsed, keeping what only the file has (a PDF's pages and boxes); otherwise the text itself,
    as ``fmt`` (default: the suffix of ``name``, then the content; the content alone when the
    name is a PDF's or an Office file's, whose text this is)."""
    if path and Path(path).is_file():
        from parsegate.parsers.model import ParseError

        try:
            doc = parse(path, format=fmt, doc_id=name)
        except ParseError:
            doc = None
        if doc is not None and doc.text == text:
            return doc
    if fmt is None and PurePosixPath(name).suffix.lower() in _binary_suffixes():
        # A PDF or Office file's text, not the file: its name's suffix says nothing of the text,
        # whose own content does (Document.metadata["format_detected"] says what it was read as).
        from parsegate.log import log_warnings
        from parsegate.parsers.registry import parse_data

        doc = parse_data(text.encode("utf-8"), Path(""), name)
        log_warnings(doc)
        return doc
    return parse(text.encode("utf-8"), format=fmt, doc_id=name)


def _binary_suffixes() -> tuple[str, ...]:
    """The suffixes of formats whose files are not text (PDF, DOCX, XLSX, legacy Office...)."""
    from parsegate.parsers.formats import all_formats, source_text_formats, suffixes_of

    return suffixes_of(*(all_formats() - source_text_formats() - {"html", "docling"}))


def content_of(piece: Chunk, content: Content) -> str:
    return piece.embed_text if content == "embed_text" else piece.text


def parent_ids(pieces: list[Chunk]) -> set[str]:
    """The parent records of a parent-child chunking (their own, larger budget: for the generator,
    not for the embedder)."""
    return {p.parent_id for p in pieces if p.parent_id}


def metadata_of(piece: Chunk, content: Content, parents: set[str] | None = None) -> dict[str, Any]:
    """The chunk record without its content (and without empty fields): ``id``, ``doc_id``, ``start``,
    ``end``, ``section_path``, ``pages``, ``tokens``…; ``text`` too when the content is embed_text;
    ``role``: ``"parent"`` for a parent record of the parent-child strategy, else ``"chunk"``."""
    record = piece.to_dict()
    drop = (*_NOT_METADATA, "text") if content == "text" else _NOT_METADATA
    metadata = {k: v for k, v in record.items() if k not in drop and v is not None}
    metadata["role"] = "parent" if parents and piece.id in parents else "chunk"
    return metadata
