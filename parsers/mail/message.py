"""A mail read into what the parser and the runner need: its headers, its body parts and its
attachments (each with a name unique in the mail), for ``.eml`` (the standard library's
``email`` package, ``policy.default``) and ``.msg`` (Outlook's OLE2 files, ``extract-msg``).

The body: every inline text part (``text/plain`` or ``text/html`` with no file name and no
``attachment`` disposition), in order; inside a ``multipart/alternative`` only the preferred one
(the plain text when there is one, else the HTML). Images (inline or attached) are skipped and
counted. Everything else with content is an attachment, a mail attached to the mail
(``message/rfc822``) too, as an ``.eml`` of its own.
"""

from __future__ import annotations

import email.errors
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email import policy
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesParser
from functools import partial
from typing import Any

from parsegate.parsers.model import ParseError

HEADERS = (("from", "From"), ("to", "To"), ("cc", "Cc"), ("date", "Date"), ("message_id", "Message-ID"))
# A file that has none of these is no mail (the email package reads any bytes as one).
_MAIL_HEADERS = frozenset(
    "from to cc subject date message-id received mime-version reply-to sender return-path content-type".split()
)
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_UNSAFE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


@dataclass
class Attachment:
    name: str  # unique in the mail: the doc id's part after '#'
    content_type: str
    read: Callable[[], bytes]


@dataclass
class Mail:
    subject: str
    headers: dict[str, str]  # from, to, cc, date, message_id: those the mail has
    bodies: list[tuple[str, str]] = field(default_factory=list)  # ("plain" | "html", decoded text)
    attachments: list[Attachment] = field(default_factory=list)
    images: int = 0  # image parts skipped
    notes: list[tuple[str, str]] = field(default_factory=list)  # (warning code, message)


def read_mail(data: bytes, suffix: str) -> Mail:
    return read_msg(data) if suffix == ".msg" else read_eml(data)


# -- .eml -------------------------------------------------------------------------------------


def read_eml(data: bytes) -> Mail:
    if not data.strip():
        raise ParseError("empty", "the file is empty")
    msg = BytesParser(policy=policy.default).parsebytes(data)
    if not any(key.lower() in _MAIL_HEADERS for key in msg):
        raise ParseError("corrupt", "no e-mail headers (From, To, Subject, Date…) at the start: not a mail")
    mail = Mail(_header(msg, "Subject"), {k: v for k, name in HEADERS if (v := _header(msg, name))})
    _Walk(mail).part(msg, body=True)
    mail.attachments = unique(mail.attachments)
    return mail


def _header(msg: Message, name: str) -> str:
    """A header's value as written, its encoded words decoded (RFC 2047): policy.default's
    address headers drop comments ("barry@digicool.com (Barry A. Warsaw)" lost the name)."""
    raw = next((value for key, value in msg.raw_items() if key.lower() == name.lower()), None)
    if raw is None:
        return ""
    try:
        value = str(make_header(decode_header(str(raw))))
    except (LookupError, UnicodeError, ValueError, email.errors.HeaderParseError):
        value = str(raw)
    return " ".join(value.split())


class _Walk:
    def __init__(self, mail: Mail) -> None:
        self.mail = mail

    def part(self, part: Message, body: bool) -> None:
        ctype = part.get_content_type()
        if ctype == "message/rfc822":
            self.attach(part, _attached_mail(part), "message/rfc822")
            return
        if part.get_content_maintype() == "message":  # delivery-status, disposition-notification
            self.mail.notes.append(("skipped", f"a {ctype} part (machine-readable status) not read"))
            return
        if part.is_multipart():
            kids = list(part.get_payload())
            chosen = _preferred(kids) if ctype == "multipart/alternative" else None
            for kid in kids:
                self.part(kid, body and (chosen is None or kid is chosen))
            return
        disposition, filename = part.get_content_disposition(), part.get_filename()
        if _image(ctype, filename):
            self.mail.images += 1
        elif ctype in ("text/plain", "text/html") and disposition != "attachment" and not filename:
            if body:
                self.mail.bodies.append(("html" if ctype == "text/html" else "plain", _text(part, self.mail)))
        else:
            self.attach(part, partial(payload, part), ctype)

    def attach(self, part: Message, read: Callable[[], bytes], ctype: str) -> None:
        name = part.get_filename() or ""
        if ctype == "message/rfc822" and not name:
            name = f"message-{len(self.mail.attachments) + 1}.eml"
        self.mail.attachments.append(Attachment(name, ctype, read))


def _attached_mail(part: Message) -> Callable[[], bytes]:
    def read() -> bytes:
        inner = part.get_payload()
        inner = inner[0] if isinstance(inner, list) and inner else inner
        if isinstance(inner, Message):
            return inner.as_bytes(policy=policy.default.clone(linesep="\n"))
        return payload(part)

    return read


