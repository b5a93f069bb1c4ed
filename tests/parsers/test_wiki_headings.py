"""MediaWiki headings in text saved as Markdown or plain text: '= Title =', '== Section ==' and the
spaced '= = Section = =' of wiki dumps (WikiText-103, Chroma's chunking-evaluation corpus) are the
document's headings, and every element below one carries its section path (issue 35)."""

from __future__ import annotations

import pytest

import parsegate

WIKI = (
    " = Plain maskray = \n"
    " The plain maskray is a species of stingray . It is found in shallow waters . \n"
    " = = Biology = = \n"
    " Its diet consists of shrimp and worms . \n"
    " = = = Skaters = = = \n"
    " Note : Pos \n"
    " = Position ; GP = \n"
    " Games played in ; G \n"
    " = Gregorian Tower = \n"
    " The Gregorian Tower is a round tower . \n"
)


@pytest.mark.parametrize("fmt", ["md", "txt"])
def test_wiki_heading_lines_are_headings_with_section_paths(fmt: str) -> None:
    doc = parsegate.parse(text=WIKI, format=fmt)
    headings = [(e.level, doc.text[e.start : e.end]) for e in doc.elements if e.kind == "heading"]
    assert headings == [
        (1, "= Plain maskray ="),
        (2, "= = Biology = ="),
        (3, "= = = Skaters = = ="),
        (1, "= Gregorian Tower ="),
    ]  # "= Position ; GP =" is a legend broken over lines, not a heading
    paths = {doc.text[e.start : e.end][:12]: e.section_path for e in doc.elements if e.kind == "paragraph"}
    assert paths["Its diet con"] == ("Plain maskray", "Biology")
    assert paths["The Gregoria"] == ("Gregorian Tower",)
    assert all(doc.text[e.start : e.end] == doc.text[e.start : e.end].strip() for e in doc.elements)
    assert "title" not in doc.metadata  # two articles: neither is the document's title
    chunks = parsegate.chunk(doc, max_tokens=64)
    diet = next(c for c in chunks if "diet" in c.text)
    assert list(diet.section_path) == ["Plain maskray", "Biology"]
    assert diet.embed_text.startswith("Plain maskray")  # the context prefix names the article


def test_a_markdown_file_with_its_own_headings_and_a_lone_equation_are_left_alone() -> None:
    own = parsegate.parse(text="# Guide\n\nText.\n\n= Not a heading here =\n\n= Nor here =\n", format="md")
    assert [own.text[e.start : e.end] for e in own.elements if e.kind == "heading"] == ["# Guide"]
    lone = parsegate.parse(text="Some text\n= x + y =\nmore text\n", format="txt")
    assert [e.kind for e in lone.elements] == ["paragraph"]
