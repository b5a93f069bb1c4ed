"""A document's format from its content alone (parsers/detect), for input whose name does not
say: exact formats and reasons for each kind, prose that must stay text, binary content no parser
reads, and any bytes at all without an exception."""

from __future__ import annotations

import io
import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsegate.parsers.detect import Detected, Unrecognised, _sniff, sniff
from parsegate.parsers.formats import all_formats
from parsegate.parsers.office.legacy import soffice
from tests.conftest import GOLDEN, IN_CI


def detected(data: bytes | str) -> tuple[str, str]:
    found = sniff(data.encode() if isinstance(data, str) else data)
    assert isinstance(found, Detected), found
    return found.format, found.by


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(
                name, data, compress_type=zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            )
    return out.getvalue()


# -- binary containers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "fmt", "by"),
    [
        ("pdf/footnote/input.pdf", "pdf", "content: a %PDF- header"),
        ("office/docx/incident-policy/input.docx", "docx", "content: a zip package with [Content_Types].xml and word/"),
        ("office/pptx/quarterly-review/input.pptx", "pptx", "content: a zip package with [Content_Types].xml and ppt/"),
        ("office/xlsx/ducks-and-budget/input.xlsx", "xlsx", "content: a zip package with [Content_Types].xml and xl/"),
    ],
)
def test_golden_binary_inputs_are_told_by_their_bytes(path: str, fmt: str, by: str) -> None:
    assert detected((GOLDEN / path).read_bytes()) == (fmt, by)


def test_a_pdf_header_after_junk_within_the_first_kilobyte_is_a_pdf() -> None:
    data = (GOLDEN / "pdf" / "footnote" / "input.pdf").read_bytes()
    assert detected(b"\x00" * 100 + data) == ("pdf", "content: a %PDF- header at byte 100")
    assert isinstance(sniff(b"x" * 1100 + data), Unrecognised)  # past the first kilobyte: not a PDF header


@pytest.mark.parametrize(("kind", "fmt"), [("text", "odt"), ("spreadsheet", "ods"), ("presentation", "odp")])
def test_opendocument_packages_by_their_mimetype_member(kind: str, fmt: str) -> None:
    mimetype = f"application/vnd.oasis.opendocument.{kind}"
    data = _zip({"mimetype": mimetype.encode(), "content.xml": b"<office:document-content/>"})
    assert detected(data) == (fmt, f"content: a zip package whose mimetype is {mimetype}")


def test_an_epub_by_its_mimetype_member() -> None:
    data = _zip({"mimetype": b"application/epub+zip", "META-INF/container.xml": b"<container/>"})
    assert detected(data) == ("epub", "content: a zip package whose mimetype is application/epub+zip")


def test_a_zip_that_is_no_office_package_says_what_it_is() -> None:
    found = sniff(_zip({"notes.txt": b"hello", "data.csv": b"a,b"}))
    assert found == Unrecognised("a zip archive of 2 files, not an Office or OpenDocument package")
    cut = _zip({"word/document.xml": b"<w:document/>" * 50, "[Content_Types].xml": b"<Types/>"})[:60]
    assert sniff(cut) == Unrecognised("a zip archive that cannot be opened (cut short or damaged)")


def test_rtf_and_an_ole2_file_without_office_streams() -> None:
    assert detected(b"{\\rtf1\\ansi Hello}") == ("rtf", "content: an {\\rtf header")
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600  # the signature, and a damaged directory
    found = sniff(ole)
    assert isinstance(found, Unrecognised) and "OLE2 compound file" in found.seen


