"""Bytes → text for the text formats (Markdown, plain text, code).

The decoded text is the user's file exactly: CRLF, tabs and trailing spaces are
kept so that every offset points into the file as the user has it. Only a byte-order
mark is dropped (it is an encoding signature, not content).

UTF-8 is the norm. UTF-16 and UTF-32 are read when a byte-order mark says so, and UTF-16
without one when its zero bytes give it away (ASCII-range text in UTF-16 has a zero in every
other byte, on one side only). A file that is not valid UTF-8 is read, with a warning that
says how: UTF-8 with its few broken bytes replaced
(U+FFFD) when it is mostly UTF-8 (a cut download, a stray byte), else in the legacy encoding
chardet detects (parsers/bytes/legacy.py: ISO-8859-2 Czech, KOI8-R Russian, Shift_JIS Japanese…), or
Windows-1252 where that reads it about as well (the Latin-1 READMEs and NEWS files of older
projects: "Schr\xf6der" is "Schröder"), unless too many of its bytes lie beyond ASCII for
Western text and chardet recognises no encoding. Refused:
binary content (a NUL byte anywhere, or many control bytes), and text that is mostly control
or replacement characters (U+FFFD: what a wrong decoding leaves).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator

from parsegate.parsers.bytes.legacy import iso2022_codec, legacy_codec
from parsegate.parsers.model import ParseError, ParseWarning

_CONTROL = bytes(range(0, 9)) + bytes(range(14, 32))
_BAD_BYTES = _CONTROL + b"\x7f"  # garbage_share's control characters (each one byte in UTF-8)
_SPACE_BYTES = b" \t\n\r\x0b\x0c"  # and the whitespace it does not count as visible
_MAX_CONTROL_BYTES = 0.1  # share of the file
MAX_GARBAGE = 0.3  # share of the non-space characters that are control or U+FFFD
# Byte-order marks, longest first: the UTF-32 LE mark begins with the UTF-16 LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_SNIFF = 8192
_BEYOND_ASCII = bytes(range(0x80, 0x100))
# Western European text in Windows-1252 has a few accented letters in a hundred (French, German,
# Portuguese: 1-6 %); Cyrillic, Greek or CJK in a legacy 8-bit or double-byte encoding, most bytes.
_MAX_LATIN_SHARE = 0.2


def decode_text(data: bytes) -> str:
    """Decode a text file, refusing binary content and garbage with a clear reason."""
    return decode_noted(data)[0]


def decode_noted(data: bytes) -> tuple[str, ParseWarning | None]:
    """The text, and a warning when the file was not valid UTF-8 (how it was read instead)."""
    encoding, body = _encoding(data)
    skipped = len(data) - len(body)
    note = None
    utf8: bytes | None = None  # the text's own UTF-8 bytes, when it was decoded from them as they are
    if encoding == "utf-8":
        _refuse_binary(body, skipped)
        text, note = _utf8(body, skipped)
        utf8 = body if note is None else None
    else:
        try:
            text = body.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(
                "invalid_encoding", f"not valid {encoding.upper()}: {exc.reason} at offset {exc.start + skipped}"
            ) from None
        if "\x00" in text:
            raise ParseError("binary", f"binary content (NUL character in {encoding.upper()} text), not a text file")
    refuse_garbage(text, utf8)
    return text, note


def _encoding(data: bytes) -> tuple[str, bytes]:
    """The encoding and the bytes after its byte-order mark."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :]
            if name.startswith("utf-16") and _utf16_order(body) not in (None, name):
                # "\xff\xfe" followed by big-endian text: a mark that contradicts the content.
                raise ParseError("binary", f"binary content (a {name.upper()} byte-order mark on other content)")
            return name, body
    detected = _utf16_order(data)
    return (detected, data) if detected else ("utf-8", data)


