"""The independent signal each check compares chunks with, opened once per document.

- text formats (Markdown, plain text, code): the source file's bytes, decoded here again;
- PDF: PDFium's raw text layer and its text inside a box;
- Office and HTML: docling's own plain-text export of the file; for HTML also the file's text
  nodes as libxml2 reads them (html_source.py), for what docling's HTML backend drops.

None of these come from parsegate's parsers: a parser that loses, alters or misplaces text
cannot hide it by agreeing with itself.
"""

from __future__ import annotations

import bisect
import codecs
import importlib.util
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsegate.parsers.legacy import iso2022_codec, legacy_codec
from parsegate.quality_gates.office_source import BACKENDS, docling_text

if TYPE_CHECKING:
    from parsegate.quality_gates.pdf_source import PdfSource

TEXT_FORMATS = frozenset({"markdown", "text", "code"})
OFFICE_FORMATS = frozenset({*BACKENDS, "docling"})
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass
class Reference:
    kind: str  # "source file" | "PDFium text layer" | "docling export" | "libxml2 reading (…)"
    text: str = ""  # the decoded source file, or docling's export of the body
    everything: str = ""  # Office: all of docling's text, furniture layer and sheet names too
    pdf: PdfSource | None = None
    html_nodes: list[str] | None = None  # HTML: the file's visible text nodes (lxml)
    _line_starts: list[int] | None = None

    def close(self) -> None:
        if self.pdf is not None:
            self.pdf.close()

    def lines_of(self, start: int, end: int) -> tuple[int, int]:
        """1-based first and last line of a span of the source (CR, LF and CRLF end a line)."""
        if self._line_starts is None:
            self._line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(self.text))]
        first = bisect.bisect_right(self._line_starts, start)
        return first, bisect.bisect_right(self._line_starts, max(start, end - 1))


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16's: FF FE 00 00 starts with FF FE
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


_CHARSET = re.compile(rb"charset\s*=", re.IGNORECASE)


def _decode(data: bytes) -> str:
    """The source's text, decoded here on its own (not by the parser's decoder): the encoding a
    byte-order mark names; UTF-16 when the file has zero bytes (ASCII in UTF-16 is every other
    byte zero, on the side its byte order puts them); else UTF-8."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding)
    if b"\x00" in data:
        big_endian = data[0::2].count(0) > data[1::2].count(0)
        return data.decode("utf-16-be" if big_endian else "utf-16-le")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _not_utf8(data, detect=True)
    codec = iso2022_codec(data)  # 7-bit ISO-2022, valid UTF-8 as it stands
    return text if codec is None else data.decode(codec, errors="replace")


def _not_utf8(data: bytes, detect: bool = False) -> str:
    """Bytes that are not valid UTF-8: UTF-8 with its broken bytes replaced when most of what is
    beyond ASCII is valid UTF-8 (a cut download); else, with ``detect``, in the legacy encoding
    chardet detects (parsers/legacy.py: an encoding is a guess no reading of the bytes can check,
    so the gate takes the same one as the parser), or Windows-1252, the WHATWG default for a page
    naming no encoding (a Latin-1 README's "Schr\xf6der")."""
    as_utf8 = data.decode("utf-8", errors="replace")
    broken = as_utf8.count("\ufffd") - data.count(b"\xef\xbf\xbd")  # not the file's own U+FFFD
    multibyte = len(as_utf8) - len(as_utf8.encode("ascii", "ignore")) - broken  # counted in C
    if multibyte > broken:
        return as_utf8
    guess = legacy_codec(data) if detect else None
    return data.decode(guess[0] if guess else "cp1252", errors="replace")


def _standard_html_bytes(data: bytes) -> bytes:
    """A web page as the HTML standard decodes it, in UTF-8, for the references to read. A page
    that names no encoding (no byte-order mark, no charset in its first 1,024 bytes) and is not
    UTF-8 is windows-1252 (WHATWG Encoding, the default for such documents); left to guess,
    docling's backend (BeautifulSoup, charset detection) read an old Latin-1 page's "\xe6gis" as
    "\u0107gis" (ISO-8859-2), and the gate then reported the page's own word as not in the file.
    Mostly UTF-8 with a broken byte or two is UTF-8, the broken bytes replaced (the detector
    took such a page for Shift-JIS)."""
    if any(data.startswith(bom) for bom, _ in _BOMS) or _CHARSET.search(data[:1024]):
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return _not_utf8(data).encode("utf-8")  # not a guess at Shift-JIS ("Grテカテ歹") for a broken byte
    return data


def open_reference(fmt: str, data: bytes | None, doc_id: str) -> Reference | None:
    """The independent view of a document's source, or None when there is none to be had."""
    if data is None:
        return None
    if fmt in TEXT_FORMATS:
        try:
            text = _decode(data)
        except UnicodeDecodeError:
            return None
        return Reference("source file", text.removeprefix("\ufeff"))
    if fmt == "pdf":
        from parsegate.quality_gates.pdf_source import open_pdf  # PDFium: the pdf extra's

        pdf = open_pdf(data)
        return None if pdf is None else Reference("PDFium text layer", pdf=pdf)
    if fmt in OFFICE_FORMATS:
        if fmt == "html":
            data = _standard_html_bytes(data)
        # Web pages are read without the office extra (our lxml pass): there docling is not installed.
        docling = fmt != "html" or importlib.util.find_spec("docling") is not None
        exported = docling_text(data, fmt, doc_id) if docling else None
        nodes = None
        if fmt == "html":
            from parsegate.quality_gates.html_source import text_nodes

            nodes = text_nodes(data)
        if exported is None:
            if not nodes:
                return None
            why = "docling could not read the page" if docling else "docling is not installed"
            reading = "\n".join(nodes)  # libxml2's reading alone
            return Reference(f"libxml2 reading ({why})", reading, reading, html_nodes=nodes)
        return Reference("docling export", *exported, html_nodes=nodes)
    return None
