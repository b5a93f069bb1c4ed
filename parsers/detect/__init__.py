"""A document's format from its content, for input whose name does not say (stdin, bytes, a
string, a framework's text, a file with no suffix or one no parser claims).

In order: binary containers by their first bytes and members (binary.py: PDF, OOXML and
OpenDocument packages, OLE2 Office files, RTF); then, for text, markup by its first tags
(markup.py: an HTML page, XHTML, other XML, a DoclingDocument's JSON, a Jupyter notebook), a shebang or
``<?php``, a delimited table (delimited.py: CSV, TSV), Markdown by its block syntax (markdown.py),
code that tree-sitter reads without errors (code.py, with the code extra), an HTML fragment;
else plain text. Every answer says what it went by (``Detected.by``), which the registry puts
in ``Document.metadata["format_detected"]``.

This module imports only the standard library and parsers.bytes.decode until a check needs more
(zipfile, olefile, tree-sitter), so asking costs a worker nothing it does not use. Whether bytes
are text at all is parsers/bytes/decode.py's ``decoded_sample`` (and ``looks_like_text``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import IO

from parsegate.parsers.bytes.decode import decoded_sample
from parsegate.parsers.detect import binary
from parsegate.parsers.detect.code import LOOSE, parsed_language, shebang_language
from parsegate.parsers.detect.delimited import delimited
from parsegate.parsers.detect.markdown import markdown_signals
from parsegate.parsers.detect.markup import docling_json, first_tags, notebook_json
from parsegate.parsers.formats import CODE_LANGUAGES

DETECT_VERSION = 3  # bumped when the same content can be read as another format (2: notebooks, 3: CSV/TSV)
_TEXT_SAMPLE = 65536
_CODE_SUFFIX = {language: suffix for suffix, language in reversed(CODE_LANGUAGES.items())}  # first suffix
_FORM_SUFFIX = {
    "markdown": ".md",
    "text": ".txt",
    "html": ".html",
    "docling": ".json",
    "pdf": ".pdf",
    "notebook": ".ipynb",
}


@dataclass(frozen=True)
class Detected:
    """A format recognised: the ``Document.format`` it is read as, the suffix that reads it, and why."""

    format: str  # "pdf", "docx", "html", "markdown", "code", "text", "doc"...
    suffix: str  # ".pdf", ".docx", ".md", ".py"...
    by: str  # "content: a %PDF- header"
    language: str | None = None  # code only

    def note(self) -> dict[str, str]:
        """What ``Document.metadata["format_detected"]`` holds."""
        found = {"format": self.format, "by": self.by}
        if self.language:
            found["language"] = self.language
        return found


@dataclass(frozen=True)
class Unrecognised:
    """Content no format parsegate reads: what was seen."""

    seen: str


def sniff(data: bytes, source: IO[bytes] | None = None) -> Detected | Unrecognised:
    """The format of ``data`` (the whole content, or its first bytes when ``source``, seekable,
    gives the whole file for a zip's or an OLE2 file's directory). Never raises."""
    try:
        return _sniff(data, source)
    except Exception as exc:  # a sniffer's bug must not stop a parse: say so, read nothing
        return Unrecognised(f"content the format detection failed on ({type(exc).__name__}: {exc})")


def _sniff(data: bytes, source: IO[bytes] | None) -> Detected | Unrecognised:
    why = binary.pdf(data)
    if why:
        return Detected("pdf", ".pdf", why)
    seen = binary.image(data)
    if seen:
        return Detected("image", *seen)
    if binary.container(data):
        form, why = binary.office_kind(data, source or io.BytesIO(data))
        return Detected(form, f".{form}", why) if form else Unrecognised(why)
    text = _text(data)
    if text is None:
        return Unrecognised(_binary_seen(data))
    return _text_format(text)


def _text(data: bytes) -> str | None:
    """The decoded text of ``data``'s first bytes, or None for binary content."""
    if not data:
        return ""
    return decoded_sample(data, _TEXT_SAMPLE)


def _text_format(text: str) -> Detected:
    if not text.strip():
        return Detected("text", ".txt", "content: empty or only whitespace")
    why = docling_json(text)
    if why:
        return Detected("docling", ".json", why)
    why = notebook_json(text)
    if why:
        return Detected("notebook", ".ipynb", why)
    markup = first_tags(text)
    if markup is not None and markup.kind == "page":
        return Detected("html", ".html", markup.by)
    if markup is not None and markup.kind == "xml":
        return Detected("text", ".txt", f"{markup.by}; no parser reads XML: read as text")
    named = shebang_language(text)
    if named:
        return _code(*named)
    table = delimited(text)
    if table:
        return Detected(table[0], f".{table[0]}", table[1])
    found = parsed_language(text)
    if found:
        return _code(*found)
    why = markdown_signals(text)
    if why:
        return Detected("markdown", ".md", why)
    found = parsed_language(text, LOOSE)
    if found:
        return _code(*found)
    if markup is not None:  # an HTML fragment with no Markdown around it
        return Detected("html", ".html", markup.by)
    return Detected("text", ".txt", "content: text with no markup, Markdown block syntax or code")


def _code(language: str, why: str) -> Detected:
    return Detected("code", _CODE_SUFFIX[language], why, language)


def _binary_seen(data: bytes) -> str:
    """What binary content looks like, for the refusal: its first bytes, as text where printable."""
    first = data[:16]
    shown = "".join(chr(b) if 32 <= b < 127 else "." for b in first)
    return f"binary data starting {first[:8].hex(' ')} ({shown!r})"
