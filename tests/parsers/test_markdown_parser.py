from __future__ import annotations

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import markdown
from parsegate.parsers.model import ParseError


def kinds(doc):
    return [(e.kind, doc.text[e.start : e.end]) for e in doc.elements]


def test_offsets_point_into_the_file_with_crlf_and_tabs() -> None:
    source = b"# Title\r\n\r\nFirst\tline\r\nsecond line\r\n\r\n- item\r\n"
    doc = markdown.parse(source, "x.md")
    assert doc.text == source.decode()
    assert kinds(doc) == [
        ("heading", "# Title"),
        ("paragraph", "First\tline\r\nsecond line"),
        ("list", "- item"),
        ("list_item", "- item"),
    ]
    paragraph = doc.elements[1]
    assert (paragraph.start, paragraph.end, paragraph.lines) == (11, 34, (3, 4))


def test_bom_is_dropped_and_everything_else_kept() -> None:
    doc = markdown.parse("\ufeffHello  \n".encode(), "x.md")
    assert doc.text == "Hello  \n"


def test_headings_levels_and_section_paths() -> None:
    doc = markdown.parse(b"# A\n\n## B { #b-anchor }\n\ntext\n\nC\n-\n\nmore\n\n# D\n\nend\n", "x.md")
    headings = [(e.level, e.section_path) for e in doc.elements if e.kind == "heading"]
    assert headings == [(1, ("A",)), (2, ("A", "B")), (2, ("A", "C")), (1, ("D",))]
    paragraphs = [e.section_path for e in doc.elements if e.kind == "paragraph"]
    assert paragraphs == [("A", "B"), ("A", "C"), ("D",)]
    assert "title" not in doc.metadata  # two level-1 headings: A does not title D's part


def test_nested_list_items_own_their_lines_and_point_to_parents() -> None:
    source = b"Steps:\n\n1. one\n   - one.a\n   - one.b\n2. two\n"
    doc = markdown.parse(source, "x.md")
    items = [e for e in doc.elements if e.kind == "list_item"]
    assert [doc.text[e.start : e.end] for e in items] == ["1. one", "- one.a", "- one.b", "2. two"]
    by_id = doc.by_id()
    top = by_id[items[0].parent]
    assert top.kind == "list" and top.data.lead_in == doc.elements[0].id
    assert by_id[by_id[items[1].parent].parent] is items[0]
    assert [e.level for e in items] == [1, 2, 2, 1]


def test_table_header_rows_and_cells() -> None:
    source = b"| Severity | Ack |\n|---|---|\n| P1 | 15 min |\n| P2 | 1 h |\n"
    doc = markdown.parse(source, "x.md")
    table = doc.elements[0]
    assert table.kind == "table"
    assert table.data.header == ["Severity", "Ack"]
    assert table.data.header_text == "| Severity | Ack |"
    rows = [e for e in doc.elements if e.kind == "table_row"]
    # The delimiter row opens the first body row, which carries the header as context.
    assert [doc.text[r.start : r.end] for r in rows] == [
        "| Severity | Ack |",
        "|---|---|\n| P1 | 15 min |",
        "| P2 | 1 h |",
    ]
    assert [r.data.header for r in rows] == [True, False, False]
    assert rows[2].data.cells == ["P2", "1 h"]


def test_a_header_row_too_wide_to_share_a_chunk_never_leaves_its_delimiter_row_headerless() -> None:
    """Issue 14: a 13-column table was cut between its header row and its delimiter row, and
    the piece that began with the delimiter had no header in its embed_text."""
    columns = [f"Column {i} " + " ".join(["word"] * 12) for i in range(13)]
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join([":---"] * 13) + " |"]
    lines += ["| " + " | ".join(f"v{r}{c}" for c in range(13)) + " |" for r in range(5)]
    doc = markdown.parse(("# Wide\n\nA table:\n\n" + "\n".join(lines) + "\n").encode(), "wide.md")
    chunks = Chunker(ChunkConfig(max_tokens=256)).chunk(doc)
    assert len(chunks) >= 2
    for chunk in chunks:
        assert "Column 0 word" in chunk.embed_text, chunk.text[:40]
    delimiter = next(c for c in chunks if ":---" in c.text)
    assert delimiter.text.startswith("| :---") and delimiter.embed_text.startswith("| Column 0 word")


