"""The EPUB parser on any input: a Document or a ParseError, nothing else (never another
exception); and in a Document, every element's span inside the text, each body element's page a
place in the spine."""

from __future__ import annotations

import io
import zipfile

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from parsegate.parsers import epub
from parsegate.parsers.model import Document, ParseError
from tests.epub_books import CONTAINER, XHTML, opf
from tests.epub_books import epub as book

NAMES = st.sampled_from(
    [
        "mimetype",
        "META-INF/container.xml",
        "META-INF/encryption.xml",
        "OEBPS/content.opf",
        "OEBPS/a.xhtml",
        "OEBPS/b.xhtml",
    ]
)
PIECES = [
    *"<>/=\"'&;!?[] \nabchp1é",
    "<p>",
    "</p>",
    "<h1>",
    "<nav>",
    "<!ENTITY",
    "<!DOCTYPE",
    "&amp;",
    "<img alt='x'/>",
]
MARKUP = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
VALID = {
    "META-INF/container.xml": CONTAINER.format(opf="OEBPS/content.opf"),
    "OEBPS/content.opf": opf("T", [("a", "a.xhtml", "application/xhtml+xml", "")], ["a"]),
    "OEBPS/a.xhtml": XHTML.format(name="a", body="<h1>A</h1><p>b</p>"),
}


def parsed(data: bytes) -> Document | None:
    try:
        return epub.parse(data, "input.epub")
    except ParseError:
        return None


def check(doc: Document) -> None:
    chapters = len(doc.metadata["chapters"])
    for e in doc.elements:
        assert 0 <= e.start <= e.end <= len(doc.text)
        assert e.page is None or 1 <= e.page <= chapters


def zipped(entries: dict[str, bytes | str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
@example(b"PK\x05\x06" + bytes(18))  # an empty zip's end record alone
@example(zipped({"META-INF/container.xml": b""}))
def test_any_bytes_give_a_document_or_a_parse_error(data: bytes) -> None:
    doc = parsed(data)
    if doc is not None:
        check(doc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(NAMES, st.one_of(MARKUP, st.binary(max_size=60)), max_size=5), st.booleans())
@example({"OEBPS/a.xhtml": "<h1"}, True)
@example({"META-INF/encryption.xml": "<e><CipherReference URI='OEBPS/a.xhtml'/></e>"}, True)
def test_any_zip_of_epub_parts_gives_a_document_or_a_parse_error(
    entries: dict[str, str | bytes], start_valid: bool
) -> None:
    files = {**VALID, **entries} if start_valid else entries
    doc = parsed(zipped(files))
    if doc is not None:
        check(doc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MARKUP, min_size=1, max_size=4))
def test_any_chapter_markup_gives_a_document_or_a_parse_error(bodies: list[str]) -> None:
    doc = parsed(book({f"c{n}.xhtml": body for n, body in enumerate(bodies)}))
    if doc is not None:
        check(doc)
