"""Mails made with the standard library's email package, for the mail parser's and the run's tests."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import default
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PDF = ROOT / "golden_docs/pdf/policy-headings/input.pdf"
DOCX = ROOT / "golden_docs/office/docx/footnoted-rates/input.docx"

BODY = """Hi Bob,

The harbour survey is attached, with the rates and the policy.
Please read the second table before Friday.

On Mon, 30 Nov 2026 at 09:12, Bob Tern <bob@example.org> wrote:
> Could you send me the survey results?
> I need the tide tables too.
>
> Thanks, Bob

Best,
Ann
"""


def reply(body: str = BODY, subject: str = "Harbour survey results") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Ann Gull <ann@example.org>"
    msg["To"] = "Bob Tern <bob@example.org>"
    msg["Cc"] = "harbour-office@example.org"
    msg["Date"] = "Tue, 01 Dec 2026 10:00:00 +0000"
    msg["Subject"] = subject
    msg["Message-ID"] = "<survey-1@example.org>"
    msg.set_content(body)
    return msg


def with_attachments(pdf: bool = True, docx: bool = True, text: bool = True) -> bytes:
    msg = reply()
    if pdf:
        msg.add_attachment(PDF.read_bytes(), maintype="application", subtype="pdf", filename="policy.pdf")
    if docx:
        msg.add_attachment(
            DOCX.read_bytes(),
            maintype="application",
            subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
            filename="rates.docx",
        )
    if text:
        msg.add_attachment("Low water 06:12, high water 12:30.\n", filename="tides.txt")
    return msg.as_bytes(policy=default)