def test_code_in_a_list_item_is_a_code_unit() -> None:
    """Issue 14: a fence inside a list item was split as prose ("Steps:\n\n1.", then code cut
    mid-line); it is a code element of the item, split at its definitions."""
    source = (
        b"# Install\n\nSteps:\n\n1. Install the package:\n\n   ```python\n   import subprocess\n"
        b'   def install(name):\n       subprocess.run(["pip", "install", name], check=True)\n'
        b'       print("installed", name)\n   def remove(name):\n'
        b'       subprocess.run(["pip", "uninstall", "-y", name], check=True)\n'
        b'       print("removed", name)\n   ```\n\n   Then check it works.\n\n2. Run it.\n'
    )
    doc = markdown.parse(source, "steps.md")
    kinds = [(e.kind, doc.text[e.start : e.end].split("\n")[0]) for e in doc.elements]
    assert kinds[3:] == [
        ("list_item", "1. Install the package:"),
        ("code", "```python"),
        ("paragraph", "Then check it works."),
        ("list_item", "2. Run it."),
    ]
    item, fence = doc.elements[3], doc.elements[4]
    assert fence.parent == item.id and fence.data.lead_in == item.id and len(fence.data.parts) == 2
    for chunk in Chunker(ChunkConfig(max_tokens=64)).chunk(doc):
        if "code" in chunk.kinds:  # every code piece ends at a line end, never mid-statement
            assert chunk.text.endswith((")", "```", "works.", "it.")), chunk.text[-30:]
    first = Chunker(ChunkConfig(max_tokens=64)).chunk(doc)[0]
    assert first.text.startswith("# Install\n\nSteps:\n\n1. Install the package:\n\n   ```python")


def test_code_blockquote_html_and_front_matter() -> None:
    source = b"---\ntitle: T\ndate: 2026-01-02\n---\n\n```py title=x\nx = 1\n```\n\n> quoted\n> text\n\n<div>hi</div>\n"
    doc = markdown.parse(source, "x.md")
    assert doc.metadata == {"title": "T", "date": "2026-01-02"}
    assert [e.kind for e in doc.elements] == ["front_matter", "code", "blockquote", "paragraph", "html"]
    code = doc.elements[1]
    assert code.data.to_json() == {"language": "python", "info": "py title=x"}  # the info string names the language
    quote, para = doc.elements[2], doc.elements[3]
    assert para.parent == quote.id and doc.text[para.start : para.end] == "> quoted\n> text"


def test_invalid_front_matter_is_a_warning_not_a_failure() -> None:
    doc = markdown.parse(b"---\n: [unclosed\n---\n\nBody.\n", "x.md")
    assert [w.code for w in doc.warnings] == ["front_matter"]
    assert doc.elements[-1].kind == "paragraph"


def test_text_no_rule_claims_is_recovered() -> None:
    doc = markdown.parse(b"[ref]: https://example.com\n\nPara.\n", "x.md")
    assert kinds(doc) == [("paragraph", "[ref]: https://example.com"), ("paragraph", "Para.")]
    assert doc.elements[0].data.to_json() == {"recovered": True}


def test_empty_document_warns() -> None:
    doc = markdown.parse(b"", "x.md")
    assert doc.elements == [] and [w.code for w in doc.warnings] == ["empty"]


def test_binary_is_refused_with_a_reason_and_latin_1_is_read_with_a_warning() -> None:
    try:
        markdown.parse(b"# hi\x00\x01\x02", "x.md")
    except ParseError as exc:
        assert exc.code == "binary" and "NUL byte at offset 4" in exc.message
    else:
        raise AssertionError("expected a ParseError")
    # Not UTF-8: read as Windows-1252, as a browser reads a page that names no encoding.
    doc = markdown.parse(b"# Caf\xe9\n\nCaf\xe9 au lait, cr\xe8me br\xfbl\xe9e.\n", "x.md")
    assert doc.text == "# Café\n\nCafé au lait, crème brûlée.\n"
    assert [(w.code, w.message) for w in doc.warnings] == [
        (
            "not_utf8",
            "not valid UTF-8 (byte 0xe9 at offset 5): read as Windows-1252, as browsers read a page that names no"
            " encoding; re-save it as UTF-8 to be sure",
        )
    ]
    # Cyrillic or Japanese in a legacy encoding: read in the encoding chardet detects
    # (tests/parsers/test_legacy_encodings.py); a binary header that is no text in any encoding: refused.
    assert markdown.parse("Это русский текст о сертификатах.".encode("koi8-r"), "z.md").text == (
        "Это русский текст о сертификатах."
    )
    with pytest.raises(ParseError) as refused:
        markdown.parse(b"\xff\xd8\xff\xe0\x10JFIF header", "z.md")
    assert refused.value.code == "invalid_utf8" and "re-save the file as UTF-8" in refused.value.message
    # Mostly UTF-8 with a broken byte (a cut download): UTF-8, the byte replaced.
    cut = markdown.parse("Größe und Höhe der Übergänge.".encode() + b"\xe2\x82", "y.md")
    assert cut.text == "Größe und Höhe der Übergänge.\ufffd" and cut.warnings[0].code == "not_utf8"


