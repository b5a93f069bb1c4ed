"""The Markdown parser's shortcuts give the answers of the plain definitions they replace.

benchmarks/markdown_snapshot.py checks whole Documents before and after a speed change; these
pin the pieces written for speed against their definitions: line starts from ``bytes.splitlines``
(CommonMark's CRLF, CR and LF, not the other separators ``str.splitlines`` knows), the line
starts a parser hands to its Document, and front matter read only to its closing marker.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from parsegate.parsers import markdown
from parsegate.parsers.model import Document, byte_line_starts, line_starts

_LINE_END = re.compile(rb"\r\n|\r|\n")
# Line ends and the separators str.splitlines also splits at (\v, \f, \x1c-\x1e, NEL, LS, PS).
_PIECES = ["a", "é", " ", "\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x85", "\u2028", "\u2029"]


@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_byte_line_starts_are_the_line_ends_of_commonmark(pieces: list[str]) -> None:
    src = "".join(pieces).encode()
    assert byte_line_starts(src) == [0, *(m.end() for m in _LINE_END.finditer(src))]


@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_line_starts_of_ascii_text_from_bytes_are_those_of_the_definition(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert line_starts(text) == [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]
    ascii_text = "".join(p for p in pieces if p.isascii())
    assert line_starts(ascii_text) == [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", ascii_text))]


def test_byte_line_starts_at_the_edges() -> None:
    assert byte_line_starts(b"") == [0]
    assert byte_line_starts(b"a") == [0]  # a last line without a line end starts nothing after it
    assert byte_line_starts(b"a\r\nb\rc\n") == [0, 3, 5, 7]
    assert byte_line_starts("a\x85b\x0cc\u2028\n".encode()) == [0, 10]  # not line ends in Markdown


@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_a_parsed_documents_lines_are_those_of_a_fresh_document(pieces: list[str]) -> None:
    prose = "words enough to keep control characters a small share of the text " * 8
    text = "# T\n\n- " + "".join(pieces) + "\n\n" + prose + "".join(reversed(pieces))
    doc = markdown.parse(text.encode(), "x.md")
    fresh = Document(doc.doc_id, doc.version, doc.format, doc.text, [])
    assert doc.line_of(len(text)) == fresh.line_of(len(text))
    for el in doc.elements:
        assert el.lines == fresh.lines_of(el.start, el.end)
    assert doc._line_starts == line_starts(text)


def test_front_matter_is_found_before_a_long_body_and_the_body_keeps_its_offsets() -> None:
    body = "".join(f"## Part {n}\n\nText {n}.\n\n---\n\n" for n in range(200))
    source = "---\ntitle: Long\n---\n" + body
    doc = markdown.parse(source.encode(), "x.md")
    assert doc.metadata == {"title": "Long"}
    assert doc.elements[0].kind == "front_matter" and doc.elements[0].lines == (1, 3)
    last = doc.elements[-2]  # the last part's text (a rule follows it)
    assert (last.kind, doc.text[last.start : last.end]) == ("paragraph", "Text 199.")
    assert doc.text[: doc.elements[1].start].count("\n") == 3
