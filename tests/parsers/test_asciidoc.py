"""The AsciiDoc parser: each block's kind and exact span in the decoded source, what is declared
no body text (header, comments, directives), and hostile input."""

from __future__ import annotations

import pytest

from parsegate.parsers import asciidoc
from parsegate.parsers.model import CodeData, Document, Element, ItemData, RowData, TableData


def parse(source: str) -> Document:
    doc = asciidoc.parse(source.encode("utf-8"), "doc.adoc")
    assert doc.text == source
    return doc


def spans(doc: Document, kind: str) -> list[str]:
    return [doc.text[e.start : e.end] for e in doc.elements if e.kind == kind]


def only(doc: Document, kind: str) -> Element:
    (found,) = [e for e in doc.elements if e.kind == kind]
    return found


def test_header_is_metadata_and_front_matter_never_a_heading() -> None:
    doc = parse("= Guide\nAnn Lee <ann@x.org>\nv1.2\n:product: Widget\n:toc:\n\nBody {product}.\n")
    assert doc.metadata == {
        "title": "Guide",
        "author": "Ann Lee <ann@x.org>",
        "revision": "v1.2",
        "attributes": {"product": "Widget", "toc": ""},
    }
    assert spans(doc, "front_matter") == ["= Guide\nAnn Lee <ann@x.org>\nv1.2\n:product: Widget\n:toc:"]
    assert spans(doc, "heading") == []
    (para,) = [e for e in doc.elements if e.kind == "paragraph"]
    assert (para.start, para.end, para.section_path, para.lines) == (57, 72, ("Guide",), (7, 7))


def test_sections_both_styles_and_their_paths() -> None:
    source = "== One\n\ntext\n\n=== One.A ===\n\nmore\n\nTwo [[two]]\n----------\n\nlast\n"
    doc = parse(source)
    headings = [e for e in doc.elements if e.kind == "heading"]
    assert [(doc.text[h.start : h.end], h.level) for h in headings] == [
        ("== One", 2),
        ("=== One.A ===", 3),
        ("Two [[two]]\n----------", 2),
    ]
    paths = [e.section_path for e in doc.elements if e.kind == "paragraph"]
    assert paths == [("One",), ("One", "One.A"), ("Two",)]


def test_listing_with_its_language_and_title_in_one_code_span() -> None:
    source = "Run:\n\n.Install\n[source,python]\n----\nimport os\n\nprint(os.sep)\n----\n\n....\nliteral\n....\n"
    doc = parse(source)
    code = [e for e in doc.elements if e.kind == "code"]
    assert [doc.text[e.start : e.end] for e in code] == [
        ".Install\n[source,python]\n----\nimport os\n\nprint(os.sep)\n----",
        "....\nliteral\n....",
    ]
    assert isinstance(code[0].data, CodeData) and code[0].data.language == "python"
    assert code[0].data.info == "[source,python]"
    assert isinstance(code[1].data, CodeData) and code[1].data.language is None


def test_table_with_header_option_carries_its_header() -> None:
    source = '.Prices\n[cols="1,1",options="header"]\n|===\n|Item |Price\n|Apple |1.00\n|Pear\n|2.00\n|===\n'
    doc = parse(source)
    table = only(doc, "table")
    assert isinstance(table.data, TableData)
    assert (table.data.header, table.data.header_text, table.data.rows) == (["Item", "Price"], "|Item |Price", 2)
    assert table.data.caption == "Prices"
    rows = [e for e in doc.elements if e.kind == "table_row"]
    # the first row starts at the table's title, the last ends at its closing delimiter
    assert [doc.text[r.start : r.end] for r in rows] == [
        '.Prices\n[cols="1,1",options="header"]\n|===\n|Item |Price',
        "|Apple |1.00",
        "|Pear\n|2.00\n|===",
    ]
    assert [r.data.cells for r in rows if isinstance(r.data, RowData)] == [
        ["Item", "Price"],
        ["Apple", "1.00"],
        ["Pear", "2.00"],
    ]
    assert [r.data.header for r in rows if isinstance(r.data, RowData)] == [True, False, False]


