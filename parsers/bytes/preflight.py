"""Checks on what a file would *become* once inflated or decoded, run before any parser library
inflates or decodes it: the bytes each zip member really inflates to (counted while inflating,
stopped at the limit, whatever the zip directory claims), the bytes each PDF stream inflates to
(the same, on a scan of the file's stream dictionaries), and the pixel count of every image (read
from its header; nothing is decoded).

Limits (``ParseOptions``): ``max_inflated_mb`` (200; PARSEGATE_MAX_INFLATED_MB on the command line)
for everything a file inflates to, and ``max_image_pixels`` (100 million; PARSEGATE_MAX_IMAGE_PIXELS)
per image. Each refusal names the member or stream.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import struct
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from parsegate.parsers.formats import suffixes_of
from parsegate.parsers.model import ParseError
from parsegate.parsers.options import DEFAULTS, ParseOptions

_CHUNK = 1 << 20  # compressed bytes fed at a time
_OUT = 1 << 22  # and at most this much inflated output held at a time
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".emf", ".wmf", ".jp2")
_IMAGE_HEAD = 1 << 18  # bytes of an image enough for its dimensions (JPEG keeps them after EXIF)
_HTML_SUFFIXES = suffixes_of("html")  # parsers/formats.py


def preflight(data: bytes, suffix: str = "", options: ParseOptions = DEFAULTS) -> None:
    """Refuse a file whose inflated content or images are over the limits (ParseError)."""
    limits = Limits(int(options.max_inflated_mb * 1_000_000), options.max_image_pixels)
    if data.startswith(b"PK\x03\x04"):
        check_zip(data, limits)
    elif b"%PDF-" in data[:1024]:
        check_pdf(data, limits)
    elif suffix.lower() in _HTML_SUFFIXES:
        check_data_uris(data, limits)


@dataclass(frozen=True)
class Limits:
    inflated: int  # bytes a file may inflate to, all members or streams together
    pixels: int  # pixels an image may have


# -- zip archives (DOCX, PPTX, XLSX) ----------------------------------------------------


def check_zip(data: bytes, limits: Limits) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not readable as a zip: the parser says so in its own words
    limit, total = limits.inflated, 0
    with archive:
        for info in archive.infolist():
            if info.flag_bits & 0x1 or info.is_dir():
                continue  # encrypted members cannot be inflated without their key
            try:
                size = _member_size(data, archive, info, limit - total)
            except (struct.error, zipfile.BadZipFile, OSError, EOFError):
                return  # a broken member: the parser says so in its own words
            total += size
            if total > limit:
                raise ParseError(
                    "zip_bomb",
                    f"inflates past the {limit / 1e6:.0f} MB limit (PARSEGATE_MAX_INFLATED_MB), at member "
                    f"{info.filename}; stopped while inflating",
                )
            if size > info.file_size:
                raise ParseError(
                    "zip_bomb",
                    f"{info.filename} inflates to more than the {info.file_size} bytes the zip directory "
                    "claims (a directory that lies about sizes); refused",
                )
            if info.filename.lower().endswith(_IMAGE_SUFFIXES):
                _check_image(_member_head(data, archive, info), info.filename, limits.pixels)


def _member_size(data: bytes, archive: zipfile.ZipFile, info: zipfile.ZipInfo, room: int) -> int:
    """The bytes a member really inflates to, counted up to ``room`` + 1 (then it stops)."""
    if info.compress_type == zipfile.ZIP_STORED:
        return info.compress_size
    if info.compress_type == zipfile.ZIP_DEFLATED:
        return _inflated_size(zlib.decompressobj(-zlib.MAX_WBITS), _raw(data, info), room)
    with archive.open(info) as member:  # bzip2, lzma: zipfile streams them
        total = 0
        while chunk := member.read(_OUT):
            total += len(chunk)
            if total > room:
                break
        return total


def _raw(data: bytes, info: zipfile.ZipInfo) -> memoryview:
    """A member's compressed bytes, found from its local header (not from the directory's sizes:
    inflation stops where the deflate stream itself ends)."""
    offset = info.header_offset
    if data[offset : offset + 4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"no local header for {info.filename}")
    name_len, extra_len = struct.unpack("<HH", data[offset + 26 : offset + 30])
    return memoryview(data)[offset + 30 + name_len + extra_len :]


def _inflated_size(
    inflater: zlib._Decompress, source: memoryview, room: int, look: Callable[[bytes], None] | None = None
) -> int:
    """The bytes a stream inflates to, stopping once past ``room`` or at the end of the stream
    (a corrupt stream ends the count where it breaks). Output is held 4 MB at a time, and shown to
    ``look`` piece by piece."""
    total = pos = 0
    while pos < len(source) and not inflater.eof and total <= room:
        chunk = source[pos : pos + _CHUNK]
        pos += len(chunk)
        try:
            out = inflater.decompress(chunk, _OUT)
            total += len(out)
            if look is not None:
                look(out)
            # (after the end of the stream, zlib keeps the rest as unconsumed_tail: not more output)
            while inflater.unconsumed_tail and not inflater.eof and total <= room:
                out = inflater.decompress(inflater.unconsumed_tail, _OUT)
                total += len(out)
                if look is not None:
                    look(out)
        except zlib.error:
            break
    return total


def _member_head(data: bytes, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    with archive.open(info) as member:
        return member.read(_IMAGE_HEAD)


# -- images -------------------------------------------------------------------------------


def _check_image(head: bytes, where: str, max_pixels: int) -> None:
    size = image_size(head)
    if size is None:
        return
    width, height = size
    if width * height > max_pixels:
        raise ParseError(
            "image_too_large",
            f"{where} is {width}×{height} pixels ({width * height / 1e6:.0f} MP), over the "
            f"{max_pixels / 1e6:.0f} MP limit (PARSEGATE_MAX_IMAGE_PIXELS); refused before decoding",
        )


def image_size(head: bytes) -> tuple[int, int] | None:
    """Width and height from an image's header (Pillow reads only the header here), or None. Without
    Pillow (an install with neither the pdf nor the office extra) None: no parser there decodes images.
    The registry refuses an Office file there as missing_extra before this check (parsers/formats.py
    names each extra's modules); what still comes here is a web page's inline images (the core reads
    web pages) and images inside a zip some other parser is asked for (the text parser refuses it)."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ModuleNotFoundError:
        return None

    limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None  # we want the size, not Pillow's own refusal
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(head)) as image:
                return image.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, struct.error):
        return None
    finally:
        Image.MAX_IMAGE_PIXELS = limit


