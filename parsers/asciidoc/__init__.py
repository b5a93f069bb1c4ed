"""AsciiDoc → Document: a block scanner written here (blocks.py, lists.py, tables.py), since no
maintained Python library reads AsciiDoc with source positions (asciidoc-py 10 converts to
HTML/DocBook and keeps none; asciidoctrine is an alpha). AsciiDoc is line-oriented: every element's
span is made of whole lines (or a table cell's exact span) of ``Document.text``, the decoded file.

Elements: headings (``=`` .. ``======``, and two-line titles underlined with ``= - ~ ^ +``),
paragraphs (admonition paragraphs ``NOTE: …`` kept as text), lists and their items (a description
item is its term with its description), tables (``|===`` with their header row: ``options=header``
or a first line alone with a blank line under it; ``TableData.header_text`` rides as every row
group's context), code (``----`` listing with ``[source,lang]``, ``....`` literal, fences, indented
literal paragraphs), block quotes. Not body text, declared so that the gate lists them with their
reason: attribute entries (``front_matter``; the header's are ``metadata["attributes"]``),
comments and preprocessor directives (``furniture``). ``include::`` is never followed: it is
counted in an ``include_not_followed`` warning.
"""

from __future__ import annotations

from parsegate.parsers.asciidoc.blocks import Scanner
from parsegate.parsers.bytes.decode import decode_noted
from parsegate.parsers.formats import spec
from parsegate.parsers.model import Document, ParseWarning, content_version
from parsegate.parsers.options import DEFAULTS, ParseOptions

NAME = "asciidoc"
SPEC = spec(NAME)  # parsers/formats.py: suffixes, output version
OUTPUT_VERSION = SPEC.output_version
VERSION = str(OUTPUT_VERSION)
SUFFIXES = SPEC.suffixes
_LISTED = 5  # lines named in a warning


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """``options`` and ``suffix`` change nothing here: one form, no limit applies."""
    text, encoding_note = decode_noted(data)
    scanner = Scanner(text)
    first = scanner.header()
    scanner.blocks(first, len(scanner.lines), None, True)
    warnings = [encoding_note] if encoding_note is not None else []
    if scanner.directives:
        warnings.append(
            ParseWarning(
                "include_not_followed",
                f"{len(scanner.directives)} include:: directive(s) left as they are, never followed"
                f" (line {_listed(scanner.directives)})",
            )
        )
    if scanner.unclosed:
        warnings.append(
            ParseWarning(
                "unclosed_block",
                f"{len(scanner.unclosed)} delimited block(s) never closed: read to the end of what"
                f" encloses them (line {_listed(scanner.unclosed)})",
            )
        )
    if not text.strip():
        warnings.append(ParseWarning("empty", "the document has no text"))
    return Document(
        doc_id=doc_id,
        version=content_version(data),
        format="asciidoc",
        text=text,
        elements=scanner.elements,
        metadata=scanner.metadata,
        parser=f"{NAME} {VERSION}",
        warnings=warnings,
    )


def _listed(lines: list[int]) -> str:
    return ", ".join(map(str, lines[:_LISTED])) + (", …" if len(lines) > _LISTED else "")
