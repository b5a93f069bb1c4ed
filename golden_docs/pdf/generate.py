"""Generates the PDF golden inputs with fpdf2, so their text is known exactly. Run from the
repository root:

    .venv/bin/python golden_docs/pdf/generate.py

then read the new expected outputs (PARSEGATE_REGENERATE_GOLDEN=1) before committing them.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from fpdf import FPDF

HERE = Path(__file__).resolve().parent
FIXED = datetime(2026, 1, 1, tzinfo=timezone.utc)
PROSE = (
    "Field teams record every observation in the shared log before the end of the day. "
    "Entries name the site, the time, the observer and the instrument used. "
    "A reading without an instrument is not accepted. "
)


class Doc(FPDF):
    running_header: str | None = None

    def header(self) -> None:
        if self.running_header:
            self.set_font("Helvetica", size=8)
            self.cell(0, 6, self.running_header, align="C")
            self.ln(10)

    def footer(self) -> None:
        if self.running_header:
            self.set_y(-15)
            self.set_font("Helvetica", size=8)
            self.cell(0, 6, f"Page {self.page_no()}", align="C")


def title(pdf: FPDF, text: str, size: int = 16, height: float = 10) -> None:
    pdf.set_font("Helvetica", "B", size)
    pdf.multi_cell(0, height, text, new_x="LMARGIN", new_y="NEXT")


def para(pdf: FPDF, text: str, size: int = 10, height: float = 5) -> None:
    pdf.set_font("Helvetica", size=size)
    pdf.multi_cell(0, height, text, new_x="LMARGIN", new_y="NEXT")


def new(header: str | None = None) -> Doc:
    pdf = Doc(format="A4")
    pdf.running_header = header
    pdf.set_creation_date(FIXED)
    pdf.set_auto_page_break(True, margin=20)
    return pdf


def two_column_article(path: Path) -> None:
    pdf = new()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 10, "Wetland Survey Results 2026", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("Helvetica", size=10)
    with pdf.text_columns(ncols=2, gutter=10) as cols:
        for n in range(1, 5):
            cols.write(f"Section {n}. " + PROSE * 3)
            cols.ln()
            cols.ln()
    pdf.output(str(path))


def policy_headings(path: Path) -> None:
    pdf = new("Acme Operations - Internal Policy")
    pdf.add_page()
    for level1 in ("Access Policy", "Retention Policy"):
        title(pdf, level1, 18, 10)
        for level2 in ("Scope", "Rules"):
            title(pdf, level2, 14, 8)
            for level3 in ("Staff", "Contractors"):
                title(pdf, level3, 12, 7)
                para(pdf, f"{level1}, {level2.lower()} for {level3.lower()}: " + PROSE * 3)
                pdf.ln(2)
    pdf.output(str(path))


def table_two_pages(path: Path) -> None:
    pdf = new()
    pdf.add_page()
    title(pdf, "Station Readings")
    para(pdf, "Table 1: Water level per station and week.")
    pdf.ln(2)
    with pdf.table(col_widths=(30, 30, 40), repeat_headings=1) as table:
        header = table.row()
        for text in ("Station", "Week", "Level (cm)"):
            header.cell(text)
        for n in range(70):
            row = table.row()
            for text in (f"S{n % 7 + 1}", str(n // 7 + 1), str(100 + (n * 37) % 90)):
                row.cell(text)
    pdf.output(str(path))


def unruled_table(path: Path) -> None:
    pdf = new()
    pdf.add_page()
    title(pdf, "Staff Directory")
    pdf.set_font("Helvetica", size=10)
    rows = [("Name", "Team", "Extension"), ("Ana Ruiz", "Survey", "4102"), ("Ben Okafor", "Lab", "4117"),
            ("Chen Wei", "Survey", "4120"), ("Dana Holt", "Data", "4133")]  # fmt: skip
    for row in rows:
        for width, text in zip((50, 40, 30), row, strict=True):
            pdf.cell(width, 7, text)
        pdf.ln(7)
    pdf.output(str(path))


def rows_over_page(path: Path) -> None:
    """An unruled table whose last two rows a page break carries to the next page, rows padded
    apart: the rows at the top of page 2 go on with the table (its header carried), and the
    number that stands alone at that page's top is a cell, not a page number."""
    pdf = new("Station Survey")
    pdf.add_page()
    title(pdf, "Gauge Readings")
    for site in ("North", "South", "East", "West", "Harbour"):
        para(pdf, f"At the {site} station: " + GAUGES + PROSE)
    rows = [("Station", "Level", "Gauge"), ("North", "412", "steel"), ("South", "388", "steel"),
            ("East", "405", "wood"), ("West", "8058", "wood"), ("Harbour", "397", "steel")]  # fmt: skip
    tops = [218, 226, 234, 242, 30, 38]  # millimetres; the last two on page 2
    for n, (row, top) in enumerate(zip(rows, tops, strict=True)):
        if n == 4:
            pdf.add_page()
        pdf.set_font("Helvetica", "B" if n == 0 else "", 10)
        for x, text in zip((20, 70, 110), row, strict=True):
            pdf.set_xy(x, top)
            pdf.cell(40, 6, text)
    pdf.set_xy(20, 50)
    para(pdf, "Readings above 400 are checked again the next morning before they are entered.")
    pdf.output(str(path))


