"""The LangChain and LlamaIndex adapters, against the real libraries (the `langchain` and
`llamaindex` extras; skipped only when a library is missing outside CI): the objects each framework
expects, carrying parsegate's chunks with offsets checked against the source file's own text."""

from __future__ import annotations

import importlib
import logging
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

import parsegate
from parsegate.parsers.model import ParseError
from tests.conftest import GOLDEN

DOC = (
    "# Travel policy\n\nFees are waived on Sundays. Bookings close at noon on Fridays.\n\n"
    "## Claims\n\n- receipts within 30 days\n- one claim per trip\n\n"
    "## Refunds\n\nRefunds take five working days. Ask the desk [see a[i]].\n"
)
# Chunk 2's text also occurs inside chunk 1 (from "Go on" at 23): a search for it finds the wrong place.
REPEATS = "Stop right now please. Go on, go on. Go on, go on. Go on, go on.\n"
PDF = GOLDEN / "pdf" / "footnote" / "input.pdf"


def need(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"{module} is not installed (the extra's library); CI installs it")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "policy").mkdir()
    (tmp_path / "policy" / "travel.md").write_text(DOC)
    (tmp_path / "policy" / "repeats.txt").write_text(REPEATS)
    return tmp_path / "policy"


# -- LangChain ---------------------------------------------------------------------------


def test_langchain_loader_yields_one_document_per_chunk_with_the_record_as_metadata(corpus: Path) -> None:
    documents = need("langchain_core.documents")
    from parsegate.integrations.langchain import ParsegateLoader

    source = (corpus / "travel.md").read_text()
    loaded = ParsegateLoader(corpus / "travel.md", max_tokens=24).load()
    expected = parsegate.chunk(corpus / "travel.md", max_tokens=24)
    assert len(loaded) == len(expected) >= 3
    for doc, piece in zip(loaded, expected, strict=True):
        assert isinstance(doc, documents.Document)
        assert doc.id == doc.metadata["id"] == piece.id
        assert doc.page_content == piece.embed_text
        start, end = doc.metadata["start"], doc.metadata["end"]
        assert source[start:end] == doc.metadata["text"]  # the source file itself, not the chunker
        assert doc.metadata["section_path"] == piece.section_path
        assert doc.metadata["doc_id"] == doc.metadata["source"] == "travel.md"
        assert "embed_text" not in doc.metadata and "schema" not in doc.metadata
    assert loaded[-1].metadata["section_path"] == ["Travel policy", "Refunds"]


def test_langchain_loader_reads_a_folder_with_run_ids_and_skips_only_when_asked(
    corpus: Path, caplog: pytest.LogCaptureFixture
) -> None:
    need("langchain_core.documents")
    from parsegate.integrations.langchain import ParsegateLoader

    (corpus / "sub").mkdir()
    (corpus / "sub" / "notes.md").write_text("# Notes\n\nOne line.\n")
    (corpus / "broken.md").write_bytes(b"# Menu\n\ncaf\x00 au lait\n")  # binary content
    with pytest.raises(ParseError):
        ParsegateLoader(corpus).load()
    with caplog.at_level(logging.WARNING, logger="parsegate"):
        loaded = ParsegateLoader(corpus, on_error="skip").load()
    assert sorted({d.metadata["doc_id"] for d in loaded}) == ["repeats.txt", "sub/notes.md", "travel.md"]
    assert "broken.md: skipped" in caplog.text


def test_langchain_transformer_chunks_other_loaders_documents_and_keeps_their_metadata(corpus: Path) -> None:
    documents = need("langchain_core.documents")
    from parsegate.integrations.langchain import ParsegateTransformer

    given = documents.Document(page_content=DOC, metadata={"source": "travel.md", "owner": "hr"})
    out = ParsegateTransformer(max_tokens=24, content="text").transform_documents([given])
    expected = parsegate.chunk(parsegate.parse(DOC.encode(), doc_id="travel.md"), max_tokens=24)
    assert [d.page_content for d in out] == [c.text for c in expected]
    assert all(DOC[d.metadata["start"] : d.metadata["end"]] == d.page_content for d in out)
    assert all(d.metadata["owner"] == "hr" and "text" not in d.metadata for d in out)
    # A PDF loader's text with the file as its source: the file is parsed, so pages survive.
    text = parsegate.parse(PDF).text
    pdf = documents.Document(page_content=text, metadata={"source": str(PDF)})
    pieces = ParsegateTransformer().transform_documents([pdf])
    assert pieces and all(p.metadata["pages"] == [1] for p in pieces)
    assert all(text[p.metadata["start"] : p.metadata["end"]] == p.metadata["text"] for p in pieces)


