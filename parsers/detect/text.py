"""Whether bytes are text, and their decoded sample: UTF-8 (or a byte-order mark's encoding,
UTF-16 and UTF-32 included), or a legacy 8-bit encoding with no control byte but whitespace."""

from __future__ import annotations

from collections.abc import Iterator

from parsegate.parsers.decode import decode_noted
from parsegate.parsers.model import ParseError

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
