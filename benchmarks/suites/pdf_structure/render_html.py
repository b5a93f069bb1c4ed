"""Spec → HTML/CSS → PDF through headless Chromium (``--print-to-pdf``).

Furniture is real page furniture: CSS ``@page`` margin boxes with ``counter(page)`` /
``counter(pages)``. Columns are CSS multi-column containers; a table's header row sits in its body
(a ``thead`` would be repeated on every page, which the truth does not hold). Footnotes, which CSS
print cannot place at a page foot, are set as notes in small type at the end of their section.
"""

from __future__ import annotations

import base64
import html
import shutil
import subprocess
import tempfile
from pathlib import Path

from benchmarks.suites.pdf_structure import figures
from benchmarks.suites.pdf_structure.spec import Block, DocSpec, Figure, Heading, ListBlock, Paragraph, Section, Table

FONTS = ('"DejaVu Serif", serif', '"Liberation Serif", serif', '"DejaVu Sans", sans-serif', '"Liberation Sans"')
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-pdf-header-footer",
]

CSS = """
@page { size: A4; margin: 22mm 18mm 24mm 18mm;
  @top-center { content: "%(head)s"; font: 8.5pt sans-serif; color: #333; }
  @bottom-center { content: %(foot)s; font: 8.5pt sans-serif; color: #333; } }
body { font: 10.5pt/1.38 %(font)s; margin: 0; }
h1.title { font: bold 20pt/1.2 sans-serif; text-align: center; margin: 0 0 14pt; }
h2 { font-size: 14pt; margin: 12pt 0 5pt; } h3 { font-size: 12pt; margin: 10pt 0 4pt; }
h4 { font-size: 10.5pt; margin: 8pt 0 3pt; }
p { margin: 0 0 6pt; text-align: justify; } p[dir=rtl] { text-align: right; }
.cols2 { column-count: 2; column-gap: 8mm; } .cols3 { column-count: 3; column-gap: 6mm; }
.cols2 p, .cols3 p { hyphens: auto; }
table { border-collapse: collapse; margin: 4pt 0 10pt; font-size: 9.5pt; }
td, th { padding: 2.5pt 6pt; text-align: left; vertical-align: top; }
.caption { font-size: 9.5pt; font-style: italic; margin: 6pt 0 2pt; }
table.ruled td, table.ruled th { border: 0.6pt solid #000; }
table.booktabs { border-top: 1.2pt solid #000; border-bottom: 1.2pt solid #000; }
table.booktabs th { border-bottom: 0.6pt solid #000; }
table.inner td + td, table.inner th + th { border-left: 0.6pt solid #000; }
table.inner tr + tr td { border-top: 0.6pt solid #000; } table.inner th { border-bottom: 0.6pt solid #000; }
tr { break-inside: avoid; }
figure { margin: 8pt 0; break-inside: avoid; } .fig { position: relative; width: 100%%; }
.fig img, .fig svg { width: 100%%; display: block; }
.fig span { position: absolute; font: 8pt sans-serif; transform: translate(-50%%, -50%%); white-space: nowrap; }
figcaption { font-size: 9.5pt; margin-top: 4pt; }
.notes { font-size: 8pt; border-top: 0.5pt solid #000; margin-top: 6pt; padding-top: 3pt; }
.sheet { display: flex; width: 420mm; height: 297mm; } .half { position: relative; width: 210mm;
  box-sizing: border-box; padding: 24mm 20mm; } .half .hd, .half .ft { position: absolute; left: 20mm; right: 20mm;
  text-align: center; font: 8.5pt sans-serif; } .half .hd { top: 10mm; } .half .ft { bottom: 10mm; }
"""


def html_of(spec: DocSpec, font: str) -> str:
    if spec.layout == "spread":
        return spread_html(spec, font)
    foot = " ".join(_css_content(spec.footer))
    parts = [f"<h1 class=title>{_e(spec.title)}</h1>"]
    parts += [section_html(s) for s in spec.sections]
    return _page(CSS % {"head": _css_str(spec.running_head), "foot": foot, "font": font}, "\n".join(parts))


