"""Spec → DOCX (python-docx) → PDF through LibreOffice (``soffice --headless --convert-to pdf``).

Everything is a real Word construct, so Writer lays it out itself: header and footer parts with
PAGE / NUMPAGES fields, continuous sections with 1-3 columns, Title and Heading styles, list styles
(each ordered list restarts at 1 through its own numbering instance), tables whose borders are set
per style, footnotes in a footnotes part with their own marks, figures as floating DrawingML shapes
with text boxes (over a picture, or as the drawing itself), right-to-left paragraphs with w:bidi.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import docx
from docx.enum.section import WD_SECTION
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.shared import Mm, Pt

from benchmarks.suites.pdf_structure import figures
from benchmarks.suites.pdf_structure.spec import DocSpec, Figure, Heading, ListBlock, Paragraph, Section, Table

FONTS = ("Liberation Serif", "DejaVu Serif", "Liberation Sans", "DejaVu Sans")
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = (
    f'xmlns:w="{W}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
)
EMU_PER_PT = 12700
TEXT_WIDTH_MM, GAP_MM = 170, 7  # A4 less 20 mm margins; the gap between columns
BORDERS = {  # which table borders each style draws (tblBorders element names)
    "ruled": ("top", "left", "bottom", "right", "insideH", "insideV"),
    "booktabs": ("top", "bottom"),  # plus a rule under the header row, set on its cells
    "inner": ("insideH", "insideV"),
    "unruled": (),
}


def docx_of(spec: DocSpec, font: str) -> docx.Document:
    doc = docx.Document()
    setup_page(doc, spec, font)
    notes = Footnotes(doc)
    title = doc.add_paragraph(spec.title, style="Title")
    title.alignment = WD_ALIGN_PARAGRAPH.CENTER
    for section in spec.sections:
        if section.columns != _columns(doc):
            doc.add_section(WD_SECTION.CONTINUOUS)
            _set_columns(doc, section.columns)
        add_section(doc, section, notes)
    notes.save()
    return doc


def setup_page(doc: docx.Document, spec: DocSpec, font: str) -> None:
    normal = doc.styles["Normal"]
    normal.font.name = font
    normal.font.size = Pt(10.5)
    normal.element.rPr.rFonts.set(f"{{{W}}}cs", "DejaVu Sans")  # Arabic and Hebrew runs
    normal.paragraph_format.space_after = Pt(5)
    for name in ("Title", "Heading 1", "Heading 2", "Heading 3"):
        doc.styles[name].font.name = "Liberation Sans"
    sec = doc.sections[0]
    sec.page_width, sec.page_height = Mm(210), Mm(297)
    sec.left_margin = sec.right_margin = Mm(20)
    sec.top_margin = sec.bottom_margin = Mm(25)
    head = sec.header.paragraphs[0]
    head.text = spec.running_head
    head.alignment = WD_ALIGN_PARAGRAPH.CENTER
    foot = sec.footer.paragraphs[0]
    foot.alignment = WD_ALIGN_PARAGRAPH.CENTER
    _add_template(foot, spec.footer)


def _add_template(par: docx.text.paragraph.Paragraph, template: str) -> None:
    """'Page {page} of {pages}' → text runs and PAGE / NUMPAGES fields."""
    rest = template
    while rest:
        text, brace, tail = rest.partition("{")
        if text:
            par.add_run(text)
        if not brace:
            break
        name, _, rest = tail.partition("}")
        field = {"page": "PAGE", "pages": "NUMPAGES"}[name]
        par._p.append(parse_xml(f'<w:fldSimple {NS} w:instr=" {field} "><w:r><w:t>1</w:t></w:r></w:fldSimple>'))


def add_section(doc: docx.Document, section: Section, notes: Footnotes) -> None:
    for block in section.blocks:
        if isinstance(block, Heading):
            doc.add_paragraph(block.shown, style=f"Heading {block.level}")
        elif isinstance(block, Paragraph):
            add_paragraph(doc, block, notes)
        elif isinstance(block, ListBlock):
            add_list(doc, block)
        elif isinstance(block, Table):
            add_table(doc, block, section.columns)
        elif isinstance(block, Figure):
            add_figure(doc, block, section.columns)


def add_paragraph(doc: docx.Document, block: Paragraph, notes: Footnotes) -> None:
    par = doc.add_paragraph()
    run = par.add_run(block.text)
    if block.lang != "en":
        par._p.get_or_add_pPr().append(parse_xml(f"<w:bidi {NS}/>"))
        par.alignment = WD_ALIGN_PARAGRAPH.RIGHT  # with w:bidi, "right" is the start: Writer's choice
        run._r.get_or_add_rPr().append(parse_xml(f"<w:rtl {NS}/>"))
    if block.note:
        notes.add(par, block.note.mark, block.note.text)


def add_list(doc: docx.Document, block: ListBlock) -> None:
    style = "List Number" if block.ordered else "List Bullet"
    num_id = _restarted_numbering(doc, style) if block.ordered else None
    for item in block.items:
        par = doc.add_paragraph(item, style=style)
        if num_id is not None:
            par._p.get_or_add_pPr().append(
                parse_xml(f'<w:numPr {NS}><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>')
            )


def _restarted_numbering(doc: docx.Document, style: str) -> int:
    """A new numbering instance of the style's list that starts again at 1."""
    numbering = doc.part.numbering_part.element
    style_num = doc.styles[style].element.pPr.numPr.numId.val
    abstract = next(n for n in numbering.num_lst if n.numId == style_num).abstractNumId.val
    num = numbering.add_num(abstract)
    num.append(parse_xml(f'<w:lvlOverride {NS} w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>'))
    return int(num.numId)


