"""LlamaIndex adapters (``pip install 'parsegate[llamaindex]'``, llama-index-core):

- ``ParsegateReader``: a reader; files (or folders) in, one LlamaIndex ``Document`` per source
  document, its text parsegate's canonical text (every chunk offset points into it).
- ``ParsegateNodeParser``: a ``NodeParser`` (a ``TransformComponent``, so an ``IngestionPipeline``
  takes it) that chunks Documents into ``TextNode``s.

Each node has ``id_`` = the chunk id, text = its ``embed_text`` (or ``text`` with
``content="text"``), ``start_char_idx``/``end_char_idx`` = the chunk's exact offsets into the source
Document's text, SOURCE/PREVIOUS/NEXT relationships (PARENT/CHILD with
``strategy="parent-child"``: ``get_leaf_nodes`` gives the nodes to embed), and the rest of the ``parsegate.chunk/1``
record as metadata (``section_path``, ``pages``, ``doc_id``, ``tokens``…, ``text``), excluded from
what is embedded: the token budget was counted on the node's text alone.

    from llama_index.core.ingestion import IngestionPipeline
    from parsegate.integrations.llamaindex import ParsegateNodeParser, ParsegateReader

    nodes = IngestionPipeline(transformations=[ParsegateNodeParser(max_tokens=256)]).run(
        documents=ParsegateReader().load_data("policies/"))
"""

from __future__ import annotations

from collections.abc import Sequence
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

require("llama_index.core", "llamaindex")
from llama_index.core.bridge.pydantic import Field  # noqa: E402
from llama_index.core.node_parser import NodeParser  # noqa: E402
from llama_index.core.readers.base import BaseReader  # noqa: E402
from llama_index.core.schema import BaseNode, Document, MetadataMode, NodeRelationship, TextNode  # noqa: E402

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk

# Metadata the LLM sees with a node's text (everything else is bookkeeping for the application).
_FOR_LLM = ("doc_id", "section_path", "pages", "lines", "symbol")


class ParsegateReader(BaseReader):
    """Files or folders (a folder's files as ``parsegate run`` finds them) as parsed Documents."""

    def __init__(self, on_error: OnError = "raise") -> None:
        self.on_error: OnError = on_error

    def load_data(self, *args: Any, **load_kwargs: Any) -> list[Document]:
        """``load_data(paths)``: a path, or a list of them."""
        paths: str | Path | Sequence[str | Path] = args[0] if args else load_kwargs["paths"]
        return [
            Document(
                id_=doc.doc_id,
                text=doc.text,
                metadata={"doc_id": doc.doc_id, "doc_version": doc.version, "format": doc.format},
            )
            for doc in load_documents(paths, self.on_error)
        ]


class ParsegateNodeParser(NodeParser):
    """Chunks Documents into TextNodes. A Document's text is parsed as ``format`` (default: the
    suffix of its ``metadata["file_name"]`` or ``doc_id``, then the content); when its
    ``metadata["file_path"]`` is the file the text came from, the file is parsed instead."""

    max_tokens: int | None = None
    tokenizer: str = "all-MiniLM-L6-v2"
    strategy: str = "structural"
    content: Content = "embed_text"
    format: str | None = None
    options: dict[str, Any] = Field(default_factory=dict, description="Other parsegate.chunk options.")

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        settings = Settings(self.max_tokens, self.tokenizer, self.strategy, self.content, self.options)
        out: list[BaseNode] = []
        for node in nodes:
            meta = node.metadata
            name = str(meta.get("doc_id") or meta.get("file_name") or node.node_id)
            text = node.get_content(metadata_mode=MetadataMode.NONE)
            parsed = document_from_text(text, name, self.format, meta.get("file_path"))
            pieces = settings.chunks(parsed)
            parents = parent_ids(pieces)
            made: dict[str, TextNode] = {}
            for piece in pieces:
                metadata = metadata_of(piece, self.content, parents)
                child = TextNode(
                    id_=piece.id,
                    text=content_of(piece, self.content),
                    metadata=metadata,
                    start_char_idx=piece.start,
                    end_char_idx=piece.end,
                    excluded_embed_metadata_keys=[*meta, *metadata],
                    excluded_llm_metadata_keys=[k for k in [*meta, *metadata] if k not in _FOR_LLM],
                )
                child.relationships[NodeRelationship.SOURCE] = node.as_related_node_info()
                made[piece.id] = child
                out.append(child)
            _link_parents(pieces, made)
        return out

    def _postprocess_parsed_nodes(self, nodes: list[BaseNode], parent_doc_map: dict[str, Document]) -> list[BaseNode]:
        """LlamaIndex's own step, which also searches each node's text in the Document to set its
        offsets; the chunk's exact offsets are put back (a search finds an earlier repeat, or
        nothing for an embed_text with a context prefix)."""
        spans = {id(n): (n.start_char_idx, n.end_char_idx) for n in nodes if isinstance(n, TextNode)}
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        for n in nodes:
            if isinstance(n, TextNode):
                n.start_char_idx, n.end_char_idx = spans[id(n)]
        return nodes


def _link_parents(pieces: list[Chunk], nodes: dict[str, TextNode]) -> None:
    """parent-child: PARENT and CHILD relationships as LlamaIndex's hierarchical parsers make them,
    so ``get_leaf_nodes`` gives the nodes to embed and an auto-merging retriever finds the parents."""
    children: dict[str, list[TextNode]] = {}
    for piece in pieces:
        if piece.parent_id and piece.parent_id in nodes:
            nodes[piece.id].relationships[NodeRelationship.PARENT] = nodes[piece.parent_id].as_related_node_info()
            children.setdefault(piece.parent_id, []).append(nodes[piece.id])
    for parent_id, kids in children.items():
        nodes[parent_id].relationships[NodeRelationship.CHILD] = [k.as_related_node_info() for k in kids]