def test_implicit_header_is_a_first_line_with_a_blank_line_under_it() -> None:
    with_header = parse("|===\n|Name |Value\n\n|a |1\n|===\n")
    without = parse("|===\n|Name |Value\n|a |1\n|===\n")
    assert only(with_header, "table").data.header == ["Name", "Value"]  # type: ignore[union-attr]
    assert only(without, "table").data.header == []  # type: ignore[union-attr]


def test_description_item_is_its_term_with_its_description() -> None:
    source = "CPU:: The brain.\nRAM::\n  Memory that\n  forgets.\n-v::\n--verbose::\n\tBe verbose.\n"
    doc = parse(source)
    items = [e for e in doc.elements if e.kind == "list_item"]
    assert [doc.text[e.start : e.end] for e in items] == [
        "CPU:: The brain.",
        "RAM::\n  Memory that\n  forgets.",
        "-v::\n--verbose::\n\tBe verbose.",
    ]
    assert [e.data.term for e in items if isinstance(e.data, ItemData)] == ["CPU", "RAM", "-v, --verbose"]


def test_nested_lists_and_a_continuation() -> None:
    source = "* one\n** one.a\n* two\n+\n----\ncode\n----\n* three\n"
    doc = parse(source)
    lists = [e for e in doc.elements if e.kind == "list"]
    assert [doc.text[e.start : e.end] for e in lists] == [source.rstrip("\n"), "** one.a"]
    items = {doc.text[e.start : e.end]: e for e in doc.elements if e.kind == "list_item"}
    assert items["** one.a"].parent == lists[1].id and lists[1].parent == items["* one"].id
    (code,) = [e for e in doc.elements if e.kind == "code"]
    assert doc.text[code.start : code.end] == "+\n----\ncode\n----"
    assert code.parent == items["* two"].id


def test_comments_directives_and_passthrough() -> None:
    source = "// note\n\ninclude::secret.adoc[]\n\n////\nhidden\n////\n\n++++\n<b>raw</b>\n++++\n"
    doc = parse(source)
    assert [(doc.text[e.start : e.end], e.data.reason) for e in doc.elements if e.kind == "furniture"] == [  # type: ignore[union-attr]
        ("// note", "comment"),
        ("include::secret.adoc[]", "include:: directive, never followed"),
        ("////\nhidden\n////", "comment block"),
    ]
    assert spans(doc, "paragraph") == ["++++\n<b>raw</b>\n++++"]
    assert [w.code for w in doc.warnings] == ["include_not_followed"]


def test_compound_blocks_lead_into_their_first_block_and_close_with_their_last() -> None:
    source = "[NOTE]\n====\nFirst.\n\nSecond.\n====\n\n____\nQuoted.\n____\n"
    doc = parse(source)
    assert spans(doc, "paragraph") == ["[NOTE]\n====\nFirst.", "Second.\n====", "____\nQuoted.\n____"]
    quote = only(doc, "blockquote")
    assert doc.text[quote.start : quote.end] == "____\nQuoted.\n____"


def test_unclosed_block_runs_to_the_end_with_a_warning() -> None:
    doc = parse("text\n\n----\ncode never closed\n")
    assert spans(doc, "code") == ["----\ncode never closed"]
    assert [w.code for w in doc.warnings] == ["unclosed_block"]


@pytest.mark.parametrize(
    "source",
    ["", "\n\n", "====\n", "|===\n", "|===\n|a|b|c\n", "* \n", "::\n", ".\n", "[\n", "= \n", "----\n----\n----\n"],
)
def test_hostile_input_keeps_exact_spans(source: str) -> None:
    doc = parse(source)
    for e in doc.elements:
        assert 0 <= e.start <= e.end <= len(source)