def _utf16_order(data: bytes) -> str | None:
    """UTF-16 byte order told by where the zero bytes are, or None when they tell nothing:
    ASCII-range UTF-16 text has a zero in most odd bytes (LE) or most even bytes (BE) and
    almost none on the other side."""
    sample = data[: _SNIFF - _SNIFF % 2]
    if len(sample) < 8 or len(data) % 2:
        return None
    even, odd = sample[0::2], sample[1::2]
    zero_even, zero_odd = even.count(0) / len(even), odd.count(0) / len(odd)
    if zero_odd > 0.5 and zero_even < 0.02:
        return "utf-16-le"
    if zero_even > 0.5 and zero_odd < 0.02:
        return "utf-16-be"
    return None


def _refuse_binary(data: bytes, skipped: int) -> None:
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ParseError("binary", f"binary content (NUL byte at offset {nul + skipped}), not a text file")
    head = data[:_SNIFF]
    if head and (len(head) - len(head.translate(None, _CONTROL))) / len(head) > _MAX_CONTROL_BYTES:
        raise ParseError("binary", "binary content (over 10% control bytes), not a text file")


def _utf8(data: bytes, skipped: int) -> tuple[str, ParseWarning | None]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        first = f"byte 0x{data[exc.start : exc.start + 1].hex()} at offset {exc.start + skipped}"
    else:
        return _iso2022(data, text)
    replaced = data.decode("utf-8", errors="replace")
    own = data.count("\ufffd".encode())  # the file's own U+FFFD characters are no broken bytes
    if mostly_utf8(replaced, own):
        broken = replaced.count("\ufffd") - own
        why = f"not valid UTF-8 ({first}): read as UTF-8, {broken} broken byte sequence(s) replaced by U+FFFD"
        return replaced, ParseWarning("not_utf8", why)
    guess = legacy_codec(data)
    codec, language = guess if guess is not None else ("cp1252", None)
    beyond = (len(data) - len(data.translate(None, _BEYOND_ASCII))) / max(1, len(data))
    if codec == "cp1252" and beyond > _MAX_LATIN_SHARE:
        # Read as Windows-1252 it would be all accented Latin letters, and the gate, reading the
        # bytes the same way, could not tell.
        raise ParseError(
            "invalid_utf8",
            f"not valid UTF-8 ({first}), and {beyond:.0%} of its bytes lie beyond ASCII, too many for"
            " Western text, in no other encoding chardet recognises: re-save the file as UTF-8",
        )
    if codec == "cp1252":
        how = "as Windows-1252, as browsers read a page that names no encoding"
    else:
        how = f"as {codec.upper()}, the encoding chardet detects{f' ({language} text)' if language else ''}"
    why = f"not valid UTF-8 ({first}): read {how}; re-save it as UTF-8 to be sure"
    return data.decode(codec, errors="replace"), ParseWarning("not_utf8", why)


def _iso2022(data: bytes, text: str) -> tuple[str, ParseWarning | None]:
    """7-bit ISO-2022 text is read in its codec; other UTF-8 that holds ESC $ stays as it is."""
    codec = iso2022_codec(data)
    if codec is None:
        return text, None
    why = (
        f"7-bit text with ISO-2022 escape sequences: read as {codec.upper()}, the encoding chardet"
        " detects; re-save it as UTF-8 to be sure"
    )
    return data.decode(codec, errors="replace"), ParseWarning("not_utf8", why)


def garbage_share(text: str, utf8: bytes | None = None) -> float:
    """Share of the non-whitespace characters that are control characters or U+FFFD (counted on
    the UTF-8 bytes: a few passes in C instead of one per character kind). ``utf8``: the text's
    UTF-8 bytes, when the caller decoded it from them (they are not made again)."""
    data = text.encode("utf-8", "surrogatepass") if utf8 is None else utf8
    # The bytes of a kind are counted by deleting them all in one C pass.
    bad = len(data) - len(data.translate(None, _BAD_BYTES))
    if not data.isascii():  # U+FFFD is three bytes beyond ASCII: ASCII text holds none
        bad += text.count("\ufffd")  # (one character in the text: counted faster than 3 bytes)
    if not bad:  # the share is 0 whatever the visible characters (most text: not counted)
        return 0.0
    visible = len(text) - (len(data) - len(data.translate(None, _SPACE_BYTES)))
    return bad / visible if visible > 0 else 0.0


