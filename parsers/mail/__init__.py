"""E-mail (``.eml``: the standard library's ``email`` package; ``.msg``: Outlook's files through
``extract-msg``, the mail extra) → Document.

``Document.text`` is built (``source_text`` is False: the file is MIME, its body may be
quoted-printable or base64, and Outlook's is OLE2), in three parts:

1. the Subject, a level-1 heading: the title of the document and the first name in every
   chunk's section path (no heading when the mail has no subject);
2. the header block, one paragraph: ``From:``, ``To:``, ``Cc:``, ``Date:`` and ``Message-ID:``
   lines (those the mail has, their values decoded, runs of white space made one space), the
   first chunk's text; the same values are ``metadata`` (``from``, ``to``, ``cc``, ``date``,
   ``message_id``, ``subject``);
3. the body, as decoded: a plain-text part stands there as the mail has it (line ends made
   ``\\n``), so every element's span is a slice of it (body.py: paragraphs; quoted replies are
   ``quoted`` elements inside a ``blockquote``, never dropped); an HTML-only mail is read by our
   HTML pass (parsers/web), its whole body being content. When the mail has several inline text
   parts (a footer a list server appended) each follows the one before.

Attachments are not this document's text: ``metadata["attachments"]`` names them, each with a name
unique in the mail, and a run reads each as a document of its own, ``mail.eml#name``
(parsegate/runner/members.py, ``attachment_bytes`` below). Images (inline or attached) are
skipped and counted (``metadata["images_skipped"]``, a warning): no OCR of mail images.

Refused with a ParseError: an empty file (``empty``), an ``.eml`` with no mail header
(``corrupt``), a ``.msg`` that is no OLE2 file (``unsupported``: Tcl's message catalogs are
``.msg`` too) or that extract-msg cannot read (``corrupt``).
"""

from __future__ import annotations

from typing import Any

from parsegate.parsers.build.document import PARAGRAPH_SEP, DocBuilder
from parsegate.parsers.formats import spec
from parsegate.parsers.mail.body import emit_plain
from parsegate.parsers.mail.message import HEADERS, Attachment, Mail, read_mail
from parsegate.parsers.model import Document, Element, ParseError, ParseWarning, content_version
from parsegate.parsers.options import DEFAULTS, ParseOptions

NAME = "mail"
SPEC = spec(NAME)
OUTPUT_VERSION = SPEC.output_version
SUFFIXES = SPEC.suffixes
VERSION = str(OUTPUT_VERSION)
WHOLE_BODY = "the whole body (e-mail)"
LABELS = dict(HEADERS)


class _MailBuilder(DocBuilder):
    """An HTML body's headings one level below the subject."""

    shift = 0

    def heading(self, level: int, title: str, **fields: Any) -> Element:
        return super().heading(level + self.shift, title, **fields)


def parse(data: bytes, doc_id: str, options: ParseOptions = DEFAULTS, suffix: str | None = None) -> Document:
    suffix = (suffix or _suffix(doc_id)).lower()
    mail = read_mail(data, suffix)
    b = _MailBuilder()
    if mail.subject:
        b.heading(1, mail.subject)
        b.shift = 1
    block = "\n".join(f"{LABELS[key]}: {value}" for key, value in mail.headers.items())
    if block:
        b.emit("paragraph", block)
    quoted = 0
    for kind, text in mail.bodies:
        if kind == "plain":
            quoted += emit_plain(b, text)
        else:
            _html(b, text, options)
    text, elements = b.finish()
    meta: dict[str, Any] = {"title": mail.subject, "subject": mail.subject, **mail.headers}
    meta["attachments"] = [att.name for att in mail.attachments]
    meta["body"] = [kind for kind, _ in mail.bodies]
    if quoted:
        meta["quoted"] = quoted
    warnings = [*b.warnings, *(ParseWarning(code, message) for code, message in mail.notes)]
    if mail.images:
        meta["images_skipped"] = mail.images
        warnings.append(
            ParseWarning(
                "images_skipped", f"{mail.images} image{'s' * (mail.images != 1)} in the mail not read (no OCR of mail)"
            )
        )
    if not mail.subject:
        meta.pop("title")
    fmt = "msg" if suffix == ".msg" else "eml"
    doc = Document(doc_id, content_version(data), fmt, text, elements, metadata=meta, warnings=warnings)
    doc.parser = f"{NAME} {VERSION}"
    if not any(text.strip() for _, text in mail.bodies):
        doc.warnings.append(ParseWarning("empty", "the mail has no body text"))
    return doc


def _suffix(doc_id: str) -> str:
    name = doc_id.rsplit("/", 1)[-1]
    return name[name.rfind(".") :] if "." in name else ".eml"


def _html(b: _MailBuilder, html: str, options: ParseOptions) -> None:
    from parsegate.parsers.office.checks import check_html
    from parsegate.parsers.web.regions import find_regions
    from parsegate.parsers.web.source import TooDeep, flat_paragraphs, pages, tree
    from parsegate.parsers.web.walk import Walker

    check_html(html.encode("utf-8", "surrogatepass"), options.max_html_mb)
    try:
        root = tree(html)
    except TooDeep:
        for block in flat_paragraphs(html):
            b.emit("paragraph", block, PARAGRAPH_SEP)
        b.warnings.append(ParseWarning("nesting_limit", "the HTML body nests past 2048 levels: plain paragraphs"))
        return
    for body in pages(root):
        walker = Walker(find_regions(body, WHOLE_BODY))
        walker.b = b
        walker.walk(body)
        walker.finish()


def attachment_names(data: bytes, suffix: str) -> list[str]:
    """The names of a mail's attachments (each unique in it), as ``metadata["attachments"]``."""
    return [att.name for att in read_mail(data, suffix.lower()).attachments]


def attachment(data: bytes, suffix: str, name: str) -> tuple[str, bytes]:
    """One attachment's bytes, by its name in the mail."""
    found: Attachment | None = next((a for a in read_mail(data, suffix.lower()).attachments if a.name == name), None)
    if found is None:
        raise ParseError("missing_attachment", f"the mail has no attachment named {name!r} (it changed?)")
    return found.name, found.read()


__all__ = ["NAME", "SUFFIXES", "VERSION", "Mail", "ParseError", "attachment", "attachment_names", "parse"]
