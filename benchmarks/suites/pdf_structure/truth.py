"""The truth of a generated document, from its spec alone (the PDF gives only its page count).

Body text in reading order is the spec's blocks in order: title, headings as printed (with their
numbers), paragraphs, list items with their "1." markers, table captions and cells row by row,
figure captions. Footnotes are body text whose place on the page the engine chooses: they are
listed apart ("floating") and kept out of the order comparison. Figure labels and page furniture
are not body text at all.
"""

from __future__ import annotations

from typing import Any

from benchmarks.suites.pdf_structure.spec import DocSpec, Figure, Heading, ListBlock, Paragraph, Table
from benchmarks.suites.pdf_structure.textnorm import words

SCHEMA = "parsegate.pdf_truth/1"


def truth_of(spec: DocSpec, pages: int) -> dict[str, Any]:
    blocks = body_blocks(spec)
    return {
        "schema": SCHEMA,
        "id": spec.id,
        "engine": spec.engine,
        "layout": spec.layout,
        "pages": pages,
        "blocks": blocks,
        "words": [w for b in blocks for w in words(b["text"])],
        "floating": footnotes(spec),
        "headings": headings(spec),
        "tables": tables(spec),
        "figure_labels": [label for b in spec.blocks() if isinstance(b, Figure) for label in b.labels],
        "furniture": furniture(spec, pages),
    }


def body_blocks(spec: DocSpec) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if spec.layout != "spread":
        out.append({"kind": "title", "text": spec.title})
    for block in spec.blocks():
        if isinstance(block, Heading):
            out.append({"kind": "heading", "text": block.shown, "level": block.level})
        elif isinstance(block, Paragraph):
            out.append({"kind": "paragraph", "text": block.text, "lang": block.lang})
        elif isinstance(block, ListBlock):
            out += [{"kind": "list_item", "text": item} for item in block.shown()]
        elif isinstance(block, Table):
            out.append({"kind": "caption", "text": block.caption})
            out += [{"kind": "table_row", "text": " ".join(row)} for row in block.rows]
        elif isinstance(block, Figure):
            out.append({"kind": "caption", "text": block.caption})
    return out


def footnotes(spec: DocSpec) -> list[str]:
    return [b.note.text for b in spec.blocks() if isinstance(b, Paragraph) and b.note]


def headings(spec: DocSpec) -> list[dict[str, Any]]:
    """Title at level 0, sections at 1-3; the section number apart from the text."""
    out = [{"text": spec.title, "level": 0, "number": ""}] if spec.layout != "spread" else []
    out += [{"text": b.text, "level": b.level, "number": b.number} for b in spec.blocks() if isinstance(b, Heading)]
    return out


def tables(spec: DocSpec) -> list[dict[str, Any]]:
    return [{"style": b.style, "long": b.long, "rows": b.rows} for b in spec.blocks() if isinstance(b, Table)]


def furniture(spec: DocSpec, pages: int) -> list[str]:
    """Every running header and footer string, once per page it is printed on."""
    if spec.layout == "spread":
        return [spec.running_head, spec.running_head, str(spec.first_folio), str(spec.first_folio + 1)]
    out = []
    for page in range(1, pages + 1):
        out += [spec.running_head, spec.footer.format(page=page, pages=pages)]
    return out