@pytest.mark.parametrize(
    ("source", "target", "stream"),
    [
        ("docx/incident-policy/input.docx", "doc", "WordDocument"),
        ("xlsx/ducks-and-budget/input.xlsx", "xls", "Workbook"),
    ],
)
def test_legacy_office_files_by_the_stream_at_their_root(source: str, target: str, stream: str, tmp_path: Path) -> None:
    pytest.importorskip("olefile")
    program = soffice()
    if program is None:
        if IN_CI:
            pytest.fail("LibreOffice (soffice) is missing in CI: dev.sh installs it")
        pytest.skip("LibreOffice (soffice) is not installed here")
    subprocess.run(
        [program, "--headless", "--convert-to", target, "--outdir", str(tmp_path), str(GOLDEN / "office" / source)],
        check=True,
        capture_output=True,
        timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    data = (tmp_path / f"input.{target}").read_bytes()
    assert detected(data) == (target, f"content: an OLE2 compound file with a {stream} stream")


def test_binary_content_no_parser_reads_is_described_by_its_first_bytes() -> None:
    gif = b"GIF89a\x10\x00\x10\x00" + bytes(range(256))
    assert sniff(gif) == Unrecognised("binary data starting 47 49 46 38 39 61 10 00 ('GIF89a..........')")


@pytest.mark.parametrize(
    ("head", "suffix", "by"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ".png", "content: a PNG signature"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", ".jpg", "content: a JPEG signature"),
        (b"II*\x00\x08\x00\x00\x00", ".tif", "content: a TIFF (little-endian) signature"),
        (b"MM\x00*\x00\x00\x00\x08", ".tif", "content: a TIFF (big-endian) signature"),
    ],
)
def test_the_images_ocr_reads_by_their_signatures(head: bytes, suffix: str, by: str) -> None:
    assert sniff(head + bytes(range(256))) == Detected("image", suffix, by)
    assert sniff((GOLDEN / "image" / "scanned-table" / "input.png").read_bytes()).format == "image"


# -- markup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fmt", "by"),
    [
        ("<!DOCTYPE html>\n<html><body><p>x</p></body></html>", "html", "content: an HTML doctype"),
        ("\ufeff  <!-- saved -->\n<html lang='en'><p>x</p></html>", "html", "content: an <html> tag first"),
        (
            '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
            "html",
            "content: an <html> tag first (XHTML)",
        ),
        ("<body>\n<h1>T</h1>\n</body>", "html", "content: an <body> tag first"),
        ("<div class='x'>\n<p>Some words.</p>\n</div>\n", "html", "content: an HTML fragment, <div> first"),
        (
            '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>',
            "text",
            "content: an XML document, root <svg>; no parser reads XML: read as text",
        ),
        (
            '{"schema_name": "DoclingDocument", "version": "1.0.0"}',
            "docling",
            'content: JSON with "schema_name": "DoclingDocument"',
        ),
        (
            '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": ["# Sales"]\n  }\n ],\n "nbformat": 4\n}\n',
            "notebook",
            'content: JSON whose first key is "cells", of cells with a "cell_type" (a Jupyter notebook)',
        ),
        (
            '{"cells": "not a notebook", "cell_type": "code"}',
            "text",
            "content: text with no markup, Markdown block syntax or code",
        ),
    ],
)
def test_markup_by_its_first_tags(text: str, fmt: str, by: str) -> None:
    assert detected(text) == (fmt, by)


def test_a_readme_that_opens_with_an_html_block_is_markdown() -> None:
    text = '<p align="center"><img src="logo.png"></p>\n\n# Tool\n\nIt does things.\n\n## Install\n\n    pip install tool\n'
    assert detected(text) == ("markdown", "content: Markdown block syntax: 2 ATX headings")


# -- Markdown ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "by"),
    [
        ("# H\n\ntext\n\n- a\n- b\n", "a title heading, 2 list items"),
        ("Intro.\n\n## One\n\nText.\n\n## Two\n\nMore.\n", "2 ATX headings"),
        ("Run it:\n\n```sh\nmake\n```\n\nDone.\n", "a fenced code block"),
        ("Rates:\n\n| Tier | Fee |\n|---|---:|\n| A | 1 |\n", "a pipe table"),
        ("---\ntitle: Notes\n---\n\nSee the [guide](https://example.org/guide).\n", "YAML front matter, a link"),
        ("Tool\n====\n\nRead [the docs](docs.html) first.\n", "a link, a setext heading"),
    ],
)
def test_markdown_by_its_block_syntax(text: str, by: str) -> None:
    assert detected(text) == ("markdown", f"content: Markdown block syntax: {by}")


PROSE = {
    "paragraphs": "The committee met on Tuesday.\n\nIt agreed to raise the fee (by 2 %) from May.\n",
    "dash lists": "Bring:\n- a pen\n- your badge\n\nThanks,\nAnn\n",
    "underlined title": "Release notes\n=============\n\nFixed the export.\n",
    "quoted mail": "> Can we meet?\n\nYes, at noon.\n",
    "one hash line": "#1 priority is the audit.\n\nEverything else waits.\n",
    "shell script": "# build it\nset -e\nmake\n\n# install it\nmake install\nexit 0\n",
    # "#" lines alone between blank lines: headings by their shape, a script by the lines under them
    "spaced shell script": "# build\n\nset -e\nCC=gcc make\n\n# install\n\nexport PREFIX=/usr\nmake install\n",
    # "#" lines right above a line of text: notes, not headings
    "hash notes": "# today\nbuy milk\n\n# later\ncall Bob about the lease\n",
    "yaml": "# settings\nname: parsegate\n\n# limits\nmax_tokens: 256\nworkers: 2\n",
    "ini": "# defaults\n[server]\nport = 8080\n\n# the database\n[db]\npath = /var/db\n",
    "json": '{"name": "x", "items": [1, 2, 3], "nested": {"a": true}}\n',
    "prose with code words": "We define a class of problems.\n\nImport duties apply; for details see page 3.\n",
}


