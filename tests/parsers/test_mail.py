"""The mail parser (parsers/mail/): the subject as the heading every chunk's path names, the
header block, the body as decoded with exact offsets, quoted replies marked, attachments named
uniquely, images counted, refusals with their codes."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import default
from types import SimpleNamespace

import pytest

from parsegate.parsers import mail
from parsegate.parsers.mail.message import OLE_MAGIC, mail_from_msg
from parsegate.parsers.model import Document, ParseError
from tests.mail_samples import BODY, reply, with_attachments

HEADER = (
    "Harbour survey results\n\n"
    "From: Ann Gull <ann@example.org>\nTo: Bob Tern <bob@example.org>\nCc: harbour-office@example.org\n"
    "Date: Tue, 01 Dec 2026 10:00:00 +0000\nMessage-ID: <survey-1@example.org>\n\n"
)


def parse(msg: EmailMessage | bytes, name: str = "m.eml") -> Document:
    data = msg if isinstance(msg, bytes) else msg.as_bytes(policy=default)
    return mail.parse(data, name)


def spans(doc: Document) -> list[tuple[str, str]]:
    return [(e.kind, doc.text[e.start : e.end]) for e in doc.elements]


def test_subject_header_block_and_the_body_as_decoded() -> None:
    doc = parse(reply())
    assert doc.format == "eml" and doc.parser == "mail 1"
    assert doc.text == HEADER + BODY.rstrip("\n")  # the body stands as the part has it
    assert spans(doc) == [
        ("heading", "Harbour survey results"),
        ("paragraph", HEADER[len("Harbour survey results\n\n") : -2]),
        ("paragraph", "Hi Bob,"),
        ("paragraph", "The harbour survey is attached, with the rates and the policy.\n"
                      "Please read the second table before Friday."),
        ("blockquote", "On Mon, 30 Nov 2026 at 09:12, Bob Tern <bob@example.org> wrote:\n"
                       "> Could you send me the survey results?\n> I need the tide tables too.\n>\n> Thanks, Bob"),
        ("quoted", "On Mon, 30 Nov 2026 at 09:12, Bob Tern <bob@example.org> wrote:"),
        ("quoted", "> Could you send me the survey results?\n> I need the tide tables too."),
        ("quoted", "> Thanks, Bob"),
        ("paragraph", "Best,\nAnn"),
    ]  # fmt: skip
    assert all(e.section_path == ("Harbour survey results",) for e in doc.elements[1:])
    quote = doc.elements[4]
    assert all(e.parent == quote.id for e in doc.elements[5:8]) and doc.elements[8].parent is None
    assert doc.metadata == {
        "title": "Harbour survey results",
        "subject": "Harbour survey results",
        "from": "Ann Gull <ann@example.org>",
        "to": "Bob Tern <bob@example.org>",
        "cc": "harbour-office@example.org",
        "date": "Tue, 01 Dec 2026 10:00:00 +0000",
        "message_id": "<survey-1@example.org>",
        "attachments": [],
        "body": ["plain"],
        "quoted": 3,
    }


def test_an_outlook_original_message_line_quotes_the_rest() -> None:
    body = "Agreed.\n\n-----Original Message-----\nFrom: Bob\nSent: Monday\n\nCan we meet?\n"
    doc = parse(reply(body))
    assert spans(doc)[2:] == [
        ("paragraph", "Agreed."),
        ("blockquote", "-----Original Message-----\nFrom: Bob\nSent: Monday\n\nCan we meet?"),
        ("quoted", "-----Original Message-----\nFrom: Bob\nSent: Monday"),
        ("quoted", "Can we meet?"),
    ]


def test_a_line_ending_in_wrote_without_a_quote_after_it_is_no_attribution() -> None:
    doc = parse(reply("She wrote:\n\nnothing quoted here\n"))
    assert [k for k, _ in spans(doc)[2:]] == ["paragraph", "paragraph"]


def test_an_html_only_mail_goes_through_the_web_parser_below_the_subject() -> None:
    msg = reply()
    msg.set_content("<html><body><h1>Tide tables</h1><p>Low water at <b>06:12</b>.</p>"
                    "<ul><li>Gull Island</li></ul></body></html>", subtype="html")  # fmt: skip
    doc = parse(msg)
    assert spans(doc)[2:] == [
        ("heading", "Tide tables"),
        ("paragraph", "Low water at 06:12."),
        ("list", "Gull Island"),
        ("list_item", "Gull Island"),
    ]
    assert doc.elements[2].level == 2  # one below the subject
    assert doc.elements[3].section_path == ("Harbour survey results", "Tide tables")
    assert doc.metadata["body"] == ["html"]


def test_the_plain_alternative_is_preferred_and_the_html_one_not_read_twice() -> None:
    msg = reply("Plain words here.\n")
    msg.add_alternative("<p>Rich words here.</p>", subtype="html")
    doc = parse(msg)
    assert spans(doc)[2:] == [("paragraph", "Plain words here.")]


def test_attachments_named_uniquely_and_stably_images_counted() -> None:
    msg = reply()
    msg.add_attachment(b"%PDF-1.4 one", maintype="application", subtype="pdf", filename="report.pdf")
    msg.add_attachment(b"%PDF-1.4 two", maintype="application", subtype="pdf", filename="Report.PDF")
    msg.add_attachment(b"a,b\n1,2\n", maintype="text", subtype="csv")  # no name
    msg.add_attachment(b"x", maintype="application", subtype="octet-stream", filename="../../etc/passwd")
    msg.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="logo.png")
    inner = reply("Forwarded words.\n", subject="Inner")
    msg.add_attachment(inner)
    doc = parse(msg)
    assert doc.metadata["attachments"] == [
        "report.pdf", "Report~2.PDF", "attachment-3.csv", "passwd", "message-5.eml"
    ]  # fmt: skip
    assert doc.metadata["images_skipped"] == 1
    assert [w.code for w in doc.warnings] == ["images_skipped"]
    data = msg.as_bytes(policy=default)
    assert mail.attachment(data, ".eml", "Report~2.PDF") == ("Report~2.PDF", b"%PDF-1.4 two")
    _, forwarded = mail.attachment(data, ".eml", "message-5.eml")
    inner_doc = mail.parse(forwarded, "m.eml#message-5.eml")
    assert inner_doc.metadata["subject"] == "Inner" and "Forwarded words." in inner_doc.text
    with pytest.raises(ParseError) as missing:
        mail.attachment(data, ".eml", "nothing.pdf")
    assert missing.value.code == "missing_attachment"


def test_attachment_bytes_come_back_exactly() -> None:
    from tests.mail_samples import PDF

    data = with_attachments(docx=False, text=False)
    assert mail.attachment_names(data, ".eml") == ["policy.pdf"]
    assert mail.attachment(data, ".EML", "policy.pdf")[1] == PDF.read_bytes()


@pytest.mark.parametrize(
    ("data", "name", "code"),
    [
        (b"", "m.eml", "empty"),
        (b"just some words\nand more\n", "m.eml", "corrupt"),
        (b"msgcat::mcset en Yes Yes\n", "m.msg", "unsupported"),  # Tcl's message catalogs are .msg
        (OLE_MAGIC + b"\0" * 600, "m.msg", "corrupt"),
    ],
)
def test_refusals(data: bytes, name: str, code: str) -> None:
    with pytest.raises(ParseError) as refused:
        mail.parse(data, name)
    assert refused.value.code == code


def test_a_mail_without_a_body_warns_empty_and_keeps_its_headers() -> None:
    msg = EmailMessage()
    msg["From"] = "a@example.org"
    doc = parse(msg)
    assert spans(doc) == [("paragraph", "From: a@example.org")] and "title" not in doc.metadata
    assert [w.code for w in doc.warnings] == ["empty"]


def test_an_outlook_message_as_extract_msg_reads_it() -> None:
    # No .msg file could be made or found offline: extract-msg's message object, as its API gives it.
    att = SimpleNamespace(longFilename="notes.txt", shortFilename="NOTES~1.TXT", mimetype=None, data=b"Tide notes")
    pic = SimpleNamespace(longFilename="logo.png", shortFilename=None, mimetype="image/png", data=b"\x89PNG")
    embedded = SimpleNamespace(longFilename=None, shortFilename=None, mimetype=None, data=object())
    msg = SimpleNamespace(
        subject="Survey", sender="Ann <ann@example.org>", to="bob@example.org", cc=None, date="Tue, 01 Dec 2026",
        messageId="<m1>", body="Line one\r\n\r\n> quoted\r\n", htmlBody=None, attachments=[att, pic, embedded],
    )  # fmt: skip
    got = mail_from_msg(msg)
    assert (got.subject, got.headers) == (
        "Survey",
        {"from": "Ann <ann@example.org>", "to": "bob@example.org", "date": "Tue, 01 Dec 2026", "message_id": "<m1>"},
    )
    assert got.bodies == [("plain", "Line one\n\n> quoted\n")]
    assert [a.name for a in got.attachments] == ["notes.txt"] and got.attachments[0].read() == b"Tide notes"
    assert got.images == 1 and [code for code, _ in got.notes] == ["embedded_message"]


def test_a_msg_file_without_the_mail_extra_names_the_install_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    from pathlib import Path

    from parsegate.parsers.registry import parse_data

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "extract_msg" else real(name, *a))
    with pytest.raises(ParseError) as refused:
        parse_data(OLE_MAGIC + b"\0" * 600, Path("m.msg"))
    assert refused.value.code == "missing_extra" and "pip install 'parsegate[mail]'" in refused.value.message
    assert parse_data(reply().as_bytes(), Path("m.eml")).format == "eml"  # .eml needs no extra
