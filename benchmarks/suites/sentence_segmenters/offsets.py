"""Exact integer offsets from any segmenter's output, verified on every output.

Most segmenters hand back sentence strings, some of them with whitespace normalised (nupunkt-rs
joins lines with single spaces, blingfire puts a line break between sentences). As long as a
segmenter keeps every non-whitespace character of its input in order, the pieces can be laid back
onto the input: walk the input and the piece together, skipping whitespace on both sides, and
require every other character to match. The result is a trimmed (start, end) per piece, and the
walk itself is the verification: a dropped, added or changed character raises OffsetError.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_SPACE = re.compile(r"\s*")


class OffsetError(ValueError):
    pass


def align_pieces(text: str, pieces: Iterable[str]) -> list[tuple[int, int]]:
    """Trimmed spans of ``pieces`` in ``text``; every non-whitespace character must be accounted for."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for piece in pieces:
        core = piece.strip()
        if not core:
            continue
        start = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        # fast path: the piece keeps the input's whitespace as is; else walk character by character
        end = start + len(core) if text.startswith(core, start) else _walk(text, start, core)
        spans.append((start, end))
        pos = end
    if text[pos:].strip():
        raise OffsetError(f"input left over after the last piece: {text[pos : pos + 40]!r}")
    return spans


def _walk(text: str, start: int, core: str) -> int:
    pos = start
    for ch in core:
        if ch.isspace():
            continue
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text) or text[pos] != ch:
            found = text[pos : pos + 20] if pos < len(text) else "<end>"
            raise OffsetError(f"piece char {ch!r} != input {found!r} at {pos}")
        pos += 1
    return pos


def trimmed(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in spans:
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        tail = len(piece) - len(piece.rstrip())
        if end - tail > start + lead:
            out.append((start + lead, end - tail))
    return out


def check_spans(text: str, spans: list[tuple[int, int]]) -> None:
    """Spans are trimmed, ordered, disjoint, and together cover every non-whitespace character."""
    pos = 0
    for start, end in spans:
        if not (pos <= start < end <= len(text)):
            raise OffsetError(f"span {(start, end)} out of order after {pos}")
        if text[pos:start].strip():
            raise OffsetError(f"uncovered text {text[pos:start]!r}")
        if text[start].isspace() or text[end - 1].isspace():
            raise OffsetError(f"span {(start, end)} not trimmed")
        pos = end
    if text[pos:].strip():
        raise OffsetError(f"uncovered tail {text[pos:]!r}")


def utf8_to_char_offsets(text: str) -> list[int]:
    """char index of every UTF-8 byte offset (for libraries that report byte offsets)."""
    index: list[int] = []
    for i, ch in enumerate(text):
        index.extend([i] * len(ch.encode("utf-8")))
    index.append(len(text))
    return index