def spread_html(spec: DocSpec, font: str) -> str:
    css = CSS % {"head": "", "foot": '""', "font": font} + "@page { size: 420mm 297mm; margin: 0; }"
    halves = []
    for n, section in enumerate(spec.sections):
        body = "\n".join(block_html(b) for b in section.blocks)
        halves.append(
            f"<div class=half><div class=hd>{_e(spec.running_head)}</div>{body}"
            f"<div class=ft>{spec.first_folio + n}</div></div>"
        )
    return _page(css, f"<div class=sheet>{''.join(halves)}</div>")


def section_html(section: Section) -> str:
    body = "\n".join(block_html(b) for b in section.blocks)
    notes = [b.note for b in section.blocks if isinstance(b, Paragraph) and b.note]
    if notes:
        body += "<div class=notes>" + "".join(f"<p>{_e(n.mark)} {_e(n.text)}</p>" for n in notes) + "</div>"
    cls = {1: "", 2: " class=cols2", 3: " class=cols3"}[section.columns]
    return f"<div{cls}>{body}</div>"


def block_html(block: Block) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level + 1}>{_e(block.shown)}</h{block.level + 1}>"
    if isinstance(block, Paragraph):
        mark = f"<sup>{_e(block.note.mark)}</sup>" if block.note else ""
        attrs = f' dir=rtl lang="{block.lang}"' if block.lang != "en" else ""
        return f"<p{attrs}>{_e(block.text)}{mark}</p>"
    if isinstance(block, ListBlock):
        tag = "ol" if block.ordered else "ul"
        return f"<{tag}>" + "".join(f"<li>{_e(item)}</li>" for item in block.items) + f"</{tag}>"
    if isinstance(block, Table):
        return table_html(block)
    return figure_html(block)


def table_html(table: Table) -> str:
    header = "".join(f"<th>{_e(c)}</th>" for c in table.rows[0])
    rows = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in table.rows[1:])
    return f"<p class=caption>{_e(table.caption)}</p><table class={table.style}><tr>{header}</tr>{rows}</table>"


def figure_html(fig: Figure) -> str:
    bs = figures.boxes(fig.labels)
    if fig.kind == "image":
        png = base64.b64encode(figures.raster_png(fig.labels)).decode()
        spans = "".join(
            f'<span style="left:{(b.x + b.w / 2) / figures.WIDTH:.2%};top:{(b.y + b.h / 2) / figures.HEIGHT:.2%}">'
            f"{_e(b.label)}</span>"
            for b in bs
        )
        inner = f'<img src="data:image/png;base64,{png}" alt="">{spans}'
    else:
        shapes = "".join(
            f'<rect x="{b.x}" y="{b.y}" width="{b.w}" height="{b.h}" fill="#eef" stroke="#333"/>'
            f'<text x="{b.x + b.w / 2}" y="{b.y + b.h / 2 + 3}" font-size="9" text-anchor="middle" '
            f'font-family="sans-serif">{_e(b.label)}</text>'
            for b in bs
        )
        lines = "".join(
            f'<line x1="{a}" y1="{b}" x2="{c}" y2="{d}" stroke="#333"/>' for a, b, c, d in figures.arrows(bs)
        )
        inner = f'<svg viewBox="0 0 {figures.WIDTH} {figures.HEIGHT}">{shapes}{lines}</svg>'
    return f"<figure><div class=fig>{inner}</div><figcaption>{_e(fig.caption)}</figcaption></figure>"


def _page(css: str, body: str) -> str:
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><style>{css}</style></head><body>{body}</body></html>"
    )


def _css_str(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _css_content(template: str) -> list[str]:
    """'Page {page} of {pages}' → CSS content: "Page " counter(page) " of " counter(pages)."""
    out, rest = [], template
    while rest:
        head, brace, tail = rest.partition("{")
        if head:
            out.append(f'"{_css_str(head)}"')
        if not brace:
            break
        name, _, rest = tail.partition("}")
        out.append(f"counter({name})")
    return out


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def render(spec: DocSpec, out_pdf: Path, font_index: int) -> None:
    """Write the spec's HTML next to the PDF and print it with a fresh Chromium profile."""
    src = out_pdf.with_suffix(".html")
    src.write_text(html_of(spec, FONTS[font_index % len(FONTS)]), encoding="utf-8")
    profile = Path(tempfile.mkdtemp(prefix="pdfbench-chromium-"))
    try:
        cmd = ["chromium", *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={out_pdf}", src.as_uri()]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if done.returncode != 0 or not out_pdf.exists():
        raise RuntimeError(f"chromium failed on {spec.id}: {done.stderr[-600:]}")
