"""Bytes → text for the text formats (Markdown, plain text, code).

The decoded text is the user's file exactly: CRLF, tabs and trailing spaces are
kept so that every offset points into the file as the user has it. Only a UTF-8
byte-order mark is dropped (it is an encoding signature, not content).
"""

from __future__ import annotations

from parsers.model import ParseError

_SNIFF_BYTES = 8192
_CONTROL = bytes(range(0, 9)) + bytes(range(14, 32))


def decode_text(data: bytes) -> str:
    """Decode UTF-8 text, refusing binary content and invalid bytes with a clear reason."""
    head = data[:_SNIFF_BYTES]
    if b"\x00" in head:
        raise ParseError("binary", f"binary content (NUL byte at offset {head.index(0)}), not a text file")
    if head and sum(head.count(bytes([c])) for c in _CONTROL) / len(head) > 0.1:
        raise ParseError("binary", "binary content (over 10% control bytes), not a text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1].hex()
        raise ParseError(
            "invalid_utf8",
            f"not valid UTF-8: byte 0x{bad} at offset {exc.start} ({exc.reason}); re-save the file as UTF-8",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text