# -- PDF ----------------------------------------------------------------------------------

_STREAM = re.compile(rb"(?<!end)stream(?:\r\n|\n|\r)")
# "N G obj", never starting inside a run of digits: unanchored, each digit of a long run (an inline
# image, a content stream's numbers) started a match that scanned the rest of the run, quadratic.
_OBJ = re.compile(rb"(?<!\d)\d+\s+\d+\s+obj\b")
_DICT_WINDOW = 16384
_IMAGE = re.compile(rb"/Subtype\s*/Image\b")
_WIDTH = re.compile(rb"/Width\s+(\d+)")
_HEIGHT = re.compile(rb"/Height\s+(\d+)")


def check_pdf(data: bytes, limits: Limits) -> None:
    """Inflate every Flate stream that is not an image (content, fonts, object streams) with a
    count, stopping at the limit; read image sizes from their dictionaries."""
    if b"/Encrypt" in data:
        return  # encrypted streams cannot be inflated here; the memory limit still holds
    limit, total = limits.inflated, 0
    for number, dictionary, start in _streams(data):
        if _IMAGE.search(dictionary):
            _check_pdf_image(dictionary, number, limits.pixels)
            continue
        inline = _InlineImages(number, limits.pixels)
        if b"/Filter" not in dictionary:  # a content stream as it is: its inline images, if any
            end = data.find(b"endstream", start)
            inline(data[start : end if end >= 0 else len(data)])
            continue
        if b"/FlateDecode" not in dictionary:
            continue
        size = _inflated_size(zlib.decompressobj(), memoryview(data)[start:], limit - total, inline)
        total += size
        if total > limit:
            raise ParseError(
                "inflation_limit",
                f"PDF streams inflate past the {limit / 1e6:.0f} MB limit (PARSEGATE_MAX_INFLATED_MB), at object "
                f"{number}; stopped while inflating, before PDFium reads it",
            )