def test_langchain_transformer_reads_unnamed_text_by_its_content() -> None:
    documents = need("langchain_core.documents")
    from parsegate.integrations.langchain import ParsegateTransformer

    page = documents.Document(page_content="<html><body><h1>T</h1><p>x.</p></body></html>")
    [piece] = ParsegateTransformer(content="text").transform_documents([page])
    assert (piece.page_content, piece.metadata["kinds"], piece.metadata["section_path"]) == (
        "T\n\nx.",
        ["heading", "paragraph"],
        ["T"],
    )
    assert piece.metadata["metadata"]["format_detected"] == {"format": "html", "by": "content: an <html> tag first"}
    # A PDF loader's text whose file is not here: the name's .pdf says nothing of the text; its content does.
    loaded = documents.Document(page_content=DOC, metadata={"source": "/elsewhere/travel.pdf"})
    pieces = ParsegateTransformer(max_tokens=24).transform_documents([loaded])
    assert pieces[-1].metadata["section_path"] == ["Travel policy", "Refunds"]
    assert pieces[0].metadata["doc_id"] == "/elsewhere/travel.pdf"


# -- LlamaIndex --------------------------------------------------------------------------


def test_llamaindex_reader_and_node_parser_in_an_ingestion_pipeline(corpus: Path) -> None:
    schema = need("llama_index.core.schema")
    ingestion = need("llama_index.core.ingestion")
    from parsegate.integrations.llamaindex import ParsegateNodeParser, ParsegateReader

    docs = ParsegateReader().load_data(corpus)
    assert [d.id_ for d in docs] == ["repeats.txt", "travel.md"]
    assert docs[1].text == (corpus / "travel.md").read_text()  # a text format's canonical text is the file's
    pipeline = ingestion.IngestionPipeline(transformations=[ParsegateNodeParser(max_tokens=24)])
    nodes = pipeline.run(documents=docs)
    expected = [c for path in sorted(corpus.iterdir()) for c in parsegate.chunk(path, max_tokens=24)]
    assert [n.node_id for n in nodes] == [c.id for c in expected]
    by_id = {d.id_: d for d in docs}
    for node, piece in zip(nodes, expected, strict=True):
        assert isinstance(node, schema.TextNode)
        assert node.text == piece.embed_text
        assert node.ref_doc_id == piece.doc_id
        source = by_id[piece.doc_id].text
        assert source[node.start_char_idx : node.end_char_idx] == node.metadata["text"] == piece.text
        # the budget was counted on the node's text alone: no metadata goes into the embedding
        assert node.get_content(metadata_mode=schema.MetadataMode.EMBED) == piece.embed_text
        next_node = node.relationships.get(schema.NodeRelationship.NEXT)
        assert (next_node.node_id if next_node else None) == piece.next_id


def test_llamaindex_node_offsets_are_the_chunks_own_where_the_text_repeats(corpus: Path) -> None:
    need("llama_index.core.schema")
    from parsegate.integrations.llamaindex import ParsegateNodeParser, ParsegateReader

    docs = ParsegateReader().load_data(corpus / "repeats.txt")
    parser = ParsegateNodeParser(tokenizer="words", max_tokens=8, content="text")
    nodes = parser.get_nodes_from_documents(docs)
    assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [(0, 36), (37, 64)]
    assert REPEATS.find(nodes[1].text, 1) == 23  # what a search for the text would have said


