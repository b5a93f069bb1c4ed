"""reStructuredText: docutils' blocks with exact spans of the source's lines, sections at the
levels docutils gives their adornments, lists, tables, code, Sphinx's markup kept as text, and
no file read, no message printed, no traceback."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsegate.parsers import rst
from parsegate.parsers.model import CONTAINER_KINDS, CodeData, Document, ItemData, ParseError, RowData, TableData


def parse(text: str) -> Document:
    return rst.parse(text.encode("utf-8"), "doc.rst")


def spans(doc: Document, kinds: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    return [(e.kind, doc.text[e.start : e.end]) for e in doc.elements if kinds is None or e.kind in kinds]


def assert_tiled(doc: Document) -> None:
    """Every non-space character of the source lies in exactly one leaf; leaves never overlap."""
    leaves = [e for e in doc.elements if e.kind not in CONTAINER_KINDS]
    for a, b in itertools.pairwise(leaves):
        assert a.end <= b.start
    held = bytearray(len(doc.text))
    for e in leaves:
        held[e.start : e.end] = b"\x01" * (e.end - e.start)
    assert [c for n, c in enumerate(doc.text) if not c.isspace() and not held[n]] == []


def test_sections_take_docutils_levels_whatever_the_adornment() -> None:
    doc = parse(
        "#######\n Guide\n#######\n\nIntro.\n\nSetup\n*****\n\nText one.\n\nDetails\n=======\n\n"
        "Text two.\n\nUsage\n*****\n\nText three.\n"
    )
    headings = [(e.level, doc.text[e.start : e.end], e.section_path) for e in doc.elements if e.kind == "heading"]
    assert headings == [
        (1, "#######\n Guide\n#######", ("Guide",)),
        (2, "Setup\n*****", ("Guide", "Setup")),
        (3, "Details\n=======", ("Guide", "Setup", "Details")),
        (2, "Usage\n*****", ("Guide", "Usage")),
    ]
    paragraphs = [(doc.text[e.start : e.end], e.section_path[-1]) for e in doc.elements if e.kind == "paragraph"]
    assert paragraphs == [
        ("Intro.", "Guide"),
        ("Text one.", "Setup"),
        ("Text two.", "Details"),
        ("Text three.", "Usage"),
    ]
    assert doc.metadata == {"title": "Guide"}
    assert_tiled(doc)


def test_paragraph_offsets_are_the_source_lines_trimmed() -> None:
    text = "First line\nsecond line.\n\n\n   Quoted\n   block.\n\nLast *one*.   \n"
    doc = parse(text)
    assert spans(doc) == [
        ("paragraph", "First line\nsecond line."),
        ("blockquote", "Quoted\n   block."),
        ("paragraph", "Quoted\n   block."),
        ("paragraph", "Last *one*."),
    ]
    assert [(e.start, e.end, e.lines) for e in doc.elements if e.kind == "paragraph"] == [
        (0, 23, (1, 2)),
        (29, 45, (5, 6)),
        (47, 58, (8, 8)),
    ]


def test_a_definition_with_its_term_is_one_item_and_fields_name_theirs() -> None:
    doc = parse(
        "Flags:\n\nspike\n   Differs from its neighbours.\n\n   Kept in the log.\n\ngap\n   No reading.\n\n"
        ":stamp: UTC time.\n:level: Metres above\n   chart datum.\n"
    )
    items = [(doc.text[e.start : e.end], e.data.term) for e in doc.elements if isinstance(e.data, ItemData)]
    assert items == [
        ("spike\n   Differs from its neighbours.\n\n   Kept in the log.", "spike"),
        ("gap\n   No reading.", "gap"),
        (":stamp: UTC time.", "stamp"),
        (":level: Metres above\n   chart datum.", "level"),
    ]
    lists = [e for e in doc.elements if e.kind == "list"]
    assert lists[0].data.lead_in == doc.elements[0].id  # "Flags:" introduces the definitions


def test_list_items_are_their_own_lines_up_to_nested_structure() -> None:
    doc = parse(
        "Steps:\n\n1. Bolt the well.\n2. Start the logger:\n\n   .. code-block:: console\n\n"
        "      $ gauge start\n\n   Then wait.\n\n   - a nested point\n"
    )
    assert spans(doc, ("list_item", "code", "paragraph")) == [
        ("paragraph", "Steps:"),
        ("list_item", "1. Bolt the well."),
        ("list_item", "2. Start the logger:"),
        ("code", ".. code-block:: console\n\n      $ gauge start"),
        ("paragraph", "Then wait."),
        ("list_item", "- a nested point"),
    ]
    code = next(e for e in doc.elements if e.kind == "code")
    item = next(e for e in doc.elements if e.kind == "list_item" and doc.text[e.start : e.end].startswith("2."))
    assert isinstance(code.data, CodeData)
    assert (code.data.language, code.data.lead_in, code.parent) == ("console", item.id, item.id)
    assert [e.data.marker for e in doc.elements if e.kind == "list_item"] == ["1.", "2.", "-"]
    assert_tiled(doc)


def test_grid_simple_list_and_csv_tables_carry_their_header() -> None:
    doc = parse(
        "+------+-------+\n| Part | Code  |\n+======+=======+\n| PS   | 40    |\n+------+-------+\n\n"
        "=====  =====\nA      B\n=====  =====\nx      y\nz      w\n=====  =====\n\n"
        ".. list-table:: Checks\n   :header-rows: 1\n\n   * - Part\n     - When\n   * - Well\n     - 6 months\n\n"
        '.. csv-table:: Codes\n   :header: "Code", "Lead"\n\n   IS-12, 2 weeks\n   PS-40, 6 weeks\n'
    )
    tables = [e for e in doc.elements if e.kind == "table"]
    got = [
        (t.data.header, t.data.header_text, t.data.rows, t.data.caption)
        for t in tables
        if isinstance(t.data, TableData)
    ]
    assert got == [
        (["Part", "Code"], "| Part | Code  |", 1, None),
        (["A", "B"], "A      B", 2, None),
        (["Part", "When"], "* - Part\n     - When", 1, "Checks"),
        (["Code", "Lead"], ':header: "Code", "Lead"', 2, "Codes"),
    ]
    rows = [
        (doc.text[e.start : e.end], e.data.cells)
        for e in doc.elements
        if isinstance(e.data, RowData) and not e.data.header
    ]
    assert rows == [
        ("| PS   | 40    |\n+------+-------+", ["PS", "40"]),
        ("x      y", ["x", "y"]),
        ("z      w\n=====  =====", ["z", "w"]),
        ("* - Well\n     - 6 months", ["Well", "6 months"]),
        ("IS-12, 2 weeks", ["IS-12", "2 weeks"]),
        ("PS-40, 6 weeks", ["PS-40", "6 weeks"]),
    ]
    assert_tiled(doc)


def test_literal_blocks_and_code_directives_keep_their_language() -> None:
    doc = parse(
        "Run::\n\n   make all\n\n.. code:: python\n\n   x = 1\n\n.. sourcecode:: rust\n\n   fn main() {}\n\n"
        ">>> 1 + 1\n2\n"
    )
    codes = [(doc.text[e.start : e.end], e.data.language) for e in doc.elements if isinstance(e.data, CodeData)]
    assert codes == [
        ("make all", None),
        (".. code:: python\n\n   x = 1", "python"),
        (".. sourcecode:: rust\n\n   fn main() {}", "rust"),
        (">>> 1 + 1\n2", "pycon"),
    ]


def test_comments_are_declared_furniture_and_the_text_after_them_is_not() -> None:
    # (a title directive makes no node: its line would be the comment's, were the comment's
    # span not its own lines)
    doc = parse(
        ".. a comment\n   over two lines\nNot indented: a paragraph.\n\n.. comment\n\n"
        ".. title:: Harbour manual\n\n.. note:: Kept.\n"
    )
    assert spans(doc) == [
        ("furniture", ".. a comment\n   over two lines"),
        ("paragraph", "Not indented: a paragraph."),
        ("furniture", ".. comment"),
        ("paragraph", ".. title:: Harbour manual"),
        ("paragraph", ".. note:: Kept."),
    ]
    assert doc.elements[0].data.reason == "comment"  # type: ignore[union-attr]


def test_include_and_raw_are_kept_as_text_and_never_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "secret.rst").write_text("THE SECRET WORDS\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docutils.conf").write_text("[general]\nreport_level: 1\nhalt_level: 1\n")  # never read
    doc = parse(
        "Before.\n\n.. include:: secret.rst\n\n.. raw:: html\n\n   <b>bold</b>\n\n"
        ".. csv-table::\n   :file: secret.rst\n\nAfter.\n"
    )
    assert "SECRET" not in " ".join(str(e.data.to_json()) for e in doc.elements)
    assert spans(doc) == [
        ("paragraph", "Before."),
        ("paragraph", ".. include:: secret.rst"),
        ("paragraph", ".. raw:: html\n\n   <b>bold</b>"),
        ("paragraph", ".. csv-table::\n   :file: secret.rst"),
        ("paragraph", "After."),
    ]
    assert [w.code for w in doc.warnings] == ["not_followed"]
    assert "include ×1" in doc.warnings[0].message and "raw ×1" in doc.warnings[0].message


def test_sphinx_directives_and_roles_keep_their_text_and_nothing_is_printed(capfd: pytest.CaptureFixture[str]) -> None:
    doc = parse(
        "See :ref:`install` and :func:`gauge.calibrate`.\n\n.. toctree::\n   :maxdepth: 2\n\n   intro\n   usage\n\n"
        ".. versionadded:: 2.3\n   The ``--interval`` option.\n\n.. autofunction:: gauge.calibrate\n\n"
        ".. function:: spam(eggs)\n\n   Spam the eggs.\n\n   - first\n   - second\n"
    )
    assert spans(doc, ("paragraph", "list_item")) == [
        ("paragraph", "See :ref:`install` and :func:`gauge.calibrate`."),
        ("paragraph", ".. toctree::\n   :maxdepth: 2\n\n   intro\n   usage"),
        ("paragraph", ".. versionadded:: 2.3\n   The ``--interval`` option."),
        ("paragraph", ".. autofunction:: gauge.calibrate"),
        ("paragraph", ".. function:: spam(eggs)\n\n   Spam the eggs."),
        ("list_item", "- first"),
        ("list_item", "- second"),
    ]
    (warning,) = doc.warnings
    assert warning.code == "unknown_directive"
    assert "autofunction ×1, function ×1, toctree ×1, versionadded ×1" in warning.message
    assert capfd.readouterr() == ("", "")
    assert_tiled(doc)


def test_labels_open_what_they_name_and_leading_fields_are_front_matter() -> None:
    doc = parse(":orphan:\n:tocdepth: 2\n\n.. _install:\n\nInstall\n=======\n\nText.\n")
    assert spans(doc) == [
        ("front_matter", ":orphan:\n:tocdepth: 2"),
        ("heading", ".. _install:\n\nInstall\n======="),
        ("paragraph", "Text."),
    ]
    assert doc.metadata == {"orphan": "", "tocdepth": "2", "title": "Install"}


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_line_ends_and_form_feeds_keep_offsets_exact(newline: str) -> None:
    # docutils' own line split (str.splitlines) also ends a line at U+2028, U+0085, \x1c…
    text = newline.join(["Title", "=====", "", "One\x0cstill\u2028one\x85too.", "", "- item", "- item two", ""])
    doc = parse(text)
    assert spans(doc, ("heading", "paragraph", "list_item")) == [
        ("heading", f"Title{newline}====="),
        ("paragraph", "One\x0cstill\u2028one\x85too."),
        ("list_item", "- item"),
        ("list_item", "- item two"),
    ]


def test_hostile_inputs_end_in_a_document_or_a_parse_error() -> None:
    assert parse("").elements == [] and [w.code for w in parse("  \n\n").warnings] == ["empty"]
    with pytest.raises(ParseError):
        rst.parse(b"\x00\x01\x02binary\xff\xfe" * 50, "x.rst")
    deep = "".join(" " * n + "- item\n\n" for n in range(0, 400, 2))
    try:
        assert_tiled(parse(deep))
    except ParseError as exc:
        assert exc.code == "nesting_limit"
    doc = parse("Broken\n===\n\n+---+\n| a |\n\n.. code-block::\n\n`unclosed *markup\n\n" + "x" * 20000)
    assert_tiled(doc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(
            [
                "Title\n=====\n",
                "Para text.\n",
                "- item\n",
                "  indented\n",
                "1. one\n",
                "term\n   def\n",
                ".. note:: n\n",
                ".. comment\n",
                ".. toctree::\n",
                "   entry\n",
                "::\n",
                "+--+\n",
                "| a|\n",
                "====  ===\n",
                ":f: v\n",
                ".. _l:\n",
                "\n",
                "\n",
                ".. code-block:: py\n",
                "\tx = 1\n",
                ">>> 1\n",
            ]
        ),
        max_size=30,
    )
)
def test_any_mix_of_constructs_is_tiled_exactly(parts: list[str]) -> None:
    doc = parse("".join(parts))
    for e in doc.elements:
        assert 0 <= e.start < e.end <= len(doc.text)
    assert_tiled(doc)


def test_roles_docutils_does_not_know_read_as_their_text_in_titles() -> None:
    doc = parse(
        ":mod:`sphinx.ext.apidoc` -- API docs\n=====================================\n\n"
        "The :py:class:`~gauge.Logger` class\n-----------------------------------\n\n"
        "See :ref:`the manual <manual>`\n------------------------------\n\nText.\n"
    )
    titles = [e.section_path[-1] for e in doc.elements if e.kind == "heading"]
    assert titles == ["sphinx.ext.apidoc -- API docs", "The Logger class", "See the manual"]