def _streams(data: bytes) -> Iterator[tuple[str, bytes, int]]:
    """(object number, dictionary, where the stream's data starts) for each stream."""
    for match in _STREAM.finditer(data):
        window_start = max(0, match.start() - _DICT_WINDOW)
        window = data[window_start : match.start()]
        headers = list(_OBJ.finditer(window))
        if not headers:
            continue
        header = headers[-1]
        yield header.group(0).split()[0].decode(), window[header.end() :], match.end()


def _check_pdf_image(dictionary: bytes, number: str, max_pixels: int) -> None:
    width, height = _WIDTH.search(dictionary), _HEIGHT.search(dictionary)
    if width is None or height is None:
        return
    w, h = int(width.group(1)), int(height.group(1))
    if w * h > max_pixels:
        raise ParseError(
            "image_too_large",
            f"image object {number} is {w}×{h} pixels ({w * h / 1e6:.0f} MP), over the "
            f"{max_pixels / 1e6:.0f} MP limit (PARSEGATE_MAX_IMAGE_PIXELS); refused before decoding",
        )


# An inline image in a content stream: "BI /W 45000 /H 45000 /CS /G /BPC 8 ID <data> EI". Its
# dictionary names the size with the abbreviated keys (/W, /H) or the full ones.
_INLINE = re.compile(rb"(?:^|\s)BI\s*/")
_INLINE_DICT = 1024  # bytes after BI in which the dictionary ends (at ID)
_INLINE_WIDTH = re.compile(rb"/(?:W|Width)\s+(\d+)")
_INLINE_HEIGHT = re.compile(rb"/(?:H|Height)\s+(\d+)")


class _InlineImages:
    """Looks at a content stream piece by piece (as it inflates) for inline images over the pixel
    limit; a dictionary cut between two pieces is read whole from the carried tail."""

    def __init__(self, number: str, max_pixels: int) -> None:
        self.number, self.max_pixels, self.tail = number, max_pixels, b""
        self.open = False  # the last piece ended inside an inline image's dictionary

    def __call__(self, piece: bytes) -> None:
        if not self.open and b"BI" not in piece and b"BI" not in self.tail[-2:] + piece[:2]:
            self.tail = piece[-(_INLINE_DICT + 8) :]  # (most content streams hold no inline image)
            return
        buffer, self.open = self.tail + piece, False
        for match in _INLINE.finditer(buffer):
            head = buffer[match.end() - 1 : match.end() + _INLINE_DICT]
            cut = re.search(rb"\sID\s", head)
            if cut is None:
                if match.end() + _INLINE_DICT > len(buffer):
                    self.open = True  # its dictionary runs on into the next piece: seen again with the tail
                    break
                continue  # no ID: not an inline image ("BI /W" in a string a page shows)
            dictionary = head[: cut.start()]
            w, h = _INLINE_WIDTH.search(dictionary), _INLINE_HEIGHT.search(dictionary)
            if w is None or h is None:
                continue
            width, height = int(w.group(1)), int(h.group(1))
            if width * height > self.max_pixels:
                raise ParseError(
                    "image_too_large",
                    f"an inline image in stream object {self.number} is {width}×{height} pixels "
                    f"({width * height / 1e6:.0f} MP), over the {self.max_pixels / 1e6:.0f} MP limit "
                    "(PARSEGATE_MAX_IMAGE_PIXELS); refused before decoding",
                )
        self.tail = buffer[-(_INLINE_DICT + 8) :]


# -- HTML -----------------------------------------------------------------------------------

_DATA_URI = re.compile(rb"data:image/[\w.+-]+;base64,([A-Za-z0-9+/]{16,4096})")


def check_data_uris(data: bytes, limits: Limits) -> None:
    """Images inlined as base64 data URIs: their headers say their size."""
    for n, match in enumerate(_DATA_URI.finditer(data)):
        head = match.group(1)
        try:
            raw = base64.b64decode(head[: len(head) - len(head) % 4])
        except (binascii.Error, ValueError):
            continue
        _check_image(raw, f"inline image {n + 1}", limits.pixels)
