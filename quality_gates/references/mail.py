"""A mail read on its own for the gate: its Subject and header lines and the text of its body
parts, as the mail's own library gives them, not as the parser reads them.

- ``.eml``: ``email.message_from_bytes`` (``policy.default``) and the message's own walk: every
  part that is text, is no attachment (``is_attachment``) and names no file, its text by
  ``get_content()`` (the policy's content manager: charset, quoted-printable, base64); of the
  parts of a ``multipart/alternative`` only the plain text (the HTML when it has none); the walk
  does not go into an attached mail. An HTML part's words are its text nodes as lxml reads them
  (web.py ``text_nodes``).
- ``.msg``: extract-msg's ``subject``, ``sender``, ``to``, ``cc``, ``date``, ``messageId`` and its
  ``body`` (or the text nodes of its ``htmlBody``).

A body the parser drops, cuts short or misreads loses its words against this reading (recall);
words the parser makes up are in no part of it (localization).
"""

from __future__ import annotations

import email
import email.header
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from typing import Any

from parsegate.quality_gates.references.web import text_nodes

_LABELS = (("From", "from"), ("To", "to"), ("Cc", "cc"), ("Date", "date"), ("Message-ID", "message_id"))


@dataclass
class MailReading:
    lines: list[str]  # the subject and "Name: value" header lines, then the plain-text parts
    html: list[str]  # the text nodes of the HTML parts

    @property
    def nodes(self) -> list[str]:
        return [*self.lines, *self.html]


def mail_reading(data: bytes, fmt: str) -> MailReading | None:
    """The mail's own reading, or None when its library cannot read it (the parser refused it)."""
    try:
        return _msg(data) if fmt == "msg" else _eml(data)
    except Exception:  # the library's own failure: no reference, the parser has said why
        return None


def _eml(data: bytes) -> MailReading:
    msg = email.message_from_bytes(data, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    # The headers as the compat32 API reads them (policy.default's address headers drop comments).
    legacy = email.message_from_bytes(data)
    lines = [_decoded(legacy["Subject"])]
    lines += [f"{label}: {_decoded(legacy[label])}" for label, _ in _LABELS if legacy[label] is not None]
    reading = MailReading(lines, [])
    _parts(msg, reading)
    return reading


def _decoded(value: object) -> str:
    if value is None:
        return ""
    try:
        text = str(email.header.make_header(email.header.decode_header(str(value))))
    except (LookupError, UnicodeError, ValueError):
        text = str(value)
    return " ".join(text.split())


def _parts(part: EmailMessage, reading: MailReading) -> None:
    if part.get_content_maintype() == "message":
        return  # an attached mail: a document of its own
    if part.is_multipart():
        kids = [k for k in part.iter_parts() if isinstance(k, EmailMessage)]
        if part.get_content_subtype() == "alternative":
            plain = [k for k in kids if k.get_content_type() == "text/plain"]
            kids = plain[:1] or kids[-1:]
        for kid in kids:
            _parts(kid, reading)
        return
    if part.get_content_maintype() != "text" or part.is_attachment() or part.get_filename():
        return
    if part.get_content_subtype() not in ("plain", "html"):
        return
    try:
        content = part.get_content()
    except LookupError:  # an unknown charset: the parser reads it as UTF-8
        raw = part.get_payload(decode=True)
        content = (raw if isinstance(raw, bytes) else b"").decode("utf-8", "replace")
    if part.get_content_subtype() == "html":
        reading.html += text_nodes(content.encode("utf-8")) or []
    else:
        reading.lines.append(content)


def _msg(data: bytes) -> MailReading:
    import extract_msg

    msg: Any = extract_msg.openMsg(data)
    try:
        lines = [str(msg.subject or "")]
        values = (msg.sender, msg.to, msg.cc, msg.date, msg.messageId)
        lines += [f"{label}: {value}" for (label, _), value in zip(_LABELS, values, strict=True) if value]
        reading = MailReading(lines, [])
        if msg.body and str(msg.body).strip():
            reading.lines.append(str(msg.body))
        elif msg.htmlBody:
            reading.html += text_nodes(msg.htmlBody) or []
        return reading
    finally:
        msg.close()