@pytest.mark.parametrize("name", list(PROSE))
def test_prose_and_configuration_stay_text(name: str) -> None:
    fmt, by = detected(PROSE[name])
    assert (fmt, by) == ("text", "content: text with no markup, Markdown block syntax or code")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_text_in_utf16_or_utf32_is_read_by_its_content_not_taken_for_binary(encoding: str) -> None:
    text = "# Title\n\nSome text here.\n\n## Part\n\nMore text.\n" * 2000  # past the sample: cut in two
    data = text.encode(encoding) if encoding != "utf-16-be" else b"\xfe\xff" + text.encode(encoding)
    fmt, by = detected(data)  # the sample is 64 KB of bytes: fewer headings in it for wider encodings
    assert fmt == "markdown" and by.startswith("content: Markdown block syntax: ") and by.endswith(" ATX headings")


# -- code ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language", "by"),
    [
        ("#!/usr/bin/env python3\nprint('hi')\n", "python", "content: the shebang line '#!/usr/bin/env python3'"),
        ("#!/usr/bin/node\nconsole.log(1)\n", "javascript", "content: the shebang line '#!/usr/bin/node'"),
        ("<?php\necho 'hi';\n", "php", "content: a <?php opening tag"),
    ],
)
def test_a_first_line_names_the_language(text: str, language: str, by: str) -> None:
    found = sniff(text.encode())
    assert found == Detected("code", {"python": ".py", "javascript": ".js", "php": ".php"}[language], by, language)


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("code/python/input.py", "python"),
        ("code/go/input.go", "go"),
        ("code/rust/input.rs", "rust"),
        ("code/java/input.java", "java"),
        ("code/c/input.c", "c"),
        ("code/typescript/input.ts", "typescript"),
        ("code/ruby/input.rb", "ruby"),
    ],
)
def test_code_without_a_shebang_is_told_by_a_clean_tree_sitter_parse(path: str, language: str) -> None:
    pytest.importorskip("tree_sitter_language_pack")
    found = sniff((GOLDEN / path).read_bytes())
    assert isinstance(found, Detected) and (found.format, found.language) == ("code", language)
    assert found.by.startswith(f"content: parses as {language} with tree-sitter (")


def test_python_with_hash_comments_between_blank_lines_is_code_not_markdown() -> None:
    pytest.importorskip("tree_sitter_language_pack")
    text = "import os\n\n# Settings\n\nROOT = os.getcwd()\n\n# Helpers\n\ndef here():\n    return ROOT\n"
    assert sniff(text.encode()).format == "code"  # type: ignore[union-attr]


# -- any bytes -----------------------------------------------------------------------------------

_PREFIXES = st.sampled_from(
    [
        b"",
        b"%PDF-1.7\n",
        b"PK\x03\x04",
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        b"{\\rtf1",
        b"<html>",
        b"# ",
        b"#!/usr/bin/env python\n",
        b"---\n",
        b"\xef\xbb\xbf",
        b"<?php",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=_PREFIXES, data=st.binary(max_size=3000) | st.text(max_size=2000).map(str.encode))
def test_detection_never_raises_on_any_bytes(prefix: bytes, data: bytes) -> None:
    found = _sniff(prefix + data, None)  # the inner function: sniff() would hide an exception as Unrecognised
    assert isinstance(found, Unrecognised) or found.format in all_formats()


# -- delimited tables ------------------------------------------------------------------------------

TABLES = {
    "comma": ("name,qty,price\nbolt,10,0.5\nnut,200,0.1\nwasher,50,0.05\n", "csv", "3 comma-separated fields"),
    "semicolon": ('name;qty\n"bolt";10\n"nut";200\n"washer";50\n', "csv", "2 semicolon-separated fields"),
    "tab": ("id\tcity\tcountry\n1\tLyon\tFrance\n2\tKyiv\tUkraine\n", "tsv", "3 tab-separated fields"),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_a_delimited_table_is_told_by_rows_of_one_shape(name: str) -> None:
    text, fmt, shape = TABLES[name]
    rows = len(text.splitlines())
    assert detected(text) == (fmt, f"content: {rows} of {rows} rows of {shape}")


NOT_TABLES = {
    # two fields in every line, but no header the sniffer can vote for: a poem, not a table
    "poem": "Roses are red, violets are blue\nSugar is sweet, and so are you\nThe end, for now\n",
    # a pipe table is Markdown's
    "pipe table": "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |\n",
    # rows that do not agree on a shape
    "ragged": "a,b,c\n1,2\n3,4,5,6\n7\n8,9,10,11,12\n",
}


@pytest.mark.parametrize("name", list(NOT_TABLES))
def test_text_with_commas_that_is_no_table_is_not_csv(name: str) -> None:
    assert detected(NOT_TABLES[name])[0] not in ("csv", "tsv")


def test_a_table_in_a_file_with_no_suffix_is_read_by_the_csv_parser(tmp_path: Path) -> None:
    from parsegate.parsers.registry import parse_file

    path = tmp_path / "parts"
    path.write_text("name,qty,price\nbolt,10,0.5\nnut,200,0.1\n")
    doc = parse_file(path)
    assert (doc.format, doc.metadata["header"], doc.metadata["rows"]) == ("csv", True, 2)
    assert doc.metadata["format_detected"] == {
        "format": "csv",
        "by": "content: 3 of 3 rows of 3 comma-separated fields",
    }
