"""Which parser handles which file: by suffix first, then by sniffing the content.

Built-in parsers are registered through the same seam third-party parsers use:
an object (usually a module) with ``NAME``, ``VERSION``, ``SUFFIXES`` and
``parse(data: bytes, doc_id: str) -> Document``, published under the entry-point
group ``parsegate.parsers``.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

from parsers import code, markdown, office, pdf, text
from parsers.decode import decode_text
from parsers.model import Document, ParseError, ParseWarning

ENTRY_POINT_GROUP = "parsegate.parsers"


class Parser(Protocol):
    NAME: str
    VERSION: str
    SUFFIXES: tuple[str, ...]

    def parse(self, data: bytes, doc_id: str) -> Document: ...


_BUILTIN: tuple[Parser, ...] = (markdown, text, code, office, pdf)  # type: ignore[assignment]
_loaded: list[Parser] | None = None


def parsers() -> list[Parser]:
    global _loaded
    if _loaded is None:
        _loaded = list(_BUILTIN)
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            _loaded.append(ep.load())
    return _loaded


def by_name(name: str) -> Parser:
    for parser in parsers():
        if name == parser.NAME:
            return parser
    raise KeyError(name)


def parser_for(path: Path, head: bytes = b"") -> Parser | None:
    """The parser for a file: by suffix, then by content (a shebang names a language; other
    text is read as plain text). None for binary content no parser claims."""
    suffix = path.suffix.lower()
    for parser in reversed(parsers()):  # later registrations override built-ins
        if suffix in parser.SUFFIXES:
            return parser
    if not head or not _looks_like_text(head):
        return None
    if code.language_for(path.name, head[:256].decode("utf-8", errors="replace")):
        return code  # type: ignore[return-value]
    return text  # type: ignore[return-value]


def _looks_like_text(head: bytes) -> bool:
    sample = head[:4096]
    cut = sample.rfind(b"\n")
    try:
        decode_text(sample[: cut + 1] if cut > 0 else sample)
    except ParseError:
        return False
    return True


def supported_suffixes() -> list[str]:
    return sorted({s for p in parsers() for s in p.SUFFIXES})


def parse_file(path: Path, doc_id: str | None = None) -> Document:
    """Read and parse one file; every failure is a ParseError with a reason."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ParseError("unreadable", exc.strerror or str(exc)) from None
    parser = parser_for(path, data[:8192])
    if parser is None:
        raise ParseError("unsupported", f"no parser for '{path.suffix or path.name}' files")
    doc = parser.parse(data, doc_id or path.name)
    if path.suffix and path.suffix.lower() not in parser.SUFFIXES:
        doc.warnings.append(
            ParseWarning("unknown_format", f"no parser for '{path.suffix}' files; read as {parser.NAME}")
        )
    return doc
