"""The mail parser on any input: a Document or a ParseError, nothing else; in a Document every
element's span inside the text, a container's span holding its children, and the attachments'
names unique and each one's bytes to be had by its name."""

from __future__ import annotations

from email.policy import default

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from parsegate.parsers import mail
from parsegate.parsers.model import Document, ParseError
from tests.mail_samples import reply

HEADERS = "From: a@b.c\nTo: d@e.f\nSubject: S\nMIME-Version: 1.0\n"
PIECES = [
    *"> \n\tabc=?é",
    "> ",
    ">\n",
    "\n\n",
    "On Mon, A wrote:\n",
    "-----Original Message-----\n",
    "Content-Type: multipart/mixed; boundary=b\n",
    "Content-Type: text/html\n",
    "Content-Transfer-Encoding: base64\n",
    "Content-Transfer-Encoding: quoted-printable\n",
    'Content-Disposition: attachment; filename="a.pdf"\n',
    'Content-Disposition: attachment; filename="../a.pdf"\n',
    "Content-Type: message/rfc822\n",
    "Content-Type: image/png\n",
    "charset=unknown-8\n",
    "--b\n",
    "--b--\n",
    "<p>x</p>",
    "=C3=A9",
]
BODY = st.lists(st.sampled_from(PIECES), max_size=50).map("".join)


def parsed(data: bytes) -> Document | None:
    try:
        return mail.parse(data, "m.eml")
    except ParseError:
        return None


def check(doc: Document, data: bytes) -> None:
    by_id = {e.id: e for e in doc.elements}
    for e in doc.elements:
        assert 0 <= e.start <= e.end <= len(doc.text)
        if e.parent is not None:
            parent = by_id[e.parent]
            assert parent.start <= e.start and e.end <= parent.end
    names = doc.metadata["attachments"]
    assert len({n.lower() for n in names}) == len(names)
    for name in names:
        assert "/" not in name and "\\" not in name and mail.attachment(data, ".eml", name)[0] == name


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BODY, st.booleans())
@example("> a\n>\n> b\n\nOn x wrote:\n> c\n", True)
@example("Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\n\n--b--\n", False)
def test_any_mail_parses_or_is_refused(body: str, headers: bool) -> None:
    data = ((HEADERS + "\n") if headers else "").encode() + body.encode("utf-8")
    doc = parsed(data)
    if doc is not None:
        check(doc, data)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_parse_or_are_refused(data: bytes) -> None:
    doc = parsed(data)
    if doc is not None:
        check(doc, data)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a.pdf", "A.PDF", "", "x/y.txt", "a~2.pdf", "a", ".hidden"]), max_size=6))
def test_attachment_names_are_unique_and_found_again(names: list[str]) -> None:
    msg = reply()
    for n, name in enumerate(names):
        msg.add_attachment(f"file {n}".encode(), maintype="application", subtype="octet-stream", filename=name or None)
    data = msg.as_bytes(policy=default)
    doc = mail.parse(data, "m.eml")
    check(doc, data)
    assert [mail.attachment(data, ".eml", name)[1] for name in doc.metadata["attachments"]] == [
        f"file {n}".encode() for n in range(len(names))
    ]
