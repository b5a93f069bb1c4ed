"""An EPUB read on its own for the gate: the book's title (the OPF's ``dc:title``) and the text
nodes of every spine item, in spine order, each XHTML file read by lxml as a web page is
(web.py ``text_nodes``: all visible text, nothing decided about structure or chrome).

Its own walk of the package (zipfile, container.xml, the OPF's manifest and spine), not the
parser's: a chapter the parser drops, reads out of order or short loses its words against this
reading (extraction recall, chapter by chapter: each chapter's words against the chunks that name
it), and words the parser makes up are in no chapter (localization).
What the parser declared furniture (the table of contents, images' alt text) is taken out of this
reference by the recall check and listed with its reason.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from lxml import etree

from parsegate.quality_gates.references.web import text_nodes

_OPF = "{http://www.idpf.org/2007/opf}"
_MOST_PER_FILE = 200_000_000  # bytes inflated per file; the parser refused bigger books already


@dataclass
class EpubReading:
    title: list[str]  # the OPF's dc:title, when it has one
    # The text nodes of each file of the spine, by its place there (1-based, a file the spine names
    # again counted once: the parser's ``page``); a file that is no web page holds none.
    chapters: dict[int, list[str]]

    @property
    def nodes(self) -> list[str]:
        return [*self.title, *(node for nodes in self.chapters.values() for node in nodes)]


def epub_reading(data: bytes) -> EpubReading | None:
    """The title and the spine items' text nodes in reading order, or None when the file is no
    EPUB this reading can follow (the parser refused it, then)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        container = _xml(_read(archive, "META-INF/container.xml"))
        full_path = next((el.get("full-path") for el in container.iter() if el.get("full-path")), None)
        if full_path is None:
            return None
        package = posixpath.normpath(unquote(full_path).lstrip("/"))
        opf = _xml(_read(archive, package))
        base = posixpath.dirname(package)
        hrefs = {
            el.get("id"): posixpath.normpath(posixpath.join(base, unquote(urlsplit(el.get("href") or "").path)))
            for el in opf.iter(f"{_OPF}item")
            if el.get("href")
        }
        title = opf.find(".//{http://purl.org/dc/elements/1.1/}title")
        said = " ".join("".join(title.itertext()).split()) if title is not None else ""
        chapters: dict[int, list[str]] = {}
        seen: set[str] = set()  # a file the spine names twice is the book's text once
        for ref in opf.iter(f"{_OPF}itemref"):
            path = hrefs.get(ref.get("idref"))
            if path is None or path in seen:
                continue
            seen.add(path)
            number = len(seen)
            if not path.endswith((".xhtml", ".html", ".htm", ".xml")):
                continue
            try:
                chapter = _read(archive, path)
            except KeyError:
                continue  # the parser warns of it; its text is in no reading
            chapters[number] = text_nodes(chapter) or []
        return EpubReading([said] if said else [], chapters)
    except (KeyError, ValueError, OSError, EOFError, RuntimeError, zipfile.BadZipFile, etree.XMLSyntaxError):
        return None


def _read(archive: zipfile.ZipFile, name: str) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > _MOST_PER_FILE:
        raise ValueError(name)
    return archive.read(info)


def _xml(data: bytes) -> etree._Element:
    if b"<!ENTITY" in data[:8192]:
        raise ValueError("entities declared")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    root = etree.fromstring(data, parser)
    if root is None:
        raise ValueError("empty")
    return root