def _image(ctype: str, filename: str | None) -> bool:
    """An image by its type, or by its file name's (``application/octet-stream; name=a.png``)."""
    return ctype.startswith("image/") or bool(
        filename and (mimetypes.guess_type(filename)[0] or "").startswith("image/")
    )


def payload(part: Message) -> bytes:
    """A leaf part's content, its transfer encoding undone."""
    raw = part.get_payload(decode=True)
    return raw if isinstance(raw, bytes) else b""


def _preferred(kids: list[Any]) -> Any:
    """multipart/alternative: the plain-text part when there is one, else the last (richest)."""
    plain = [k for k in kids if isinstance(k, Message) and k.get_content_type() == "text/plain"]
    return plain[0] if plain else (kids[-1] if kids else None)


def _text(part: Message, mail: Mail) -> str:
    raw = payload(part)
    charset = part.get_content_charset() or "us-ascii"
    try:
        text = raw.decode(charset, errors="replace")
    except LookupError:
        mail.notes.append(("unknown_charset", f"charset {charset!r} unknown: the part read as UTF-8"))
        text = raw.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# -- .msg -------------------------------------------------------------------------------------


def read_msg(data: bytes) -> Mail:
    if not data.startswith(OLE_MAGIC):
        raise ParseError("unsupported", "a .msg file that is no Outlook message (no OLE2 signature; a Tcl catalog?)")
    import extract_msg
    from extract_msg.exceptions import ExMsgBaseException

    try:
        msg = extract_msg.openMsg(data, delayAttachments=False)
    except (ExMsgBaseException, OSError, ValueError, KeyError, TypeError) as exc:
        raise ParseError("corrupt", f"extract-msg cannot read the Outlook message ({exc})") from None
    try:
        return mail_from_msg(msg)
    finally:
        msg.close()


def mail_from_msg(msg: Any) -> Mail:
    """An opened extract-msg message → Mail (its body text preferred to its HTML body)."""
    headers = {key: " ".join(str(value).split()) for key, value in _msg_headers(msg).items() if value}
    mail = Mail(" ".join(str(getattr(msg, "subject", "") or "").split()), headers)
    body, html = getattr(msg, "body", None), getattr(msg, "htmlBody", None)
    if body and str(body).strip():
        mail.bodies.append(("plain", str(body).replace("\r\n", "\n").replace("\r", "\n")))
    elif html:
        mail.bodies.append(("html", html.decode("utf-8", "replace") if isinstance(html, bytes) else str(html)))
    for n, att in enumerate(getattr(msg, "attachments", []) or [], 1):
        name = str(getattr(att, "longFilename", None) or getattr(att, "shortFilename", None) or "")
        ctype = str(getattr(att, "mimetype", None) or mimetypes.guess_type(name)[0] or "application/octet-stream")
        if _image(ctype, name):
            mail.images += 1
            continue
        content = getattr(att, "data", None)
        if isinstance(content, bytes):
            mail.attachments.append(Attachment(name, ctype, partial(bytes, content)))
        elif content is not None:  # an embedded message: no bytes of its own to read as a file
            mail.notes.append(("embedded_message", f"attachment {n} is an embedded Outlook message: not read"))
    mail.attachments = unique(mail.attachments)
    return mail


def _msg_headers(msg: Any) -> dict[str, Any]:
    return {
        "from": getattr(msg, "sender", None),
        "to": getattr(msg, "to", None),
        "cc": getattr(msg, "cc", None),
        "date": getattr(msg, "date", None),
        "message_id": getattr(msg, "messageId", None),
    }


# -- attachment names --------------------------------------------------------------------------


def unique(attachments: list[Attachment]) -> list[Attachment]:
    """Each attachment's name made safe for a doc id and unique in the mail, stably: the base
    name of what it calls itself (no folder, no control character), ``attachment-N.ext`` when it
    calls itself nothing (N its place among the attachments, the extension its type's), and a
    name met before gets ``~2``, ``~3``… before its suffix (``a.pdf``, ``a~2.pdf``)."""
    seen: set[str] = set()
    out = []
    for n, att in enumerate(attachments, 1):
        name = _UNSAFE.sub("_", re.split(r"[\\/]", att.name)[-1]).strip().lstrip(".")
        if not name:
            name = f"attachment-{n}{mimetypes.guess_extension(att.content_type) or '.bin'}"
        stem, dot, ext = name.rpartition(".") if "." in name else (name, "", "")
        candidate, count = name, 1
        while candidate.lower() in seen:
            count += 1
            candidate = f"{stem}~{count}{dot}{ext}"
        seen.add(candidate.lower())
        out.append(Attachment(candidate, att.content_type, att.read))
    return out