def mostly_utf8(replaced: str, own: int = 0) -> bool:
    """Whether bytes decoded as UTF-8 with replacement (``replaced``; ``own`` U+FFFD characters
    were in the file already) are UTF-8 with a few broken bytes (a truncated download, a stray
    byte from a concatenation): more valid non-ASCII characters than invalid sequences. Read as
    Windows-1252, every accented letter of such a file becomes two or three wrong ones ("GrÃ¶ÃŸe");
    Windows-1252 text has almost no valid multi-byte sequence (an accented letter before ASCII is
    invalid)."""
    invalid = replaced.count("\ufffd") - own
    beyond_ascii = len(replaced) - len(replaced.encode("ascii", "ignore"))  # counted in C, not per character
    return beyond_ascii - invalid > invalid


def refuse_garbage(text: str, utf8: bytes | None = None) -> None:
    """Refuse text that is mostly control or replacement characters: no chunk of it means anything
    (``utf8``: as for garbage_share)."""
    share = garbage_share(text, utf8)
    if share > MAX_GARBAGE:
        raise ParseError(
            "garbage_text",
            f"{share:.0%} of the text is control or replacement characters (U+FFFD), over {MAX_GARBAGE:.0%}: "
            "a binary file or a wrong decoding",
        )


# -- is it text at all? (a file no suffix names, stdin: parsers/detect) ---------------------------

# C0 controls but tab, line feed, vertical tab, form feed, carriage return and ESC; and DEL.
_BINARY_CONTROLS = bytes(range(0, 9)) + bytes(range(14, 27)) + bytes(range(28, 32)) + b"\x7f"
_LEGACY_MIN_BYTES = 32


def looks_like_text(head: bytes) -> bool:
    """Whether a file with no parser for its suffix (README, NEWS, a changelog) is text: it decodes
    as UTF-8 (or a byte-order mark's encoding), or it decodes otherwise (decode.py: a legacy
    encoding), has 32 bytes or more, and none of them is a control character but whitespace and
    ESC. Binary formats have such bytes in their first kilobytes (PNG's \\x1a, gzip's \\x1f, a
    JPEG's segment lengths) and would decode as Windows-1252 all the same; text in any 8-bit
    encoding has none. 23 of the 2,024 suffix-less text files under Debian's /usr/share/doc are
    not UTF-8 (old changelogs, NEWS, AUTHORS in Latin-1): all 23 are read now, and none of 168
    binary files of 31 kinds under /usr with their suffixes taken off."""
    return decoded_sample(head, 4096) is not None


def decoded_sample(data: bytes, size: int) -> str | None:
    """The text of about ``size`` first bytes of ``data``, when they are text (looks_like_text);
    else None."""
    for sample in _samples(data, size):
        try:
            text, note = decode_noted(sample)
        except ParseError:
            continue
        if note is None:
            return text
        # Too short to tell text from a binary header ("\\x89PNG\\r\\n"), or a control byte in it.
        plain = len(sample) >= _LEGACY_MIN_BYTES and len(sample.translate(None, _BINARY_CONTROLS)) == len(sample)
        return text if plain else None
    return None


def _samples(data: bytes, size: int) -> Iterator[bytes]:
    """The first ``size`` bytes cut after a line feed (a UTF-8 character is never cut), then cut at
    a multiple of four bytes (a UTF-16 or UTF-32 character is never cut: its line feed's byte is
    not the last of it in little-endian order)."""
    sample = data[:size]
    if len(data) <= size:
        yield sample
        return
    cut = sample.rfind(b"\n")
    yield sample[: cut + 1] if cut > 0 else sample
    yield sample[: len(sample) - len(sample) % 4]