def add_table(doc: docx.Document, block: Table, columns: int) -> None:
    cap = doc.add_paragraph()
    cap.add_run(block.caption).italic = True
    table = doc.add_table(rows=len(block.rows), cols=len(block.rows[0]))
    table.autofit = False
    width = Mm((TEXT_WIDTH_MM - GAP_MM * (columns - 1)) / columns - 2) // len(block.rows[0])
    for col in table.columns:  # python-docx sizes a table to the page, not to its column
        col.width = width
        for cell in col.cells:
            cell.width = width
    borders = "".join(
        f'<w:{b} w:val="single" w:sz="{12 if b in ("top", "bottom") and block.style == "booktabs" else 4}"/>'
        for b in BORDERS[block.style]
    )
    table._tbl.tblPr.append(parse_xml(f"<w:tblBorders {NS}>{borders}</w:tblBorders>"))
    for r, row in enumerate(block.rows):
        for c, text in enumerate(row):
            cell = table.cell(r, c)
            run = cell.paragraphs[0].add_run(text)
            run.bold, run.font.size = r == 0, Pt(9)
            cell.paragraphs[0].paragraph_format.space_after = Pt(0)
            if r == 0 and block.style == "booktabs":
                cell._tc.get_or_add_tcPr().append(
                    parse_xml(f'<w:tcBorders {NS}><w:bottom w:val="single" w:sz="4"/></w:tcBorders>')
                )
    doc.add_paragraph()  # Writer glues a following table or heading to the table otherwise


def add_figure(doc: docx.Document, fig: Figure, columns: int) -> None:
    """A floating drawing anchored to a paragraph whose exact height reserves its space."""
    width_pt = {1: 300.0, 2: 220.0, 3: 150.0}[columns]
    scale = width_pt / figures.WIDTH
    par = doc.add_paragraph()
    if fig.kind == "image":
        par.add_run().add_picture(io.BytesIO(figures.raster_png(fig.labels)), width=Pt(width_pt))
    else:
        par.paragraph_format.line_spacing = Pt(figures.HEIGHT * scale)
    bs = figures.boxes(fig.labels)
    run = par.add_run()
    for n, b in enumerate(bs):
        box = (b.x * scale, b.y * scale, b.w * scale, b.h * scale)
        if fig.kind == "vector":
            run._r.append(_shape(n + 1, box, "", framed=True))
        # The label's own text box is wider than its box: Writer wraps a word that does not fit.
        wide = (box[0] - box[2] * 0.4, box[1], box[2] * 1.8, box[3])
        run._r.append(_shape(50 + n, wide, b.label, framed=False))
    for n, (x0, y0, x1, y1) in enumerate(figures.arrows(bs)):
        run._r.append(_line(100 + n, (x0 * scale, y0 * scale, x1 * scale, y1 * scale)))
    doc.add_paragraph(fig.caption)


_FRAME = '<a:solidFill><a:srgbClr val="EEEEFF"/></a:solidFill><a:ln w="9525"><a:solidFill><a:srgbClr val="333333"/>'
_FRAME += "</a:solidFill></a:ln>"
_NO_FRAME = "<a:noFill/><a:ln><a:noFill/></a:ln>"
_LABEL = (
    '<wps:txbx><w:txbxContent><w:p><w:pPr><w:jc w:val="center"/><w:spacing w:after="0"/></w:pPr><w:r><w:rPr>'
    '<w:rFonts w:ascii="DejaVu Sans" w:hAnsi="DejaVu Sans"/><w:sz w:val="14"/></w:rPr><w:t>{}</w:t></w:r></w:p>'
    "</w:txbxContent></wps:txbx>"
)
_LINE = '<a:ln w="9525"><a:solidFill><a:srgbClr val="333333"/></a:solidFill></a:ln>'


