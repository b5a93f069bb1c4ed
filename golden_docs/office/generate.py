"""Generates the Office golden inputs (python-docx, python-pptx and openpyxl come with
docling's format extras; the footnoted DOCX is written as OpenDocument XML and converted by
headless LibreOffice, since python-docx cannot write footnotes). The HTML case is written by
hand. Run from the repository root:

    .venv/bin/python golden_docs/office/generate.py

then read the new expected outputs (PARSEGATE_REGENERATE_GOLDEN=1) before committing them.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from datetime import datetime
from pathlib import Path

from docx import Document as Docx
from lxml import etree
from PIL import Image, ImageDraw
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from openpyxl import Workbook
from pptx import Presentation
from pptx.util import Inches

HERE = Path(__file__).resolve().parent
DECORATIVE = "http://schemas.microsoft.com/office/drawing/2017/decorative"
FIXED = datetime(2026, 1, 1)  # document properties do not change from one generation to the next
SEVERITIES = [
    ("P1", "15 minutes", "4 hours"),
    ("P2", "1 hour", "1 business day"),
    ("P3", "4 hours", "5 business days"),
    ("P4", "1 business day", "next release"),
]


def docx_policy(path: Path) -> None:
    doc = Docx()
    doc.core_properties.created = doc.core_properties.modified = FIXED
    doc.add_heading("Incident Policy", level=1)
    doc.add_paragraph("This policy sets how the operations team answers incidents.")
    doc.add_heading("Response", level=2)
    doc.add_heading("Targets", level=3)
    doc.add_paragraph("Response targets depend on the severity of the incident:")
    table = doc.add_table(rows=1, cols=3)
    header = table.rows[0]
    for cell, text in zip(header.cells, ("Severity", "Acknowledge within", "Resolve within"), strict=True):
        cell.text = text
    # The header row repeats on every page the table spans (w:tblHeader).
    flag = OxmlElement("w:tblHeader")
    flag.set(qn("w:val"), "true")
    header._tr.get_or_add_trPr().append(flag)
    for _ in range(6):
        for row in SEVERITIES:
            cells = table.add_row().cells
            for cell, text in zip(cells, row, strict=True):
                cell.text = text
    doc.add_heading("Escalation", level=2)
    doc.add_paragraph("Before you escalate, check the runbook for the affected service.")
    for step in ("Page the secondary on-call.", "Open an incident channel.", "Inform the incident commander."):
        doc.add_paragraph(step, style="List Number")
    doc.save(path)


FOOTNOTED = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:master-styles><style:master-page style:name="Standard">
  <style:header><text:p>Internal - customer service handbook</text:p></style:header>
 </style:master-page></office:master-styles>
 <office:body><office:text>
  <text:h text:outline-level="1">Refunds and Returns</text:h>
  <text:h text:outline-level="2">Refunds</text:h>
  <text:p>Customers may request a full refund within 30 days of purchase.<text:note text:note-class="footnote"
  ><text:note-citation>1</text:note-citation><text:note-body><text:p>Gift cards bought in a store are not
  refundable.</text:p></text:note-body></text:note> The refund goes back to the original payment method.</text:p>
  <text:p>Refunds are processed within five business days.</text:p>
  <text:h text:outline-level="2">Returns</text:h>
  <text:p>Items must be returned in their original packaging.<text:note text:note-class="footnote"
  ><text:note-citation>2</text:note-citation><text:note-body><text:p>Opened software and personalised items
  cannot be returned.</text:p></text:note-body></text:note></text:p>
  <text:p>Return shipping is free for orders over 50 euros.<office:annotation><dc:creator>Reviewer</dc:creator
  ><text:p>Check the threshold with finance.</text:p></office:annotation></text:p>
  <text:h text:outline-level="2">Exchanges</text:h>
  <text:p>Exchanges for a different size are free of charge.</text:p>
 </office:text></office:body>
</office:document>
"""


