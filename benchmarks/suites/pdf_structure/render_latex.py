"""Spec → LaTeX → PDF through pdfLaTeX (article class; ``twocolumn`` or ``multicol`` for columns).

Real TeX typesetting: Type 1 fonts (Computer Modern, or Times / Helvetica / Charter from
texlive-fonts-recommended), TeX's own hyphenation, ligatures and quotes, fancyhdr running heads and
folios, real footnotes (marked *, †, ‡ … by ``\\fnsymbol``, the marks the spec gives), booktabs and
longtable. Nothing floats: tables and figures stay where the spec puts them, so the reading order
is the spec's. Figures are ``picture`` environments: framed boxes and lines, or a PNG with labels
set over it. pdfLaTeX sets no Arabic or Hebrew without extra fonts, so no spec here asks for it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from benchmarks.suites.pdf_structure import figures
from benchmarks.suites.pdf_structure.spec import Block, DocSpec, Figure, Heading, ListBlock, Paragraph, Table

FONTS = (
    "",
    r"\usepackage{times}",
    r"\usepackage{charter}",
    r"\usepackage[scaled]{helvet}\renewcommand{\familydefault}{\sfdefault}",
)
SECTION = {1: "section", 2: "subsection", 3: "subsubsection"}
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\^{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\~{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def latex_of(spec: DocSpec, font: str, assets: Path) -> str:
    if spec.layout == "spread":
        return spread_latex(spec, font, assets)
    twocolumn = spec.layout == "twocolumn"
    foot = _e(spec.footer).replace(r"\{page\}", r"\thepage{}")
    parts = [
        preamble(font, "a4paper,margin=22mm", "twocolumn" if twocolumn else ""),
        r"\pagestyle{fancy}\fancyhf{}\renewcommand{\headrulewidth}{0pt}",
        rf"\chead{{\small {_e(spec.running_head)}}}\cfoot{{\small {foot}}}",
        r"\begin{document}",
    ]
    title = rf"{{\centering\LARGE\bfseries {_e(spec.title)}\par}}\vspace{{1.2em}}"
    parts.append(rf"\twocolumn[{title}]" if twocolumn else title)
    for section in spec.sections:
        body = "\n\n".join(block_latex(b, assets, section.columns) for b in section.blocks)
        if section.columns > 1 and not twocolumn:
            body = f"\\begin{{multicols}}{{{section.columns}}}\n{body}\n\\end{{multicols}}"
        parts.append(body)
    parts.append(r"\end{document}")
    return "\n\n".join(parts) + "\n"


def preamble(font: str, geometry: str, options: str) -> str:
    return "\n".join(
        [
            rf"\documentclass[10pt,{options}]{{article}}" if options else r"\documentclass[10pt]{article}",
            rf"\usepackage[{geometry}]{{geometry}}",
            font,
            r"\usepackage{multicol,booktabs,longtable,graphicx,fancyhdr}",
            r"\renewcommand{\thefootnote}{\fnsymbol{footnote}}\setlength{\LTleft}{0pt}",
            r"\setlength{\parskip}{3pt}\setlength{\multicolsep}{6pt}",
        ]
    )


def spread_latex(spec: DocSpec, font: str, assets: Path) -> str:
    """Two facing pages on one 420 × 297 mm sheet, each with its own running head and folio."""
    halves = []
    for n, section in enumerate(spec.sections):
        body = "\n\n".join(block_latex(b, assets, 2) for b in section.blocks)
        halves.append(
            rf"\begin{{minipage}}[t][257mm][t]{{170mm}}{{\centering\small {_e(spec.running_head)}\par}}"
            f"\\vspace{{12mm}}\n{body}\n\\vfill{{\\centering\\small {spec.first_folio + n}\\par}}\\end{{minipage}}"
        )
    return (
        "\n\n".join(
            [
                preamble(font, "paperwidth=420mm,paperheight=297mm,margin=20mm", ""),
                r"\pagestyle{empty}\begin{document}\noindent",
                r"\hspace{40mm}".join(halves),
                r"\end{document}",
            ]
        )
        + "\n"
    )


def block_latex(block: Block, assets: Path, columns: int) -> str:
    if isinstance(block, Heading):
        return rf"\{SECTION[block.level]}*{{{_e(block.shown)}}}"
    if isinstance(block, Paragraph):
        note = rf"\footnote{{{_e(block.note.text)}}}" if block.note else ""
        return _e(block.text) + note
    if isinstance(block, ListBlock):
        env = "enumerate" if block.ordered else "itemize"
        items = "\n".join(rf"\item {_e(item)}" for item in block.items)
        return f"\\begin{{{env}}}\n{items}\n\\end{{{env}}}"
    if isinstance(block, Table):
        return table_latex(block)
    return figure_latex(block, assets, columns)


def table_latex(table: Table) -> str:
    n = len(table.rows[0])
    spec = {"ruled": "|" + "l|" * n, "inner": "|".join("l" * n), "booktabs": "l" * n, "unruled": "l" * n}[table.style]
    top, mid, bottom, between = {
        "ruled": (r"\hline", r"\hline", r"\hline", r"\hline"),
        "booktabs": (r"\toprule", r"\midrule", r"\bottomrule", ""),
        "inner": ("", r"\hline", "", r"\hline"),
        "unruled": ("", "", "", ""),
    }[table.style]
    header = " & ".join(rf"\textbf{{{_e(c)}}}" for c in table.rows[0]) + r" \\" + mid
    rows = [" & ".join(_e(c) for c in row) + r" \\" for row in table.rows[1:]]
    body = f"{between}\n".join(rows) + bottom
    env = "longtable" if table.long else "tabular"
    caption = rf"\noindent{{\small\itshape {_e(table.caption)}\par}}\nobreak\smallskip"
    lead = "" if table.long else r"\noindent"
    return f"{caption}\n{lead}\\begin{{{env}}}{{{spec}}}{top}\n{header}\n{body}\n\\end{{{env}}}\\par\\smallskip"


def figure_latex(fig: Figure, assets: Path, columns: int) -> str:
    width_pt = {1: 300.0, 2: 220.0, 3: 140.0}[columns]
    unit = width_pt / figures.WIDTH
    h = figures.HEIGHT
    bs = figures.boxes(fig.labels)
    puts = []
    if fig.kind == "image":
        png = assets / (fig.caption.split(":")[0].replace(" ", "-").lower() + ".png")  # figure-2.png
        png.write_bytes(figures.raster_png(fig.labels))
        puts.append(rf"\put(0,0){{\includegraphics[width={width_pt:.1f}pt]{{{png.name}}}}}")
    for b in bs:
        if fig.kind == "vector":
            puts.append(rf"\put({b.x:.1f},{h - b.y - b.h:.1f}){{\framebox({b.w:.1f},{b.h:.1f}){{}}}}")
        puts.append(
            rf"\put({b.x + b.w / 2:.1f},{h - b.y - b.h / 2:.1f}){{\makebox(0,0){{\sffamily\scriptsize {_e(b.label)}}}}}"
        )
    if fig.kind == "vector":
        for x0, y0, x1, y1 in figures.arrows(bs):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            puts.append(rf"\qbezier({x0:.1f},{h - y0:.1f})({mx:.1f},{h - my:.1f})({x1:.1f},{h - y1:.1f})")
    picture = "\n".join(puts)
    return (
        rf"\par\medskip\noindent\setlength{{\unitlength}}{{{unit:.4f}pt}}\begin{{picture}}({figures.WIDTH:.0f},{h:.0f})"
        f"\n{picture}\n\\end{{picture}}\\par\\smallskip\\noindent{{\\small {_e(fig.caption)}\\par}}\\medskip"
    )


def _e(text: str) -> str:
    """Escape TeX's specials; straight double quotes become `` and '' in turn."""
    text = "".join(_SPECIAL.get(c, c) for c in text)
    out, opening = [], True
    for piece in re.split(r'(")', text):
        if piece == '"':
            out.append("``" if opening else "''")
            opening = not opening
        else:
            out.append(piece)
    return "".join(out)


def render(spec: DocSpec, out_pdf: Path, font_index: int) -> None:
    """pdflatex in a work folder next to the PDF; one pass (nothing refers forward)."""
    work = out_pdf.with_suffix("")
    work.mkdir(parents=True, exist_ok=True)
    src = work / "doc.tex"
    src.write_text(latex_of(spec, FONTS[font_index % len(FONTS)], work), encoding="utf-8")
    cmd = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"pdflatex failed on {spec.id}: {done.stdout[-1200:]}")
    shutil.copyfile(work / "doc.pdf", out_pdf)
