"""LangChain adapters (``pip install 'parsegate[langchain]'``, langchain-core):

- ``ParsegateLoader``: a document loader; files (or folders) in, one LangChain ``Document`` per chunk.
- ``ParsegateTransformer``: a ``BaseDocumentTransformer`` that chunks Documents another loader made.

Each ``Document`` has ``id`` = the chunk id, ``page_content`` = its ``embed_text`` (or ``text`` with
``content="text"``) and ``metadata`` = the rest of the ``parsegate.chunk/1`` record: ``start``,
``end`` (offsets into the parsed document's text), ``section_path``, ``pages``, ``lines``, ``id``,
``doc_id``, ``tokens``, ``chunk_set``, ``prev_id``/``next_id``…, and ``text``, the exact evidence.
With ``strategy="parent-child"`` the parent records come too, with ``metadata["role"] == "parent"``
(``"chunk"`` for every other): they are over the embedding budget, for a parent store, not a vector one.

    from parsegate.integrations.langchain import ParsegateLoader

    docs = ParsegateLoader("policies/", max_tokens=256).load()
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsegate.errors import require
from parsegate.integrations.common import (
    Content,
    OnError,
    Settings,
    content_of,
    document_from_text,
    load_documents,
    metadata_of,
    parent_ids,
)

require("langchain_core.documents", "langchain")
from langchain_core.document_loaders import BaseLoader  # noqa: E402
from langchain_core.documents import BaseDocumentTransformer, Document  # noqa: E402

if TYPE_CHECKING:
    from parsegate.parsers.model import Document as ParsedDocument


def to_documents(doc: ParsedDocument, settings: Settings, extra: Mapping[str, Any] | None = None) -> list[Document]:
    """One LangChain Document per chunk of ``doc`` (``extra``: metadata of the source Document,
    which the chunk's own fields override)."""
    pieces = settings.chunks(doc)
    parents = parent_ids(pieces)
    return [
        Document(
            id=piece.id,
            page_content=content_of(piece, settings.content),
            metadata={**(extra or {}), **metadata_of(piece, settings.content, parents)},
        )
        for piece in pieces
    ]


class ParsegateLoader(BaseLoader):
    """Files or folders (a folder's files as ``parsegate run`` finds them), parsed and chunked."""

    def __init__(
        self,
        paths: str | Path | Sequence[str | Path],
        *,
        max_tokens: int | None = None,
        tokenizer: str = "all-MiniLM-L6-v2",
        strategy: str = "structural",
        content: Content = "embed_text",
        on_error: OnError = "raise",
        **options: Any,
    ) -> None:
        self.paths = paths
        self.on_error: OnError = on_error
        self.settings = Settings(max_tokens, tokenizer, strategy, content, options)

    def lazy_load(self) -> Iterator[Document]:
        for doc in load_documents(self.paths, self.on_error):
            yield from to_documents(doc, self.settings, {"source": doc.doc_id})


class ParsegateTransformer(BaseDocumentTransformer):
    """Chunks LangChain Documents: each one's ``page_content`` is parsed as ``format`` (default: the
    suffix of its ``metadata["source"]``, then the content); when ``source`` is the file the text
    came from, the file is parsed instead (a PDF keeps its pages). Source metadata is kept."""

    def __init__(
        self,
        *,
        format: str | None = None,
        max_tokens: int | None = None,
        tokenizer: str = "all-MiniLM-L6-v2",
        strategy: str = "structural",
        content: Content = "embed_text",
        **options: Any,
    ) -> None:
        self.format = format
        self.settings = Settings(max_tokens, tokenizer, strategy, content, options)

    def transform_documents(self, documents: Sequence[Document], **kwargs: Any) -> Sequence[Document]:
        out: list[Document] = []
        for n, document in enumerate(documents):
            source = document.metadata.get("source")
            name = str(document.metadata.get("doc_id") or source or document.id or f"document-{n}")
            path = str(source) if source else None
            parsed = document_from_text(document.page_content, name, self.format, path)
            out.extend(to_documents(parsed, self.settings, document.metadata))
        return out
