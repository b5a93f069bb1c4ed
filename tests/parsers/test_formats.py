"""The format table (parsers/formats.py) says what each built-in parser does; these hold it to
what the parsers really make of the golden inputs, and to the lists derived from it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from parsegate.parsers import formats, registry
from parsegate.parsers.bytes.decode import decode_text
from parsegate.parsers.model import ParseError
from tests.conftest import GOLDEN

INPUTS = sorted(GOLDEN.rglob("input.*"))


def test_every_suffix_is_read_as_one_form_of_one_parser() -> None:
    suffixes = [s for spec in formats.FORMATS for s in spec.suffixes]
    assert len(suffixes) == len(set(suffixes))
    assert all(s == s.lower() and s.startswith(".") for s in suffixes)
    names = [form.name for spec in formats.FORMATS for form in spec.forms]
    assert len(names) == len(set(names))


def test_a_converted_form_is_converted_to_a_form_of_its_own_parser() -> None:
    for spec in formats.FORMATS:
        for form in spec.forms:
            assert form.converted_to is None or form.converted_to in spec.formats


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.parent.relative_to(GOLDEN)))
def test_the_table_says_what_the_parser_makes_of_each_golden_input(path: Path) -> None:
    """The form its suffix names is the Document.format the parser gives it; for a parser whose
    offsets point into the source, Document.text is the decoded file itself."""
    data = path.read_bytes()
    doc = registry.parse_data(data, path, path.name)
    spec = next(s for s in formats.FORMATS if path.suffix in s.suffixes)
    form = spec.form_for(path.suffix)
    assert form is not None and doc.format == form.name
    assert doc.parser.startswith(f"{spec.name} {spec.output_version}")
    assert (doc.text == decoded(data)) is spec.source_text


def decoded(data: bytes) -> str | None:
    try:
        return decode_text(data)
    except ParseError:  # not text at all (a zip, a PDF)
        return None


def test_the_reports_show_the_source_of_every_format_whose_text_is_the_source(tmp_path: Path) -> None:
    """report.html's source view: code is a text format too (the list it had named only
    Markdown and plain text, against its own comment)."""
    from parsegate.runner.reports import _source

    data = b"def f():\n    return 1\n"
    (tmp_path / "tool.py").write_bytes(data)
    version = "sha256:" + hashlib.sha256(data).hexdigest()
    for fmt in ("code", "markdown", "text"):
        assert _source(tmp_path, "tool.py", fmt, version) == (data.decode(), None)
    assert _source(tmp_path, "tool.py", "pdf", version)[0] is None
