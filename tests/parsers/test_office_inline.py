"""DOCX paragraphs whole across formatting (docling's inline groups), XLSX notes and charts, and
docling's other layers: nothing the file holds is dropped silently."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from docx import Document as Docx
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from openpyxl import Workbook

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import office
from parsegate.parsers.office.backends import source_gaps
from parsegate.parsers.office.inline import Piece, joined
from tests.conftest import corpus_dir


def refund_docx() -> bytes:
    doc = Docx()
    doc.add_heading("Refunds", 1)
    p = doc.add_paragraph("Customers may request a ")
    p.add_run("full refund").bold = True
    p.add_run(" within ")
    p.add_run("30 days").italic = True
    p.add_run(" of purchase; see ")
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), doc.part.relate_to("https://example.com/refunds", RELATIONSHIP_TYPE.HYPERLINK, True))
    run, text = OxmlElement("w:r"), OxmlElement("w:t")
    text.text = "the policy"
    run.append(text)
    link.append(run)
    p._p.append(link)
    p.add_run(".")
    item = doc.add_paragraph("Refunds need ", style="List Bullet")
    item.add_run("a receipt").bold = True
    item.add_run(".")
    doc.add_paragraph("Head", style="List Bullet").add_run("strong").bold = True  # a run in the middle of a word
    buffer = io.BytesIO()
    doc.save(buffer)
    return buffer.getvalue()


def test_a_docx_sentence_split_by_formatting_is_one_paragraph_with_the_source_spacing() -> None:
    doc = office.parse(refund_docx(), "refunds.docx")
    paragraphs = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "paragraph"]
    assert paragraphs == ["Customers may request a full refund within 30 days of purchase; see the policy."]
    paragraph = next(e for e in doc.elements if e.kind == "paragraph")
    spans = [(doc.text[s["start"] : s["end"]], s["style"], s.get("href")) for s in paragraph.data.inline]
    assert spans == [
        ("full refund", "bold", None),
        ("30 days", "italic", None),
        ("the policy", "link", "https://example.com/refunds"),
    ]
    items = [doc.text[e.start : e.end] for e in doc.elements if e.kind == "list_item"]
    assert items == ["Refunds need a receipt.", "Headstrong"]


def test_without_the_source_s_gaps_pieces_are_joined_as_a_reader_expects() -> None:
    pieces = [Piece("see", (), None), Piece("the policy", (), "https://x"), Piece(".", (), None)]
    assert joined(pieces, None)[0] == "see the policy."
    assert source_gaps("a  (b) c", ("a", "(b)", "c")) == ["  ", " "]
    assert source_gaps("Headstrong", ("Head", "strong")) == [""]


def test_an_xlsx_note_below_a_table_is_a_paragraph_not_lost(tmp_path: Path) -> None:
    """Issue 12 point 6: a one-cell row no table follows was held as a title and vanished."""
    wb = Workbook()
    sheet = wb.active
    sheet.title = "Q2"
    sheet["A1"] = "Quarterly figures"  # a title one blank row above its table: its caption
    sheet["A3"], sheet["B3"] = "Region", "Revenue"
    for n in range(12):
        sheet[f"A{n + 4}"], sheet[f"B{n + 4}"] = f"R{n}", n * 10
    sheet["A18"] = "WARNING: all Q2 figures are provisional until audited."
    buffer = io.BytesIO()
    wb.save(buffer)
    doc = office.parse(buffer.getvalue(), "q2.xlsx")
    kinds = [(e.kind, doc.text[e.start : e.end]) for e in doc.elements if e.kind in ("caption", "paragraph")]
    assert kinds == [
        ("caption", "Quarterly figures"),
        ("paragraph", "WARNING: all Q2 figures are provisional until audited."),
    ]
    note = next(e for e in doc.elements if e.kind == "paragraph")
    assert note.data.cells == "A18:A18"
    table = next(e for e in doc.elements if e.kind == "table")
    assert table.data.caption == "Quarterly figures" and table.data.cells == "A3:B15"
    assert any("provisional" in c.text for c in Chunker(ChunkConfig()).chunk(doc))
    (tmp_path / "q2.xlsx").write_bytes(buffer.getvalue())
    out = tmp_path / "out"
    done = subprocess.run(
        [str(Path(sys.executable).parent / "parsegate"), "run", str(tmp_path), "--out", str(out), "--glob", "*.xlsx"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "provisional" in (out / "chunks.jsonl").read_text()


def test_chart_data_is_a_table_under_its_caption() -> None:
    doc = office.parse((corpus_dir("office") / "xlsx_01.xlsx").read_bytes(), "xlsx_01.xlsx")
    charts = [e for e in doc.elements if e.kind == "table" and getattr(e.data, "chart", None)]
    assert [c.data.chart for c in charts] == ["line_chart", "scatter_chart"]
    assert [doc.text[doc.element(c.data.lead_in).start : doc.element(c.data.lead_in).end] for c in charts] == [
        "'col-3'",
        "'col-2', 'col-3', 'col-4' by 'col-1'",
    ]
    assert charts[0].data.header == ["col-1", "col-3"]


def test_markdown_and_html_never_import_docling() -> None:
    code = (
        "import sys; from parsegate.parsers.registry import parse_file; from pathlib import Path; "
        "parse_file(Path('README.md')); "
        "print(sorted(m for m in sys.modules if m.startswith('docling')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
