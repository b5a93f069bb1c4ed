"""An EPUB's package, read with the standard library's zipfile and lxml: META-INF/container.xml
names the package document (the OPF), whose manifest lists the book's files and whose spine gives
their reading order; META-INF/encryption.xml says which files are ciphertext.

Every XML file is read without a DTD, entity expansion or network access, and one that declares
entities (``<!ENTITY``, the billion-laughs shape) is refused before lxml sees it; the archive's
sizes are checked from its directory before anything is inflated (the office parser's check_zip).
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from lxml import etree

from parsegate.parsers.model import ParseError
from parsegate.parsers.office.checks import check_zip

CONTAINER = "META-INF/container.xml"
ENCRYPTION = "META-INF/encryption.xml"
_OPF = "{http://www.idpf.org/2007/opf}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_CONTAINER_NS = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_ENC = "{http://www.w3.org/2001/04/xmlenc#}"
CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html", "application/html"})


@dataclass(frozen=True)
class Item:
    path: str  # inside the zip
    media_type: str
    nav: bool = False  # the EPUB 3 navigation document (the table of contents)


@dataclass
class Book:
    archive: zipfile.ZipFile
    package: str  # the OPF's path
    title: str | None
    spine: list[Item]
    toc: str | None = None  # the nav document's or NCX's path
    metadata: dict[str, str] = field(default_factory=dict)
    repeated: int = 0  # spine entries naming a file an earlier one named

    def read(self, path: str) -> bytes | None:
        return read_entry(self.archive, path)


def open_book(data: bytes, max_inflated_mb: float) -> Book:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise ParseError("corrupt", "not a valid .epub file (an EPUB is a zip archive; this one is not)") from None
    check_zip(data, "epub", max_inflated_mb)  # zip bombs; DTDs in its .xml files
    container = read_entry(archive, CONTAINER)
    if container is None:
        raise ParseError("no_container", f"{CONTAINER} is missing: no EPUB (it names the book's package document)")
    rootfile = next(
        (
            el.get("full-path")
            for el in xml(container, CONTAINER).iter(f"{_CONTAINER_NS}rootfile")
            if el.get("full-path") and el.get("media-type", "application/oebps-package+xml").endswith("package+xml")
        ),
        None,
    )
    if rootfile is None:
        raise ParseError("no_package", f"{CONTAINER} names no package document (rootfile)")
    package = posixpath.normpath(unquote(rootfile).lstrip("/"))
    opf_data = read_entry(archive, package)
    if opf_data is None:
        raise ParseError("no_package", f"the package document {package} that {CONTAINER} names is not in the file")
    book = _package(archive, package, xml(opf_data, package))
    _refuse_encrypted(archive, book)
    return book


def _package(archive: zipfile.ZipFile, package: str, opf: etree._Element) -> Book:
    base = posixpath.dirname(package)
    manifest: dict[str, Item] = {}
    for el in opf.iter(f"{_OPF}item"):
        href, ident = el.get("href"), el.get("id")
        if not href or not ident:
            continue
        path = posixpath.normpath(posixpath.join(base, unquote(urlsplit(href).path)))
        is_nav = "nav" in (el.get("properties") or "").split()
        manifest[ident] = Item(path, (el.get("media-type") or "").strip().lower(), is_nav)
    spine_el = next(opf.iter(f"{_OPF}spine"), None)
    if spine_el is None:
        raise ParseError("no_spine", f"the package document {package} has no spine (no reading order)")
    listed = [manifest[ref.get("idref", "")] for ref in spine_el.iter(f"{_OPF}itemref") if ref.get("idref") in manifest]
    # A file the spine names again (SiSU lists "ch.xhtml#o8", "ch.xhtml#o12"… as items of their
    # own) is read once, where it first comes: its text is the book's once.
    first: dict[str, Item] = {}
    for item in listed:
        first.setdefault(item.path, item)
    spine = list(first.values())
    nav = next((item.path for item in manifest.values() if item.nav), None)
    ncx = manifest.get(spine_el.get("toc") or "")
    meta: dict[str, str] = {}
    for key in ("title", "creator", "language", "identifier"):
        value = next((" ".join("".join(el.itertext()).split()) for el in opf.iter(f"{_DC}{key}")), "")
        if value:
            meta[key] = value
    book = Book(archive, package, meta.get("title"), spine, nav or (ncx.path if ncx else None), meta)
    book.repeated = len(listed) - len(spine)
    return book


def _refuse_encrypted(archive: zipfile.ZipFile, book: Book) -> None:
    """DRM (Adobe ADEPT, Readium LCP…) encrypts the chapters and lists them in encryption.xml;
    fonts listed there (the IDPF's and Adobe's font obfuscation, no DRM) do not keep the text from us."""
    data = read_entry(archive, ENCRYPTION)
    if data is None:
        return
    chapters = {item.path for item in book.spine}
    locked = []
    for entry in xml(data, ENCRYPTION).iter(f"{_ENC}EncryptedData"):
        for ref in entry.iter(f"{_ENC}CipherReference"):
            path = posixpath.normpath(unquote(ref.get("URI") or "").lstrip("/"))
            if path in chapters:
                locked.append(path)
    if locked:
        raise ParseError(
            "encrypted",
            f"the book is encrypted (DRM): {len(locked)} of its {len(chapters)} chapters ({locked[0]}…) are "
            f"ciphertext ({ENCRYPTION}); remove the DRM with the rights holder's tools first",
        )


def read_entry(archive: zipfile.ZipFile, path: str) -> bytes | None:
    """A file of the archive (None when it has none of that name); a broken one is a ParseError."""
    try:
        info = archive.getinfo(path)
    except KeyError:
        return None
    try:
        data = archive.read(info)
    except RuntimeError:  # a password-protected zip entry
        raise ParseError("encrypted", f"{path} is encrypted in the zip (a password is needed)") from None
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, ValueError, OSError, EOFError) as exc:
        raise ParseError("corrupt", f"{path} cannot be read from the archive ({exc})") from None
    refuse_entities(path, data)
    return data


def refuse_entities(path: str, data: bytes) -> None:
    head = data[:8192]
    if b"<!ENTITY" in head or b"<!entity" in head:
        raise ParseError(
            "unsafe_xml", f"{path} declares entities (possible XXE or entity expansion); refused, nothing expanded"
        )


def xml(data: bytes, path: str) -> etree._Element:
    """An XML file of the package: no DTD loaded, no entity resolved, nothing fetched."""
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, remove_pis=True
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ParseError("corrupt", f"{path} is not well-formed XML ({exc})") from None
    if root is None:
        raise ParseError("corrupt", f"{path} is empty")
    return root
