"""Office and web formats through docling's backends (no torch), and what bad files get."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import office
from parsegate.parsers.model import ParseError
from parsegate.parsers.options import ParseOptions
from parsegate.parsers.registry import parse_file
from tests.conftest import GOLDEN, corpus_dir

DOCX = GOLDEN / "office" / "docx" / "incident-policy" / "input.docx"
XLSX = GOLDEN / "office" / "xlsx" / "ducks-and-budget" / "input.xlsx"


HIDE_TORCH = """
import importlib.abc, sys
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("torch", "torchvision", "torchaudio"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Hide())
"""


def test_the_office_path_needs_no_torch() -> None:
    # In a fresh process with torch made unimportable: where the embed extra is installed, docling
    # imports torch when it finds it (docling.datamodel.pipeline_options), and other tests import it too.
    probe = (
        HIDE_TORCH
        + f"from parsegate.parsers.registry import parse_file; import pathlib; parse_file(pathlib.Path({str(DOCX)!r}))\n"
    )
    probe += "assert 'torch' not in sys.modules\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_docx_headings_table_header_and_numbered_list() -> None:
    doc = parse_file(DOCX)
    headings = [(e.level, e.section_path) for e in doc.elements if e.kind == "heading"]
    assert headings == [
        (1, ("Incident Policy",)),
        (2, ("Incident Policy", "Response")),
        (3, ("Incident Policy", "Response", "Targets")),
        (2, ("Incident Policy", "Escalation")),
    ]
    table = next(e for e in doc.elements if e.kind == "table")
    assert table.data.header == ["Severity", "Acknowledge within", "Resolve within"]
    assert table.data.rows == 24 and table.data.ref == "#/tables/0"
    assert doc.text[doc.element(table.data.lead_in).start :].startswith("Response targets depend")
    items = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "list_item"]
    assert items == [
        "1. Page the secondary on-call.",
        "2. Open an incident channel.",
        "3. Inform the incident commander.",
    ]
    assert doc.metadata["title"] == "Incident Policy"


def test_every_table_piece_carries_the_header_that_repeats_across_pages() -> None:
    doc = parse_file(DOCX)
    chunks = Chunker(ChunkConfig(max_tokens=64)).chunk(doc)
    pieces = [c for c in chunks if "table_row" in c.kinds]
    assert len(pieces) > 2
    assert all("| Severity | Acknowledge within | Resolve within |" in c.embed_text for c in pieces)


def test_xlsx_sheets_are_sections_and_a_title_row_is_a_caption() -> None:
    doc = parse_file(XLSX)
    assert [(e.kind, doc.text[e.start : e.end]) for e in doc.elements if e.kind in ("heading", "caption")] == [
        ("heading", "Ducks"),
        ("caption", "Number of freshwater ducks per year"),
        ("heading", "Budget"),
    ]
    tables = [e for e in doc.elements if e.kind == "table"]
    assert [t.data.header for t in tables] == [["Year", "Freshwater Ducks"], ["Item", "Cost", "Owner"]]
    assert [(t.data.sheet, t.data.cells) for t in tables] == [("Ducks", "B4:C8"), ("Budget", "A1:C4")]
    assert tables[0].data.caption == "Number of freshwater ducks per year"


def test_pptx_slides_are_sections_with_slide_numbers() -> None:
    doc = parse_file(GOLDEN / "office" / "pptx" / "quarterly-review" / "input.pptx")
    slides = [(doc.text[e.start : e.end], e.page) for e in doc.elements if e.kind == "heading"]
    assert slides == [("Quarterly Review", 1), ("Regional Results", 2)]
    chunks = Chunker(ChunkConfig()).chunk(doc)
    assert [c.pages for c in chunks] == [[1], [2]]


def test_html_boilerplate_is_furniture_and_never_chunked() -> None:
    path = GOLDEN / "office" / "html" / "article" / "input.html"
    doc = parse_file(path)
    furniture = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "furniture"]
    assert furniture == ["Home | Standards | Contact", "© 2026 Acme Operations · Privacy"]
    chunks = Chunker(ChunkConfig()).chunk(doc)
    assert not any("Privacy" in c.text or "Contact" in c.text for c in chunks)


def test_docling_json_is_accepted_as_input(tmp_path: Path) -> None:
    from parsegate.parsers.office.backends import convert
    from parsegate.parsers.office.numbering import numbers_written_in

    # docling's JSON of the package as our parser hands it to docling (Word's list numbers in
    # their items' text, which docling's own JSON of the raw file leaves out).
    ddoc, _, _ = convert(numbers_written_in(DOCX.read_bytes()), "policy.docx", "docx")
    exported = tmp_path / "policy.json"
    exported.write_text(json.dumps(ddoc.export_to_dict()))
    from_json = parse_file(exported)
    from_docx = parse_file(DOCX)
    assert from_json.format == "docling"
    assert from_json.text == from_docx.text
    assert [e.kind for e in from_json.elements] == [e.kind for e in from_docx.elements]


def test_other_json_is_refused_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    path.write_text('{"a": 1}')
    with pytest.raises(ParseError, match="not a DoclingDocument"):
        parse_file(path)


# -- bad input ---------------------------------------------------------------------------


def zipped(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_corrupt_zip_with_a_docx_suffix() -> None:
    with pytest.raises(ParseError) as info:
        office.parse(b"PK\x03\x04 this is not really a zip", "broken.docx")
    assert info.value.code == "corrupt"


def test_external_entity_is_refused_not_fetched_or_expanded() -> None:
    with zipfile.ZipFile(DOCX) as source:
        parts = {info.filename: source.read(info.filename) for info in source.infolist()}
    parts["word/document.xml"] = (
        b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        + parts["word/document.xml"].split(b"?>", 1)[1]
    )
    with pytest.raises(ParseError) as info:
        office.parse(zipped(parts), "xxe.docx")
    assert info.value.code == "unsafe_xml" and "word/document.xml" in info.value.message


def test_zip_bomb_is_refused_before_inflating() -> None:
    bomb = zipped({"[Content_Types].xml": b"<Types/>", "word/padding.bin": b"\0" * 20_000_000})
    assert len(bomb) < 100_000
    with pytest.raises(ParseError) as info:
        office.parse(bomb, "bomb.docx", ParseOptions(max_inflated_mb=5))
    assert info.value.code == "zip_bomb" and "over the 5 MB limit" in info.value.message


def test_html_over_the_size_limit() -> None:
    page = b"<html><body>" + b"<p>Paragraph with some words in it.</p>" * 52_000 + b"</body></html>"
    with pytest.raises(ParseError) as info:
        office.parse(page, "huge.html", ParseOptions(max_html_mb=2))
    assert info.value.code == "too_large" and "2.0 MB is over the 2 MB limit" in info.value.message


def test_the_default_html_limit_is_200_mb() -> None:
    with pytest.raises(ParseError, match="over the 200 MB limit"):
        office.parse(b" " * 200_000_001, "huge.html")


def test_xlsx_with_ten_thousand_styled_empty_cells_and_one_table() -> None:
    # Styled empty cells are in the file but hold nothing: one table is found among them. (A
    # million of them cost about a minute of building and parsing on every test run; what a large
    # sheet costs is benchmarks' to measure, the hostile-files suite.)
    from openpyxl import Workbook
    from openpyxl.styles import PatternFill

    wb = Workbook()
    sheet = wb.active
    fill = PatternFill("solid", fgColor="FFFF00")
    for row in sheet.iter_rows(min_row=1, max_row=100, max_col=100):
        for cell in row:
            cell.fill = fill  # present in the file, styled, empty
    sheet["B2"], sheet["C2"] = "Year", "Ducks"
    sheet["B3"], sheet["C3"] = 2019, 120
    buffer = io.BytesIO()
    wb.save(buffer)
    doc = office.parse(buffer.getvalue(), "sparse.xlsx")
    tables = [e for e in doc.elements if e.kind == "table"]
    assert len(tables) == 1 and tables[0].data.header == ["Year", "Ducks"]


# -- the real-world office corpus ----------------------------------------------------------


def test_office_corpus_parses_and_table_chunks_carry_headers() -> None:
    root = corpus_dir("office")
    chunker = Chunker(ChunkConfig())
    tables_seen = 0
    for path in sorted(root.iterdir()):
        doc = parse_file(path)  # every file parses; a failure here is a ParseError with a reason
        for chunk in chunker.chunk(doc):
            assert chunk.text == doc.text[chunk.start : chunk.end]
            if "table_row" not in chunk.kinds:
                continue
            ids = {e.parent for e in doc.elements if e.kind == "table_row" and chunk.start <= e.start < chunk.end}
            for table in (doc.element(i) for i in ids if i):
                if table is not None and getattr(table.data, "header_text", None):
                    tables_seen += 1
                    assert table.data.header_text in chunk.embed_text, (path.name, chunk.text[:80])
    assert tables_seen >= 10


def _docx(build) -> bytes:  # type: ignore[no-untyped-def]
    import docx

    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_heading_style_with_no_level_is_a_paragraph() -> None:
    # LibreOffice saves an HTML page's definition terms (<dt>) in its "List Heading" style and their
    # descriptions in "List Contents"; docling took every style whose name holds "Heading" for a
    # section heading, and a manual's contents list became a hundred empty level-1 sections.
    from docx.enum.style import WD_STYLE_TYPE

    def build(document) -> None:  # type: ignore[no-untyped-def]
        document.styles.add_style("List Heading", WD_STYLE_TYPE.PARAGRAPH)
        document.styles.add_style("List Contents", WD_STYLE_TYPE.PARAGRAPH)
        document.add_heading("Valve maintenance", level=1)
        for term, text in [("--check", "Verify every seal."), ("--drain", "Empty the tank first.")]:
            document.add_paragraph(term, style="List Heading")
            document.add_paragraph(text, style="List Contents")
        document.add_heading("Storage", level=2)
        document.add_paragraph("Keep valves dry.")

    doc = office.parse(_docx(build), "terms.docx")
    shown = [(e.kind, doc.text[e.start : e.end], e.section_path) for e in doc.elements if e.kind != "furniture"]
    assert shown == [
        ("heading", "Valve maintenance", ("Valve maintenance",)),
        ("paragraph", "--check", ("Valve maintenance",)),
        ("paragraph", "Verify every seal.", ("Valve maintenance",)),
        ("paragraph", "--drain", ("Valve maintenance",)),
        ("paragraph", "Empty the tank first.", ("Valve maintenance",)),
        ("heading", "Storage", ("Valve maintenance", "Storage")),
        ("paragraph", "Keep valves dry.", ("Valve maintenance", "Storage")),
    ]


def test_a_table_row_of_empty_cells_is_left_out() -> None:
    # A layout table of logos (LibreOffice's DOCX of a GNOME manual page, an HTML page's banner): a
    # row of empty cells was a chunk of its own, "|  |  |  |", the page's first.
    def build(document) -> None:  # type: ignore[no-untyped-def]
        banner = document.add_table(rows=1, cols=3)
        assert all(not c.text for c in banner.rows[0].cells)
        document.add_paragraph("Intake opens at six.")
        table = document.add_table(rows=3, cols=2)
        for row, cells in zip(table.rows, [("Gate", "Hours"), ("", ""), ("North", "6-18")], strict=True):
            for cell, text in zip(row.cells, cells, strict=True):
                cell.text = text

    doc = office.parse(_docx(build), "banner.docx")
    assert [(e.kind, doc.text[e.start : e.end]) for e in doc.elements if e.kind != "furniture"] == [
        ("paragraph", "Intake opens at six."),
        ("table", "| Gate | Hours |\n| North | 6-18 |"),
        ("table_row", "| Gate | Hours |"),
        ("table_row", "| North | 6-18 |"),
    ]
    page = b"<html><body><table><tr><td><img src='logo.png' alt=''></td><td></td></tr></table><p>Intake opens at six.</p></body></html>"
    web = office.parse(page, "banner.html")
    assert [e.kind for e in web.elements if e.kind != "furniture"] == ["paragraph"]
