"""A task list's state is what its items say: a checked box reads "[x] ", an empty one "[ ] "
(HTML's checkbox inputs, Word's content-control checkboxes read by docling), where before both
read as the bare item and "done" could not be told from "to do" (issue 36)."""

from __future__ import annotations

import io

import pytest

from parsegate.parsers import office
from parsegate.parsers.model import Document

W = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"'
)


def items(doc: Document) -> list[str]:
    return [doc.text[e.start : e.end] for e in doc.elements if e.kind == "list_item"]


def test_html_checkboxes_say_their_state() -> None:
    page = (
        "<html><body><main><p>Tick each step as it is done; the launch waits for every box.</p><ul>"
        "<li><input type='checkbox' checked> Design</li><li><input type='checkbox'> <b>Build</b></li>"
        "</ul></main></body></html>"
    )
    doc = office.parse(page.encode(), "tasks.html")
    assert items(doc) == ["[x] Design", "[ ] Build"]
    (build,) = [e for e in doc.elements if doc.text[e.start : e.end] == "[ ] Build"]
    assert [doc.text[s["start"] : s["end"]] for s in build.data.inline] == ["Build"]  # type: ignore[union-attr]


def test_word_checkboxes_say_their_state() -> None:
    docx = pytest.importorskip("docx")
    from docx.oxml import parse_xml

    d = docx.Document()
    d.add_paragraph("Tick each step as it is done; the launch waits for every box.")
    for checked, words in ((1, "Design"), (0, "Build")):
        p = d.add_paragraph()
        p._p.append(
            parse_xml(
                f'<w:sdt {W}><w:sdtPr><w14:checkbox><w14:checked w14:val="{checked}"/></w14:checkbox>'
                f"</w:sdtPr><w:sdtContent><w:r><w:t>{'☒' if checked else '☐'}</w:t></w:r></w:sdtContent></w:sdt>"
            )
        )
        p.add_run(f" {words}")
    out = io.BytesIO()
    d.save(out)
    assert items(office.parse(out.getvalue(), "tasks.docx")) == ["[x] Design", "[ ] Build"]