def test_a_stray_setext_underline_does_not_make_a_paragraph_a_heading() -> None:
    paragraph = " ".join(f"word{i}" for i in range(100))
    doc = markdown.parse(f"# Report\n\n{paragraph}\n===\n\nNext.\n".encode(), "s.md")
    assert [e.kind for e in doc.elements] == ["heading", "paragraph", "paragraph"]
    assert doc.elements[1].section_path == ("Report",) and doc.elements[2].section_path == ("Report",)
    assert doc.metadata["title"] == "Report"
    assert [(w.code, w.location) for w in doc.warnings] == [("suspect_heading", "line 3")]
    assert "100 words" in doc.warnings[0].message


def test_a_hundred_word_atx_heading_is_read_as_a_paragraph() -> None:
    long = " ".join(["clause"] * 100)
    doc = markdown.parse(f"## {long}\n\nBody.\n\n## Real heading\n\nMore.\n".encode(), "h.md")
    assert [(e.kind, e.section_path) for e in doc.elements] == [
        ("paragraph", ()),
        ("paragraph", ()),
        ("heading", ("Real heading",)),
        ("paragraph", ("Real heading",)),
    ]
    assert "title" not in doc.metadata
    assert [w.code for w in doc.warnings] == ["suspect_heading"]


def test_a_multi_sentence_heading_is_suspect_but_a_short_question_is_not() -> None:
    doc = markdown.parse(b"# What is it? Why use it?\n\n# This is a sentence. So is this one and it goes on.\n", "q.md")
    assert [e.kind for e in doc.elements] == ["heading", "paragraph"]


def test_pipe_rows_without_a_delimiter_row_are_a_table() -> None:
    source = "Figures for the year:\nnet sales | 1,234 | 1,100\ncost of sales | 800 | 760\n\nAfter.\n"
    doc = markdown.parse(source.encode(), "f.md")
    assert kinds(doc) == [
        ("paragraph", "Figures for the year:"),
        ("table", "net sales | 1,234 | 1,100\ncost of sales | 800 | 760"),
        ("table_row", "net sales | 1,234 | 1,100"),
        ("table_row", "cost of sales | 800 | 760"),
        ("paragraph", "After."),
    ]
    table = doc.elements[1]
    assert table.data.header_text == "net sales | 1,234 | 1,100"
    assert [e.parent for e in doc.elements[2:4]] == [table.id, table.id]


def test_two_tables_without_a_blank_line_between_them_stay_two_tables() -> None:
    source = "| A | B |\n|---|---|\n| 1 | 2 |\n| Quarter | Revenue |\n|---|---|\n| Q1 | 10 |\n"
    doc = markdown.parse(source.encode(), "t.md")
    tables = [e for e in doc.elements if e.kind == "table"]
    assert [t.data.header_text for t in tables] == ["| A | B |", "| Quarter | Revenue |"]
    q1 = next(e for e in doc.elements if e.kind == "table_row" and doc.text[e.start : e.end].endswith("| Q1 | 10 |"))
    assert q1.parent == tables[1].id


def test_the_first_of_several_top_level_headings_is_not_the_documents_title() -> None:
    """Concatenated documents: the first H1 titles its own part, not the ones after it, so it
    must not ride in the breadcrumb of their chunks."""
    one = markdown.parse(b"# Webhooks\n\nSend events.\n\n## Setup\n\nRegister a URL.\n", "a.md")
    assert one.title == "Webhooks"
    source = b"# Webhooks\n\nSend events.\n\n# Northwind Annual Report\n\nRevenue rose.\n"
    doc = markdown.parse(source, "all.md")
    assert doc.title is None
    chunks = Chunker(ChunkConfig(tokenizer="words", max_tokens=8)).chunk(doc)
    assert [c.embed_text for c in chunks] == [
        "# Webhooks\n\nSend events.",
        "# Northwind Annual Report\n\nRevenue rose.",
    ]