# Footnotes cited from table cells: one from a cell of one paragraph, one from the second
# paragraph of a cell.
FOOTNOTED_TABLE = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:body><office:text>
  <text:h text:outline-level="1">Shipping Rates</text:h>
  <text:p>Rates depend on where the parcel goes.</text:p>
  <table:table table:name="Rates">
   <table:table-column table:number-columns-repeated="3"/>
   <table:table-header-rows><table:table-row>
    <table:table-cell office:value-type="string"><text:p>Destination</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Rate</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>Delivery</text:p></table:table-cell>
   </table:table-row></table:table-header-rows>
   <table:table-row>
    <table:table-cell office:value-type="string"><text:p>Mainland</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>5 euros</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>2 days</text:p></table:table-cell>
   </table:table-row>
   <table:table-row>
    <table:table-cell office:value-type="string"><text:p>Islands<text:note text:note-class="footnote"
     ><text:note-citation>1</text:note-citation><text:note-body><text:p>Island rates include the ferry surcharge
     and do not apply from November to March.</text:p></text:note-body></text:note></text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>17 euros</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>5 days</text:p></table:table-cell>
   </table:table-row>
   <table:table-row>
    <table:table-cell office:value-type="string"><text:p>Abroad</text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>25 euros</text:p><text:p>plus customs<text:note
     text:note-class="footnote"><text:note-citation>2</text:note-citation><text:note-body><text:p>Customs fees are
     charged by the receiving country, not by us.</text:p></text:note-body></text:note></text:p></table:table-cell>
    <table:table-cell office:value-type="string"><text:p>7 days</text:p></table:table-cell>
   </table:table-row>
  </table:table>
  <text:h text:outline-level="1">Returns</text:h>
  <text:p>Returns are free within 14 days of delivery.</text:p>
 </office:text></office:body>
</office:document>
"""


def docx_footnoted(path: Path) -> None:
    libreoffice_docx(FOOTNOTED, path)


def docx_footnoted_table(path: Path) -> None:
    libreoffice_docx(FOOTNOTED_TABLE, path)


def libreoffice_docx(fodt: str, path: Path) -> None:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise SystemExit("the footnoted DOCX needs LibreOffice (soffice) to convert it")
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / "input.fodt"
        source.write_text(fodt, encoding="utf-8")
        subprocess.run(
            [soffice, f"-env:UserInstallation=file://{work}/profile", "--headless", "--convert-to", "docx",
             "--outdir", work, str(source)],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        shutil.copyfile(Path(work) / "input.docx", path)


def _bar_chart_png(bars: tuple[int, ...], size: tuple[int, int] = (240, 120)) -> io.BytesIO:
    """A small bar chart drawn with Pillow (no text in it: its words are its alt text)."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for n, height in enumerate(bars):
        draw.rectangle((20 + n * 50, size[1] - 10 - height, 50 + n * 50, size[1] - 10), fill=(40, 90, 160))
    out = io.BytesIO()
    image.save(out, format="PNG")
    out.seek(0)
    return out


def docx_figures(path: Path) -> None:
    """A report whose chart says in its alt text what the prose leaves out; a decorative rule
    image (Word's "Mark as decorative") has alt text that must not be read."""
    doc = Docx()
    doc.add_heading("Backup Report", 1)
    doc.add_heading("Nightly Duration", 2)
    doc.add_paragraph("The nightly backup got faster after the March change.")
    doc.add_picture(_bar_chart_png((90, 85, 40, 35)), width=Inches(3))
    props = doc.inline_shapes[-1]._inline.docPr
    props.set("title", "Backup duration chart")
    props.set(
        "descr",
        "Bar chart of backup duration per night: 94 minutes in January, 41 minutes in April.\n\n"
        "Description automatically generated",
    )
    doc.add_paragraph("Restores were tested every Friday.")
    doc.add_picture(_bar_chart_png((4,), (480, 40)), width=Inches(5))
    props = doc.inline_shapes[-1]._inline.docPr
    props.set("descr", "decorative divider line")
    ext_list = OxmlElement("a:extLst")
    ext = OxmlElement("a:ext")
    ext.set("uri", "{C183D7F6-B498-43B3-948B-1728B52AA6E4}")
    mark = etree.SubElement(ext, f"{{{DECORATIVE}}}decorative", nsmap={"adec": DECORATIVE})
    mark.set("val", "1")
    ext_list.append(ext)
    props.append(ext_list)
    doc.add_heading("Storage", 2)
    doc.add_paragraph("Backups are kept for 35 days in object storage.")
    doc.core_properties.created = doc.core_properties.modified = FIXED
    doc.save(path)