def _shape(shape_id: int, box: tuple[float, float, float, float], label: str, framed: bool) -> object:
    """A rectangle: framed and filled (a box of the drawing), or invisible around a label's text."""
    x, y, w, h = (round(v * EMU_PER_PT) for v in box)
    text = _LABEL.format(_x(label)) if label else ""
    geometry = f'<a:xfrm><a:off x="0" y="0"/><a:ext cx="{w}" cy="{h}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/>'
    shape = f"<wps:cNvSpPr/><wps:spPr>{geometry}</a:prstGeom>{_FRAME if framed else _NO_FRAME}</wps:spPr>{text}"
    return _anchor(shape_id, (x, y, w, h), shape + '<wps:bodyPr lIns="0" tIns="0" rIns="0" bIns="0" anchor="ctr"/>')


def _line(shape_id: int, seg: tuple[float, float, float, float]) -> object:
    x0, y0, x1, y1 = (round(v * EMU_PER_PT) for v in seg)
    flip = ' flipV="1"' if y1 < y0 else ""
    x, y, w, h = min(x0, x1), min(y0, y1), abs(x1 - x0), max(abs(y1 - y0), 1)
    geometry = f'<a:xfrm{flip}><a:off x="0" y="0"/><a:ext cx="{w}" cy="{h}"/></a:xfrm>'
    shape = f'<wps:cNvCnPr/><wps:spPr>{geometry}<a:prstGeom prst="line"><a:avLst/></a:prstGeom>{_LINE}</wps:spPr>'
    return _anchor(shape_id, (x, y, w, h), shape + "<wps:bodyPr/>")


def _anchor(shape_id: int, box: tuple[int, int, int, int], shape: str) -> object:
    """A shape floating over the text, placed from its column's left edge and its paragraph's top (EMU)."""
    x, y, w, h = box
    return parse_xml(
        f'<w:drawing {NS}><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="{shape_id}" '
        'behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
        f'<wp:positionH relativeFrom="column"><wp:posOffset>{x}</wp:posOffset></wp:positionH>'
        f'<wp:positionV relativeFrom="paragraph"><wp:posOffset>{y}</wp:posOffset></wp:positionV>'
        f'<wp:extent cx="{w}" cy="{h}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/>'
        f'<wp:docPr id="{shape_id}" name="Shape {shape_id}"/><wp:cNvGraphicFramePr/><a:graphic><a:graphicData '
        f'uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp>{shape}</wps:wsp>'
        "</a:graphicData></a:graphic></wp:anchor></w:drawing>"
    )


class Footnotes:
    """A footnotes part (python-docx has none): separators first, then one footnote per mark."""

    def __init__(self, doc: docx.Document) -> None:
        self.doc = doc
        self.notes: list[str] = []

    def add(self, par: docx.text.paragraph.Paragraph, mark: str, text: str) -> None:
        note_id = len(self.notes) + 1
        sup = '<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
        par._p.append(
            parse_xml(
                f'<w:r {NS}>{sup}<w:footnoteReference w:customMarkFollows="1" w:id="{note_id}"/>'
                f"<w:t>{_x(mark)}</w:t></w:r>"
            )
        )
        self.notes.append(
            # Writer prints the custom mark in the note area itself: the note holds only its text.
            f'<w:footnote w:id="{note_id}"><w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:rPr><w:sz w:val="16"/>'
            f'</w:rPr><w:t xml:space="preserve"> {_x(text)}</w:t></w:r></w:p></w:footnote>'
        )

    def save(self) -> None:
        if not self.notes:
            return
        separators = (
            '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
            '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/>'
            "</w:r></w:p></w:footnote>"
        )
        notes = "".join(self.notes)
        xml = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes {NS}>{separators}{notes}'
        xml += "</w:footnotes>"
        part = Part(
            PackURI("/word/footnotes.xml"),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
            xml.encode(),
            self.doc.part.package,
        )
        self.doc.part.relate_to(part, RT.FOOTNOTES)


def _columns(doc: docx.Document) -> int:
    cols = doc.sections[-1]._sectPr.find(f"{{{W}}}cols")
    return int(cols.get(f"{{{W}}}num", "1")) if cols is not None else 1


def _set_columns(doc: docx.Document, n: int) -> None:
    sect = doc.sections[-1]._sectPr
    for old in sect.findall(f"{{{W}}}cols"):
        sect.remove(old)
    sect.append(parse_xml(f'<w:cols {NS} w:num="{n}" w:space="{int(Mm(GAP_MM).pt * 20)}"/>'))


def _x(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_all(specs: list[DocSpec], out_dir: Path) -> None:
    """Write every DOCX, then convert them all in one soffice process (start-up dominates)."""
    sources = []
    for n, spec in enumerate(specs):
        path = out_dir / f"{spec.id}.docx"
        docx_of(spec, FONTS[n % len(FONTS)]).save(str(path))
        sources.append(str(path))
    profile = Path(tempfile.mkdtemp(prefix="pdfbench-soffice-"))
    try:
        cmd = [
            "soffice",
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out_dir),
            *sources,
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    missing = [s for s in sources if not Path(s).with_suffix(".pdf").exists()]
    if done.returncode != 0 or missing:
        raise RuntimeError(f"soffice failed ({done.returncode}) for {missing}: {done.stderr[-600:]}")