def footnote(path: Path) -> None:
    pdf = new()
    pdf.add_page()
    title(pdf, "Calibration Note")
    para(pdf, "Gauges are calibrated every month.1 A gauge that drifts is taken out of service. " + PROSE)
    pdf.set_y(-35)
    para(pdf, "1 Calibration follows the 2024 field manual, chapter 3.", size=7, height=4)
    pdf.output(str(path))


GAUGES = (
    "Each gauge is read at the same hour every day, from the same side of the post, so that the "
    "angle of the reading never changes. A gauge that leans is reported, not read. "
)


def figure_in_columns(path: Path) -> None:
    """Two columns on one baseline grid, with a drawing (boxes, a curve, labels) and its caption
    in the left column."""
    pdf = new()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.multi_cell(0, 9, "River Gauge Network", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font("Helvetica", size=10)
    left, width, top = 10.0, 92.0, pdf.get_y()
    pdf.set_xy(left, top)
    pdf.multi_cell(width, 5, "Upstream. " + GAUGES * 2, new_x="LMARGIN", new_y="NEXT")
    y = pdf.get_y() + 3
    pdf.set_line_width(0.3)
    for n, label in enumerate(("Weir", "Gauge", "Logger")):
        x = left + 4 + n * 30
        pdf.rect(x, y + (n % 2) * 12, 22, 10)
        pdf.set_font("Helvetica", size=7)
        pdf.text(x + 3, y + (n % 2) * 12 + 6, label)
    pdf.bezier([(left + 26, y + 5), (left + 30, y + 20), (left + 34, y + 17)])
    pdf.bezier([(left + 56, y + 17), (left + 60, y + 5), (left + 64, y + 5)])
    pdf.set_font("Helvetica", size=9)
    pdf.set_xy(left, y + 26)
    pdf.multi_cell(width, 4.5, "Figure 1: Water passes the weir, then the gauge; the logger keeps the readings.",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(left, pdf.get_y() + 3)
    pdf.multi_cell(width, 5, "Midstream. " + GAUGES, new_x="LMARGIN", new_y="NEXT")
    pdf.set_xy(left + width + 8, top)
    pdf.multi_cell(width, 5, "Downstream. " + GAUGES * 3, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def lists_and_code(path: Path) -> None:
    """Numbered headings, a lead-in with a bullet list (one item over two lines) and a numbered
    list, and a code listing in a monospaced face whose indentation matters."""
    pdf = new()
    pdf.core_fonts_encoding = "windows-1252"  # for the bullet (0x95)
    pdf.add_page()
    title(pdf, "1 Logger Setup", 14, 8)
    para(pdf, "Before the first reading, do the following:")
    pdf.set_font("Helvetica", size=10)
    for item in ("Charge the logger overnight.",
                 "Set its clock to UTC from a phone on the network, and write the offset you saw in the log book.",
                 "Label the cable with the station code."):  # fmt: skip
        pdf.set_x(15)
        pdf.cell(5, 5, "\u2022")
        pdf.multi_cell(120, 5, item, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    title(pdf, "1.1 Upload script", 12, 7)
    para(pdf, "The script below sends the day's readings:")
    pdf.ln(1)
    pdf.set_font("Courier", size=9)
    for code_line in ("def upload(readings):", "    for r in readings:", "        if r.valid:",
                      "            send(r)", "    return len(readings)"):  # fmt: skip
        pdf.set_x(15)
        pdf.cell(0, 4.5, code_line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    title(pdf, "1.2 Checks", 12, 7)
    pdf.set_font("Helvetica", size=10)
    for n, item in enumerate(("Compare the count with the paper log.", "Sign the sheet."), start=1):
        pdf.set_x(15)
        pdf.cell(6, 5, f"{n}.")
        pdf.multi_cell(120, 5, item, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def open_table(path: Path) -> None:
    """A table ruled inside only (no outer border), and one ruled across only (booktabs)."""
    pdf = new()
    pdf.add_page()
    title(pdf, "Gauge Inventory")
    para(pdf, "Table 1: Gauges by station.")
    pdf.ln(2)
    pdf.set_font("Helvetica", size=10)
    rows = [("Station", "Gauge", "Installed"), ("North Weir", "Staff", "2019"), ("Mill Pond", "Radar", "2021"),
            ("South Ford", "Pressure", "2022")]  # fmt: skip
    with pdf.table(col_widths=(40, 30, 30), width=100, align="LEFT", borders_layout="INTERNAL") as table:
        for values in rows:
            row = table.row()
            for value in values:
                row.cell(value)
    pdf.ln(6)
    para(pdf, "Table 2: Spare parts.")
    pdf.ln(2)
    pdf.set_font("Helvetica", size=10)
    parts = [("Part", "Count"), ("Float", "4"), ("Cable 10 m", "2"), ("Battery", "6")]
    with pdf.table(col_widths=(40, 20), width=60, align="LEFT", borders_layout="HORIZONTAL_LINES") as table:
        for values in parts:
            row = table.row()
            for value in values:
                row.cell(value)
    pdf.output(str(path))


def banded_table(path: Path) -> None:
    """A statistical table ruled every three rows only: each ruled band holds three rows of
    figures, written as one multi-line cell per column (as report generators draw them)."""
    pdf = new()
    pdf.add_page()
    title(pdf, "Permit Checks by State")
    para(pdf, "Checks run in November, by state and kind of permit.")
    pdf.ln(2)
    pdf.set_font("Helvetica", size=10)
    bands = [
        (("State", "Permit", "Handgun"),),
        (("Alabama", "18,870", "23,022"), ("Alaska", "209", "3,062"), ("Arizona", "2,303", "12,382")),
        (("Arkansas", "3,298", "6,359"), ("California", "98,452", "41,181"), ("Colorado", "1,140", "25,017")),
    ]
    with pdf.table(col_widths=(40, 30, 30), width=100, align="LEFT", text_align="LEFT") as table:
        for band in bands:
            row = table.row()
            for column in range(3):
                row.cell("\n".join(values[column] for values in band))
    pdf.output(str(path))


class ManualDoc(Doc):
    """A manual's running heads: the book's title on odd pages, the chapter's on even ones;
    folios in roman numerals, from iii."""

    def header(self) -> None:
        self.set_font("Helvetica", "I", 8)
        self.cell(0, 6, "Field Manual" if self.page_no() % 2 else "Chapter 2: Gauges", align="C")
        self.ln(10)

    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, ("iii", "iv", "v", "vi")[self.page_no() - 1], align="C")


def manual_furniture(path: Path) -> None:
    pdf = ManualDoc(format="A5")
    pdf.set_creation_date(FIXED)
    pdf.set_auto_page_break(True, margin=20)
    for n in range(1, 5):
        pdf.add_page()
        title(pdf, f"2.{n} Reading step {n}", 12, 7)
        para(pdf, GAUGES * 3)
    pdf.output(str(path))


def scan(source: Path, target: Path, dpi: int) -> None:
    """``source`` as a scan would have it: each page rendered in grey by PDFium at ``dpi``, saved
    by Pillow as an image-only PDF (JPEG inside), or as a PNG (its first page) for an image case."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument(source)
    images = [page.render(scale=dpi / 72, grayscale=True).to_pil() for page in pdf]
    pdf.close()
    if target.suffix == ".png":
        images[0].save(target, "PNG", dpi=(dpi, dpi))
    else:
        images[0].save(target, "PDF", resolution=dpi, save_all=True, append_images=images[1:])


def main() -> None:
    for folder, make in (
        ("two-column-article", two_column_article),
        ("policy-headings", policy_headings),
        ("table-two-pages", table_two_pages),
        ("unruled-table", unruled_table),
        ("footnote", footnote),
        ("figure-in-columns", figure_in_columns),
        ("lists-and-code", lists_and_code),
        ("open-table", open_table),
        ("manual-furniture", manual_furniture),
        ("banded-table", banded_table),
        ("rows-over-page", rows_over_page),
    ):
        target = HERE / folder
        target.mkdir(parents=True, exist_ok=True)
        make(target / "input.pdf")
        print("wrote", target / "input.pdf")
    # OCR (issue 36): scans of two of them, read back by Tesseract.
    for source, target, dpi in (
        ("footnote", HERE / "scanned-footnote" / "input.pdf", 200),
        ("banded-table", HERE.parent / "image" / "scanned-table" / "input.png", 200),
    ):
        target.parent.mkdir(parents=True, exist_ok=True)
        scan(HERE / source / "input.pdf", target, dpi)
        print("wrote", target)


if __name__ == "__main__":
    main()
