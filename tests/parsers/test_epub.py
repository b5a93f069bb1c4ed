"""The EPUB parser: chapters in spine order through our HTML pass, the book's title above their
headings, each element's chapter named, the table of contents and images' alt text furniture;
hostile or broken books refused with a ParseError naming why."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from parsegate.parsers import epub
from parsegate.parsers.model import Document, FurnitureData, ParseError
from parsegate.parsers.options import ParseOptions
from parsegate.parsers.registry import parse_data
from tests.epub_books import epub as book

GOLDEN = Path(__file__).parents[2] / "golden_docs" / "epub" / "harbour-walks" / "input.epub"
ONE = "<h1>Arrival</h1><p>The train reached Ellery at dusk.</p>"
TWO = "<h1>The Inn</h1><h2>Rooms</h2><p>Seven rooms faced the harbour.</p><ul><li>bed</li><li>lamp</li></ul>"


def texts(doc: Document) -> list[tuple[str, str, int | None]]:
    return [(e.kind, doc.text[e.start : e.end], e.page) for e in doc.elements]


def test_chapters_are_read_in_spine_order_under_the_books_title() -> None:
    # The manifest lists two.xhtml second; the spine reads it first.
    doc = epub.parse(book({"one.xhtml": ONE, "two.xhtml": TWO}, spine=["two.xhtml", "one.xhtml"]), "b.epub")
    assert doc.format == "epub" and doc.title == "A Book"
    assert doc.metadata["chapters"] == ["OEBPS/two.xhtml", "OEBPS/one.xhtml"]
    assert texts(doc) == [
        ("heading", "A Book", None),
        ("heading", "The Inn", 1),
        ("heading", "Rooms", 1),
        ("paragraph", "Seven rooms faced the harbour.", 1),
        ("list", "bed\n\nlamp", 1),
        ("list_item", "bed", 1),
        ("list_item", "lamp", 1),
        ("heading", "Arrival", 2),
        ("paragraph", "The train reached Ellery at dusk.", 2),
    ]
    assert doc.text.startswith("A Book\n\nThe Inn\n\nRooms\n\nSeven rooms faced the harbour.\n\nbed\n\nlamp\n\nArrival")
    assert [e.level for e in doc.elements if e.kind == "heading"] == [1, 2, 3, 2]
    rooms = next(e for e in doc.elements if e.kind == "paragraph")
    assert rooms.section_path == ("A Book", "The Inn", "Rooms")
    arrival = doc.elements[-1]
    assert arrival.section_path == ("A Book", "Arrival")


def test_a_book_without_a_title_has_its_chapters_headings_as_they_are() -> None:
    doc = epub.parse(book({"one.xhtml": ONE}, title=None), "b.epub")
    assert doc.title is None
    assert [(e.kind, e.level, e.section_path) for e in doc.elements][:1] == [("heading", 1, ("Arrival",))]


def test_the_navigation_document_and_alt_text_are_furniture_naming_their_chapter() -> None:
    nav = '<nav epub:type="toc"><h1>Contents</h1><ol><li><a href="one.xhtml">Arrival</a></li></ol></nav>'
    one = ONE + '<p><img src="p.jpg" alt="The station at dusk"/></p>'
    doc = epub.parse(book({"one.xhtml": one}, nav=nav), "b.epub")
    furniture = [
        (doc.text[e.start : e.end], e.page, e.data.reason, e.data.ref) for e in doc.elements if e.kind == "furniture"
    ]
    assert furniture == [
        ("Contents Arrival", 1, "navigation (the book's table of contents)", "OEBPS/nav.xhtml"),
        ("The station at dusk", 2, "image (its alt text)", "OEBPS/one.xhtml"),
    ]
    assert all(isinstance(e.data, FurnitureData) for e in doc.elements if e.kind == "furniture")
    body = [t for k, t, _ in texts(doc) if k != "furniture"]
    assert body == ["A Book", "Arrival", "The train reached Ellery at dusk."]
    assert doc.metadata["toc"] == "OEBPS/nav.xhtml"


def test_tables_and_code_of_a_chapter_keep_their_structure() -> None:
    body = (
        "<h1>Fares</h1><table><tr><th>Route</th><th>Fare</th></tr><tr><td>Quay</td><td>2</td></tr></table>"
        '<pre><code class="language-python">print("fare")\n</code></pre>'
    )
    doc = epub.parse(book({"c.xhtml": body}), "b.epub")
    kinds = [(k, t) for k, t, _ in texts(doc)]
    assert ("table_row", "| Route | Fare |") in kinds and ("table_row", "| Quay | 2 |") in kinds
    code = next(e for e in doc.elements if e.kind == "code")
    assert doc.text[code.start : code.end] == 'print("fare")' and code.data.language == "python"


def test_skipped_and_missing_spine_items_are_warned_of() -> None:
    files = {"OEBPS/content.opf": _opf_with_svg()}
    doc = epub.parse(book({"one.xhtml": ONE, "gone.xhtml": TWO}, files=files, skip=("OEBPS/gone.xhtml",)), "b.epub")
    assert [(w.code, w.location) for w in doc.warnings] == [
        ("skipped", "OEBPS/cover.svg"),
        ("missing_chapter", "OEBPS/gone.xhtml"),
    ]
    assert [t for k, t, _ in texts(doc)][1:] == ["Arrival", "The train reached Ellery at dusk."]


def _opf_with_svg() -> str:
    from tests.epub_books import opf

    items = [
        ("svg", "cover.svg", "image/svg+xml", ""),
        ("c0", "one.xhtml", "application/xhtml+xml", ""),
        ("c1", "gone.xhtml", "application/xhtml+xml", ""),
    ]
    return opf("A Book", items, ["svg", "c0", "c1"])


def test_the_registry_reads_dot_epub_with_this_parser() -> None:
    doc = parse_data(GOLDEN.read_bytes(), GOLDEN)
    assert doc.format == "epub" and doc.parser == "epub 1"
    assert doc.metadata["chapters"][1:] == ["OEBPS/text/ch01.xhtml", "OEBPS/text/ch02.xhtml", "OEBPS/text/ch03.xhtml"]


# -- refused ---------------------------------------------------------------------------------


def _zip(entries: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return out.getvalue()


ENCRYPTION = (
    '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">'
    '<enc:EncryptedData><enc:EncryptionMethod Algorithm="{algorithm}"/>'
    '<enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData></encryption>'
)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"PK\x03\x04 not really a zip", "corrupt"),
        (_zip({"mimetype": "application/epub+zip"}), "no_container"),
        (book({"one.xhtml": ONE}, skip=("OEBPS/content.opf",)), "no_package"),
        (book({"one.xhtml": ONE}, files={"META-INF/container.xml": "<container/>"}), "no_package"),
        (book({"one.xhtml": ONE}, files={"OEBPS/content.opf": "<package><spine>"}), "corrupt"),
        (
            book({"one.xhtml": ONE}, files={"OEBPS/content.opf": '<package xmlns="http://www.idpf.org/2007/opf"/>'}),
            "no_spine",
        ),
        (book({"one.xhtml": ONE}, opf_extra='<!DOCTYPE p [<!ENTITY a "aaaaaaaaaa">]>'), "unsafe_xml"),
        (
            book(
                {"one.xhtml": ONE}, files={"META-INF/container.xml": '<!DOCTYPE c SYSTEM "http://x/c.dtd"><container/>'}
            ),
            "unsafe_xml",
        ),
        (
            book(
                {"one.xhtml": ONE},
                files={
                    "META-INF/encryption.xml": ENCRYPTION.format(
                        algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc", uri="OEBPS/one.xhtml"
                    )
                },
            ),
            "encrypted",
        ),
    ],
)
def test_broken_or_hostile_books_are_refused_with_a_reason(data: bytes, code: str) -> None:
    with pytest.raises(ParseError) as caught:
        epub.parse(data, "b.epub")
    assert caught.value.code == code


def test_font_obfuscation_is_no_drm() -> None:
    mangled = ENCRYPTION.format(algorithm="http://www.idpf.org/2008/embedding", uri="OEBPS/fonts/serif.otf")
    doc = epub.parse(book({"one.xhtml": ONE}, files={"META-INF/encryption.xml": mangled}), "b.epub")
    assert [t for _, t, _ in texts(doc)] == ["A Book", "Arrival", "The train reached Ellery at dusk."]


def test_a_zip_bomb_is_refused_from_its_directory() -> None:
    data = book({"one.xhtml": ONE, "big.xhtml": "<p>" + "a" * 3_000_000 + "</p>"})
    assert len(data) < 100_000  # deflated: what it would inflate to is in the directory only
    with pytest.raises(ParseError) as caught:
        epub.parse(data, "b.epub", ParseOptions(max_inflated_mb=1))
    assert caught.value.code == "zip_bomb"


def test_a_file_the_spine_names_again_is_read_once_where_it_first_comes() -> None:
    # SiSU's books list "ch.xhtml#o8" as items of their own: the same file again and again.
    from tests.epub_books import opf

    items = [
        ("a", "one.xhtml", "application/xhtml+xml", ""),
        ("b", "two.xhtml", "application/xhtml+xml", ""),
        ("a8", "one.xhtml#o8", "application/xhtml+xml", ""),
    ]
    files = {"OEBPS/content.opf": opf("A Book", items, ["a", "b", "a8"])}
    doc = epub.parse(book({"one.xhtml": ONE, "two.xhtml": TWO}, files=files), "b.epub")
    assert doc.metadata["chapters"] == ["OEBPS/one.xhtml", "OEBPS/two.xhtml"]
    assert [t for k, t, _ in texts(doc) if k == "heading"] == ["A Book", "Arrival", "The Inn", "Rooms"]
    assert [w.code for w in doc.warnings] == ["repeated_spine_items"]
