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


def footnote(path: Path) -> None:
    pdf = new()
    pdf.add_page()
    title(pdf, "Calibration Note")
    para(pdf, "Gauges are calibrated every month.1 A gauge that drifts is taken out of service. " + PROSE)
    pdf.set_y(-35)
    para(pdf, "1 Calibration follows the 2024 field manual, chapter 3.", size=7, height=4)
    pdf.output(str(path))


def main() -> None:
    for folder, make in (
        ("two-column-article", two_column_article),
        ("policy-headings", policy_headings),
        ("table-two-pages", table_two_pages),
        ("unruled-table", unruled_table),
        ("footnote", footnote),
    ):
        target = HERE / folder
        target.mkdir(parents=True, exist_ok=True)
        make(target / "input.pdf")
        print("wrote", target / "input.pdf")


if __name__ == "__main__":
    main()
