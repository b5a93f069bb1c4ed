"""A DOCX paragraph docling's export drops (inside ``w:customXml``) and the parser reads is in the
file: localization finds the chunk's words in the file's own paragraphs (issue 39's hostile run:
the custom XML file failed ``min_localization``)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("docling")

from benchmarks.suites.hostile.round_two import custom_xml_docx
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers.registry import parse_data
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references.docx_text import paragraph_texts


def test_custom_xml_text_is_found_in_the_files_paragraphs() -> None:
    data = custom_xml_docx()
    assert paragraph_texts(data) == ["Before the custom part.", "Inside the custom XML element."]
    doc = parse_data(data, Path("custom.docx"), "custom.docx")
    chunker = Chunker(ChunkConfig(max_tokens=128))
    chunks = chunker.chunk(doc)
    assert [c.text for c in chunks] == ["Before the custom part.\n\nInside the custom XML element."]
    facts = measure(doc, chunks, chunker.counter, 128, data).to_dict()
    assert facts["localized"] == 1


def test_words_in_neither_the_export_nor_the_paragraphs_still_fail_localization() -> None:
    import dataclasses

    data = custom_xml_docx()
    doc = parse_data(data, Path("custom.docx"), "custom.docx")
    doc = dataclasses.replace(doc, text=doc.text.replace("custom XML", "forged note"))
    chunker = Chunker(ChunkConfig(max_tokens=128))
    facts = measure(doc, chunker.chunk(doc), chunker.counter, 128, data).to_dict()
    assert facts["localized"] == 0