def pptx_deck(path: Path) -> None:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Quarterly Review"
    body = slide.placeholders[1].text_frame
    body.text = "Revenue grew 12% over the quarter"
    for line in ("Churn fell to 2.1%", "Two new regions opened"):
        body.add_paragraph().text = line
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Regional Results"
    shape = slide.shapes.add_table(4, 3, Inches(1), Inches(2), Inches(8), Inches(2))
    rows = [("Region", "Revenue", "Growth"), ("North", "4.2M", "9%"), ("South", "3.1M", "15%"), ("West", "2.7M", "12%")]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            shape.table.cell(r, c).text = text
    deck.core_properties.created = deck.core_properties.modified = FIXED
    deck.save(path)


def pptx_presenter_notes(path: Path) -> None:
    """A deck whose speaker notes hold what the slides leave out; a hidden slide's notes stay out."""
    deck = Presentation()
    slides = [
        ("Refund Policy", ["Refunds within 30 days of purchase", "Keep the receipt"],
         "Gift cards bought in a store are not refundable, except where local law requires it.\n"
         "Online orders follow the same rule."),
        ("Shipping", ["Free shipping on orders over 50 euros"],
         "Deliveries to the islands cost 12 euros more because of the ferry surcharge."),
        ("Draft Prices", ["Premium plan: 19 euros a month"], "Do not present: the premium price is not final."),
        ("Contacts", ["Support answers within one business day"], ""),  # a slide this short passes the gate
    ]  # fmt: skip
    for title, bullets, notes in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        body = slide.placeholders[1].text_frame
        body.text = bullets[0]
        for line in bullets[1:]:
            body.add_paragraph().text = line
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
        if title == "Draft Prices":
            slide._element.set("show", "0")  # Hide Slide: PowerPoint does not present it
    deck.core_properties.created = deck.core_properties.modified = FIXED
    deck.save(path)


def xlsx_workbook(path: Path) -> None:
    wb = Workbook()
    ducks = wb.active
    ducks.title = "Ducks"
    ducks["B2"] = "Number of freshwater ducks per year"
    ducks["B4"], ducks["C4"] = "Year", "Freshwater Ducks"
    for i, (year, count) in enumerate([(2019, 120), (2020, 135), (2021, 150), (2022, 160)], start=5):
        ducks.cell(row=i, column=2, value=year)
        ducks.cell(row=i, column=3, value=count)
    budget = wb.create_sheet("Budget")
    budget.append(["Item", "Cost", "Owner"])
    for row in [("Feed", 1200, "Ana"), ("Nets", 300, "Ben"), ("Boat repair", 2500, "Ana")]:
        budget.append(list(row))
    wb.properties.created = wb.properties.modified = FIXED
    wb.save(path)


def main() -> None:
    for folder, make, name in (
        ("docx/incident-policy", docx_policy, "input.docx"),
        ("docx/footnoted-policy", docx_footnoted, "input.docx"),
        ("docx/footnoted-rates", docx_footnoted_table, "input.docx"),
        ("docx/figure-alt-text", docx_figures, "input.docx"),
        ("pptx/quarterly-review", pptx_deck, "input.pptx"),
        ("pptx/presenter-notes", pptx_presenter_notes, "input.pptx"),
        ("xlsx/ducks-and-budget", xlsx_workbook, "input.xlsx"),
    ):
        target = HERE / folder
        target.mkdir(parents=True, exist_ok=True)
        make(target / name)
        print("wrote", target / name)


if __name__ == "__main__":
    main()
