"""Office and web formats: DOCX, PPTX and XLSX through docling's format backends, HTML through
our own pass over lxml (parsers.web), DoclingDocument JSON written by docling elsewhere, and
legacy or open formats (.doc .ppt .xls .odt .odp .ods .rtf) converted to their OOXML form by
LibreOffice first.

Nothing here imports docling or lxml until a file of theirs is met: importing docling's
backends costs seconds, and a worker that only reads Markdown should not pay for it.

Data flow: checks (size, zip, XML) → convert (LibreOffice for legacy formats; docling's backend)
→ map the DoclingDocument onto our Document (mapping.py).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import PurePosixPath

from parsegate.parsers.formats import Form, spec
from parsegate.parsers.model import Document, ParseError, ParseWarning, content_version
from parsegate.parsers.ocr import parser_name
from parsegate.parsers.office.checks import check_html, check_zip
from parsegate.parsers.options import DEFAULTS, ParseOptions

NAME = "office"
SPEC = spec(NAME)  # parsers/formats.py: the forms (docx, pptx, xlsx, html, legacy ones, docling) and their suffixes
# The first number changes whenever the output does for the same input and libraries.
OUTPUT_VERSION = SPEC.output_version


def _installed(package: str) -> str:
    # docling is the office extra's: without it web pages are still read (our lxml pass)
    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


VERSION = f"{OUTPUT_VERSION}; docling-slim {_installed('docling-slim')}; lxml {version('lxml')}"
SUFFIXES = SPEC.suffixes
_FORMS: dict[str, Form] = {suffix: form for form in SPEC.forms for suffix in form.suffixes}


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    """The form is ``suffix``'s (the one the registry reads the file as), else ``doc_id``'s."""
    suffix = (suffix or PurePosixPath(doc_id).suffix).lower()
    if suffix not in _FORMS:
        raise ParseError("unsupported", f"no office or web format has the suffix '{suffix}'")
    form = _FORMS[suffix]
    if form.name == "docling":
        return _from_json(data, doc_id, options)
    if form.converted_to is not None:
        return _legacy(data, doc_id, suffix, options)
    fmt = form.name
    if fmt == "html":
        from parsegate.parsers.web import parse_html

        check_html(data, options.max_html_mb)
        doc = parse_html(data, doc_id)
        doc.parser = parser_name(NAME, VERSION, options)
        return doc
    return _ooxml(data, doc_id, fmt, content_version(data), options)


def _ooxml(data: bytes, doc_id: str, fmt: str, version_: str, options: ParseOptions) -> Document:
    from parsegate.parsers.office.backends import convert
    from parsegate.parsers.office.mapping import to_document

    check_zip(data, fmt, options.max_inflated_mb)
    if fmt == "docx":
        from parsegate.parsers.office.numbering import numbers_written_in
        from parsegate.parsers.office.unwrap import body_text_brought_in

        data = body_text_brought_in(data)  # custom XML unwrapped, alternative chunks imported
        data = numbers_written_in(data)  # Word's list numbers ("2.3.8.1.") in their paragraphs' text
    from parsegate.parsers.office.pictures import picture_words

    ddoc, gaps, pictures = convert(data, doc_id, fmt)
    anchors = None
    if fmt == "docx":
        from parsegate.parsers.office.footnotes import note_anchors

        anchors = note_anchors(data)
    words = picture_words(ddoc, pictures, options)
    doc = to_document(ddoc, doc_id, version_, fmt, gaps, anchors, words.texts)
    doc.parser = parser_name(NAME, VERSION, options)
    if words.ocr is not None:
        doc.metadata["ocr"] = words.ocr
    if words.unavailable is not None:
        where = "images"
        doc.warnings.append(ParseWarning("ocr_unavailable", f"images not read by OCR: {words.unavailable}", where))
    return doc


def _from_json(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS) -> Document:
    from parsegate.parsers.office.backends import from_json
    from parsegate.parsers.office.mapping import to_document

    doc = to_document(from_json(data), doc_id, content_version(data), "docling")
    doc.parser = parser_name(NAME, VERSION, options)
    return doc


def _legacy(data: bytes, doc_id: str, suffix: str, options: ParseOptions) -> Document:
    """Converted by LibreOffice to its OOXML form, then read as such. The document keeps its own
    format name (``doc``, ``odt``…) and notes the conversion in its metadata."""
    from parsegate.parsers.office.legacy import to_ooxml

    converted, target, note = to_ooxml(data, suffix, options.soffice_seconds)
    renamed = str(PurePosixPath(doc_id).with_suffix(f".{target}"))
    doc = _ooxml(converted, renamed, target, content_version(data), options)
    doc.doc_id = doc_id
    doc.format = suffix[1:]
    doc.metadata["converted"] = note
    return doc


__all__ = ["NAME", "SUFFIXES", "VERSION", "ParseError", "parse"]
