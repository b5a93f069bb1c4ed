"""A text file's bytes decoded by the gate on its own, not by the parser's decoder: the
reference the checks of text formats (Markdown, plain text, code) compare chunks with, and a web
page's bytes as the HTML standard decodes them, for docling and libxml2 to read."""

from __future__ import annotations

import codecs
import re

from parsegate.parsers.bytes.legacy import iso2022_codec, legacy_codec

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16's: FF FE 00 00 starts with FF FE
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


_CHARSET = re.compile(rb"charset\s*=", re.IGNORECASE)


def decode(data: bytes) -> str:
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
    chardet detects (parsers/bytes/legacy.py: an encoding is a guess no reading of the bytes can check,
    so the gate takes the same one as the parser), or Windows-1252, the WHATWG default for a page
    naming no encoding (a Latin-1 README's "Schr\xf6der")."""
    as_utf8 = data.decode("utf-8", errors="replace")
    broken = as_utf8.count("\ufffd") - data.count(b"\xef\xbf\xbd")  # not the file's own U+FFFD
    multibyte = len(as_utf8) - len(as_utf8.encode("ascii", "ignore")) - broken  # counted in C
    if multibyte > broken:
        return as_utf8
    guess = legacy_codec(data) if detect else None
    return data.decode(guess[0] if guess else "cp1252", errors="replace")


def standard_html_bytes(data: bytes) -> bytes:
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
