"""Word's list numbers are in the text of the paragraphs that show them, counted as Word counts
them: multi-level labels ("2.3.1."), letters and roman numerals, a restart where a list instance
overrides its start, continued numbering across instances of one definition, numbering from a
paragraph's style; bullets and numbered headings keep their text (issue 36: "2.3.8.1. First
sub-item" read as "First sub-item", and "repeat step 3" had no step 3)."""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsegate.parsers import office
from parsegate.parsers.office.numbering import formatted, numbers_written_in

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
NUMBERING = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering {W}>
<w:abstractNum w:abstractNumId="0">
  <w:lvl w:ilvl="0"><w:start w:val="2"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2."/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1.%2.%3)"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="1">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="2">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="2"/></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="2"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
</w:numbering>"""
# (numId, ilvl, text); numId None: a plain paragraph; "style": numbered by its style (StepStyle)
PARAGRAPHS = [
    (None, None, "The steps, in the order they are taken."),
    ("1", "0", "Prepare the site"),
    ("1", "1", "Clear the ground"),
    ("1", "2", "Remove the stones"),
    ("1", "2", "Level the soil"),
    ("1", "1", "Mark the corners"),
    ("2", "0", "a bullet between"),
    ("3", "0", "Build the walls"),  # another instance of definition 0: Word continues it
    ("4", "0", "Inspect"),
    ("4", "0", "Sign off"),
    ("5", "0", "Start again"),  # its instance overrides the start: I. again
    ("style", None, "Repeat step 3 until the soil is level"),
]
EXPECTED = [
    "2. Prepare the site",
    "2.1. Clear the ground",
    "2.1.a) Remove the stones",
    "2.1.b) Level the soil",
    "2.2. Mark the corners",
    "a bullet between",
    "3. Build the walls",
    "I. Inspect",
    "II. Sign off",
    "I. Start again",
    "4. Repeat step 3 until the soil is level",
]


def _paragraph(num_id: str | None, ilvl: str | None, text: str) -> str:
    if num_id is None:
        ppr = ""
    elif num_id == "style":
        ppr = '<w:pPr><w:pStyle w:val="StepStyle"/></w:pPr>'
    else:
        ppr = f'<w:pPr><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr></w:pPr>'
    return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"


def make_docx() -> bytes:
    docx = pytest.importorskip("docx")
    out = io.BytesIO()
    docx.Document().save(out)
    source = zipfile.ZipFile(io.BytesIO(out.getvalue()))
    body = "".join(_paragraph(*p) for p in PARAGRAPHS)
    document = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W}><w:body>{body}</w:body></w:document>'
    )
    styles = source.read("word/styles.xml").replace(
        b"</w:styles>",
        b'<w:style w:type="paragraph" w:styleId="StepBase"><w:name w:val="Step Base"/><w:pPr><w:numPr>'
        b'<w:numId w:val="1"/></w:numPr></w:pPr></w:style><w:style w:type="paragraph" w:styleId="StepStyle">'
        b'<w:name w:val="Step"/><w:basedOn w:val="StepBase"/></w:style></w:styles>',
    )
    replaced = {
        "word/document.xml": document.encode(),
        "word/numbering.xml": NUMBERING.encode(),
        "word/styles.xml": styles,
    }
    new = io.BytesIO()
    with zipfile.ZipFile(new, "w") as z:
        for info in source.infolist():
            z.writestr(info, replaced.get(info.filename) or source.read(info.filename))
    return new.getvalue()


def test_numbered_paragraphs_carry_the_labels_word_shows() -> None:
    doc = office.parse(make_docx(), "steps.docx")
    items = [doc.text[e.start : e.end] for e in doc.elements if e.kind in ("list_item", "paragraph")]
    assert items == ["The steps, in the order they are taken.", *EXPECTED]


def test_a_package_that_numbers_nothing_is_returned_as_it_is() -> None:
    docx = pytest.importorskip("docx")
    out = io.BytesIO()
    d = docx.Document()
    d.add_paragraph("No list here.")
    d.save(out)
    data = out.getvalue()
    assert numbers_written_in(data) is data
    assert numbers_written_in(b"not a zip") == b"not a zip"


@pytest.mark.parametrize(
    ("n", "fmt", "text"),
    [(1, "lowerLetter", "a"), (27, "lowerLetter", "aa"), (28, "upperLetter", "BB"), (4, "lowerRoman", "iv"),
     (1994, "upperRoman", "MCMXCIV"), (7, "decimalZero", "07"), (12, "decimal", "12"), (3, "ordinalText", "3")],
)  # fmt: skip
def test_number_formats(n: int, fmt: str, text: str) -> None:
    assert formatted(n, fmt) == text


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_no_input_raises(data: bytes) -> None:
    assert isinstance(numbers_written_in(data), bytes)