def test_deep_nesting_and_crlf() -> None:
    source = "".join("=" * (4 + n) + "\r\n" for n in range(300)) + "text\r\n"
    doc = parse(source)
    assert all(e.end <= len(source) for e in doc.elements)
    attached = parse("* a\n+\n" * 3000)
    assert len([e for e in attached.elements if e.kind == "list_item"]) == 3000
    quotes = parse("".join("_" * (4 + n) + "\n" for n in range(300)) + "text\n")
    assert all(e.end <= len(quotes.text) for e in quotes.elements)
    crlf = parse("== A\r\n\r\nline one\r\nline two\r\n")
    assert spans(crlf, "paragraph") == ["line one\r\nline two"]


def test_header_ends_where_body_text_starts_and_may_have_attributes_above() -> None:
    doc = parse("[#guide]\n= Guide\n:toc:\nfirst paragraph\n")
    assert spans(doc, "front_matter") == ["[#guide]", "= Guide\n:toc:"]
    assert spans(doc, "paragraph") == ["first paragraph"]
    assert doc.metadata["title"] == "Guide"


def test_blocks_attached_to_items_as_asciidoctor_attaches_them() -> None:
    # (cases of the asciidoc-parsing-lab tests: a blank line after the +, an indented literal
    # paragraph under an item, an attribute line above a nested item)
    doc = parse("* one\n+\n\n----\ncode\n----\n* two\n\n ./build.sh\n\n. arabic\n[upperalpha]\n.. upper\n")
    items = {doc.text[e.start : e.end]: e for e in doc.elements if e.kind == "list_item"}
    code = [e for e in doc.elements if e.kind == "code"]
    assert [(doc.text[e.start : e.end], e.parent) for e in code] == [
        ("+\n\n----\ncode\n----", items["* one"].id),
        (" ./build.sh", items["* two"].id),
    ]
    assert "[upperalpha]\n.. upper" in items
    assert len([e for e in doc.elements if e.kind == "list" and e.parent is None]) == 1


def test_a_title_above_an_include_is_the_included_blocks() -> None:
    doc = parse("Text.\n\n.HTML output\ninclude::example$meta.adoc[tag=html]\n\nMore.\n")
    assert spans(doc, "furniture") == [".HTML output\ninclude::example$meta.adoc[tag=html]"]
    assert spans(doc, "paragraph") == ["Text.", "More."]


def test_a_paragraph_attached_to_a_term_is_part_of_its_description() -> None:
    source = "--expire <time>::\n\tPrune older worktrees.\n+\nWith `list`, annotate them.\n\n-v::\n\tVerbose.\n"
    doc = parse(source)
    items = [e for e in doc.elements if e.kind == "list_item"]
    assert [(doc.text[e.start : e.end], e.lines) for e in items] == [
        ("--expire <time>::\n\tPrune older worktrees.\n+\nWith `list`, annotate them.", (1, 4)),
        ("-v::\n\tVerbose.", (6, 7)),
    ]
    assert spans(doc, "paragraph") == []
    attached = parse("* two\n+\n----\ncode\n----\n")
    (code,) = [e for e in attached.elements if e.kind == "code"]
    assert isinstance(code.data, CodeData) and code.data.lead_in == code.parent


def test_a_duplicated_cell_fills_its_columns() -> None:
    doc = parse("|===\n|A |B\n\n2*|same\n|x |y\n|===\n")
    rows = [e.data.cells for e in doc.elements if e.kind == "table_row" and isinstance(e.data, RowData)]
    assert rows == [["A", "B"], ["same"], ["x", "y"]]


def test_a_paragraph_attached_after_an_attached_block_stays_a_child() -> None:
    source = "* Adds files:\n+\n----\n$ git add .\n----\n+\nNote the dot.\n"
    doc = parse(source)
    (item,) = [e for e in doc.elements if e.kind == "list_item"]
    assert doc.text[item.start : item.end] == "* Adds files:"
    assert [(doc.text[e.start : e.end], e.parent) for e in doc.elements if e.parent == item.id] == [
        ("+\n----\n$ git add .\n----", item.id),
        ("+\nNote the dot.", item.id),
    ]