def test_llamaindex_node_parser_takes_another_readers_text_by_its_file_name() -> None:
    schema = need("llama_index.core.schema")
    from parsegate.integrations.llamaindex import ParsegateNodeParser

    doc = schema.Document(text=DOC, metadata={"file_name": "travel.md"})
    nodes = ParsegateNodeParser(max_tokens=24).get_nodes_from_documents([doc])
    assert nodes[-1].metadata["section_path"] == ["Travel policy", "Refunds"]  # read as Markdown
    assert all(DOC[n.start_char_idx : n.end_char_idx] == n.metadata["text"] for n in nodes)


def test_llamaindex_node_parser_reads_text_without_a_file_name_by_its_content() -> None:
    schema = need("llama_index.core.schema")
    from parsegate.integrations.llamaindex import ParsegateNodeParser

    nodes = ParsegateNodeParser(max_tokens=24).get_nodes_from_documents([schema.Document(text=DOC)])
    assert nodes[-1].metadata["section_path"] == ["Travel policy", "Refunds"]  # read as Markdown
    assert nodes[0].metadata["metadata"]["format_detected"]["format"] == "markdown"
    assert all(DOC[n.start_char_idx : n.end_char_idx] == n.metadata["text"] for n in nodes)


# -- a missing extra ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("adapter", "library", "extra"),
    [("langchain", "langchain_core", "langchain"), ("llamaindex", "llama_index", "llamaindex")],
)
def test_an_adapter_without_its_library_names_the_extra(
    adapter: str, library: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parsegate.errors import MissingExtra

    for name in [m for m in sys.modules if m == library or m.startswith(f"{library}.")] or [library]:
        monkeypatch.setitem(sys.modules, name, None)  # type: ignore[arg-type]
    monkeypatch.delitem(sys.modules, f"parsegate.integrations.{adapter}", raising=False)
    with pytest.raises(MissingExtra) as missing:
        importlib.import_module(f"parsegate.integrations.{adapter}")
    assert f"pip install 'parsegate[{extra}]'" in str(missing.value)
    assert isinstance(missing.value, ImportError) and missing.value.extra == extra


# -- parent-child --------------------------------------------------------------------------

LONG = "# Handbook\n\n" + "\n\n".join(
    f"## Part {n}\n\n" + " ".join(f"Rule {n}.{k} applies to every claim filed in week {k}." for k in range(12))
    for n in range(3)
)


def test_parent_records_are_marked_for_langchain_and_linked_for_llamaindex() -> None:
    need("langchain_core.documents")
    node_parser = need("llama_index.core.node_parser")
    schema = need("llama_index.core.schema")
    from parsegate.integrations.langchain import ParsegateTransformer
    from parsegate.integrations.llamaindex import ParsegateNodeParser

    pieces = parsegate.chunk(parsegate.parse(LONG.encode(), doc_id="h.md"), strategy="parent-child", max_tokens=48)
    parents = {p.parent_id for p in pieces if p.parent_id}
    leaves = [p for p in pieces if p.id not in parents]
    assert parents and leaves  # the fixture makes both

    given = need("langchain_core.documents").Document(page_content=LONG, metadata={"source": "h.md"})
    docs = ParsegateTransformer(strategy="parent-child", max_tokens=48).transform_documents([given])
    assert {d.id for d in docs if d.metadata["role"] == "parent"} == parents
    assert [d.id for d in docs if d.metadata["role"] == "chunk"] == [p.id for p in leaves]
    assert all(d.metadata["tokens"] <= 48 for d in docs if d.metadata["role"] == "chunk")

    doc = schema.Document(text=LONG, metadata={"file_name": "h.md"})
    nodes = ParsegateNodeParser(strategy="parent-child", max_tokens=48).get_nodes_from_documents([doc])
    assert [n.node_id for n in node_parser.get_leaf_nodes(nodes)] == [p.id for p in leaves]
    by_id = {n.node_id: n for n in nodes}
    for piece in leaves:
        parent = by_id[piece.id].relationships[schema.NodeRelationship.PARENT]
        assert parent.node_id == piece.parent_id
        siblings = by_id[piece.parent_id].relationships[schema.NodeRelationship.CHILD]
        assert piece.id in [s.node_id for s in siblings]
