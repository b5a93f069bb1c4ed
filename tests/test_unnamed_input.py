"""Input without a file name (stdin, bytes, ``text=``): the content chooses the parser, the
records say what it was read as and why (``metadata["format_detected"]``), and binary content no
parser reads is refused with what was seen and how to name its format. Named files are untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import parsegate
from parsegate.cli.main import app
from parsegate.parsers.model import ParseError
from parsegate.parsers.registry import parse_data
from parsegate.runner.discover import Selection, discover
from tests.conftest import GOLDEN

runner = CliRunner()
PAGE = "<html><body><h1>T</h1><p>x.</p></body></html>"
PDF = GOLDEN / "pdf" / "footnote" / "input.pdf"
DOCX = GOLDEN / "office" / "docx" / "incident-policy" / "input.docx"
GIF = b"GIF89a\x10\x00\x10\x00" + bytes(range(256))  # no parser reads GIF (PNG is read by OCR)


def records(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines()]


def test_stdin_html_is_read_as_a_page_not_as_markup() -> None:
    result = runner.invoke(app, ["chunk", "-"], input=PAGE)
    assert result.exit_code == 0, result.output
    [record] = records(result.stdout)
    assert (record["text"], record["kinds"], record["section_path"]) == ("T\n\nx.", ["heading", "paragraph"], ["T"])
    assert record["metadata"]["format_detected"] == {"format": "html", "by": "content: an <html> tag first"}
    parsed = records(runner.invoke(app, ["parse", "-"], input=PAGE).stdout)
    assert [e["kind"] for e in parsed] == ["heading", "paragraph"]


def test_stdin_markdown_keeps_its_heading_and_list() -> None:
    result = runner.invoke(app, ["parse", "-"], input="# H\n\ntext\n\n- a\n- b\n")
    assert [e["kind"] for e in records(result.stdout)] == ["heading", "paragraph", "list", "list_item", "list_item"]


def test_a_piped_pdf_is_chunked_with_its_pages() -> None:
    result = runner.invoke(app, ["chunk", "-"], input=PDF.read_bytes())
    assert result.exit_code == 0, result.output
    chunks = records(result.stdout)
    named = [c.to_dict() for c in parsegate.chunk(PDF)]
    assert [(c["text"], c["pages"]) for c in chunks] == [(c["text"], c["pages"]) for c in named]
    assert {json.dumps(c["metadata"]["format_detected"]) for c in chunks} == {
        json.dumps({"format": "pdf", "by": "content: a %PDF- header"})
    }


def test_piped_binary_content_no_parser_reads_says_what_it_saw_and_how_to_name_it() -> None:
    result = runner.invoke(app, ["chunk", "-"], input=GIF)
    assert result.exit_code != 0
    assert result.stderr.strip() == (
        "parsegate: error: -: 'stdin' has no suffix, and its content is no format parsegate reads (binary data"
        " starting 47 49 46 38 39 61 10 00 ('GIF89a..........')); if it is one, name it (--format pdf on the"
        " command line, format='pdf' in Python) [unsupported]"
    )


@pytest.mark.parametrize(("fmt", "source"), [("html", PAGE.encode()), ("docx", DOCX.read_bytes())])
def test_format_names_a_form_for_stdin_and_bytes(fmt: str, source: bytes) -> None:
    result = runner.invoke(app, ["parse", "-", "--format", fmt], input=source)
    assert result.exit_code == 0, result.output
    doc = parsegate.parse(source, format=fmt, doc_id="no-suffix")
    assert doc.format == fmt and doc.doc_id == "no-suffix" and "format_detected" not in doc.metadata


def test_bytes_and_text_without_a_format_are_read_by_their_content() -> None:
    doc = parsegate.parse(DOCX.read_bytes(), doc_id="policy")
    assert (doc.format, doc.doc_id) == ("docx", "policy")
    assert doc.metadata["format_detected"] == {
        "format": "docx",
        "by": "content: a zip package with [Content_Types].xml and word/",
    }
    page = parsegate.parse(text=PAGE)
    assert [e.kind for e in page.elements] == ["heading", "paragraph"]
    pieces = parsegate.chunk(text="# Fees\n\nWaived on Sundays.\n\n## Refunds\n\nFive days.\n", max_tokens=12)
    assert [p.section_path for p in pieces] == [["Fees"], ["Fees", "Refunds"]]
    assert pieces[0].metadata["format_detected"]["format"] == "markdown"


def test_a_named_file_gets_no_detection_note(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text("Plain prose with no markdown.\n")
    assert "format_detected" not in parsegate.parse(path).metadata
    assert all("format_detected" not in c.metadata for c in parsegate.chunk(PDF))


def test_an_unknown_suffix_is_read_by_its_content_with_a_warning() -> None:
    doc = parse_data(b"Intro.\n\n## One\n\nText.\n\n## Two\n\nMore.\n", Path("notes.mdtxt"))
    assert doc.format == "markdown"
    assert [(w.code, w.message) for w in doc.warnings] == [
        ("unknown_format", "no parser for '.mdtxt' files; read as markdown")
    ]
    assert doc.metadata["format_detected"] == {
        "format": "markdown",
        "by": "content: Markdown block syntax: 2 ATX headings",
    }


def test_an_unnamed_pdf_in_a_corpus_is_found_and_parsed(tmp_path: Path) -> None:
    (tmp_path / "report").write_bytes(PDF.read_bytes())
    (tmp_path / "logo").write_bytes(GIF)
    selection = Selection()
    assert [s.doc_id for s in discover(tmp_path, selection)] == ["report"]
    assert parsegate.parse(tmp_path / "report").format == "pdf"


def test_empty_input_is_still_refused_as_before() -> None:
    with pytest.raises(ParseError) as caught:
        parse_data(b"", Path("stdin"), "stdin")
    assert (caught.value.code, caught.value.message) == ("unsupported", "no parser for 'stdin' files")


def test_a_script_without_the_code_extra_is_read_as_text_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from parsegate.parsers import registry

    monkeypatch.setattr(registry, "_has_modules", lambda modules: False)  # the code extra not installed
    doc = parse_data(b"#!/usr/bin/env python3\nprint('hi')\n", Path("stdin"), "stdin")
    assert doc.format == "text"
    assert doc.metadata["format_detected"] == {
        "format": "text",
        "by": "content: the shebang line '#!/usr/bin/env python3'; read as text: the code extra is not installed"
        " (pip install 'parsegate[code]')",
    }
