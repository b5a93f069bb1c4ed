"""Real mails from CPython's test suite (tests/fixtures/mail/README.md): a digest of attached
mails, a mail with an image, a bounce with a delivery-status part. Each parses with the parts it
has accounted for and passes the gate against the email package's own reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import mail
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate

FIXTURES = Path(__file__).parents[1] / "fixtures" / "mail"


def read(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def test_a_digest_lists_its_five_mails_as_attachments() -> None:
    doc = mail.parse(read("digest.eml"), "digest.eml")
    assert doc.metadata["subject"] == "Ppp digest, Vol 1 #2 - 5 msgs"
    assert doc.metadata["attachments"] == [f"message-{n}.eml" for n in range(1, 6)]
    first = mail.parse(mail.attachment(read("digest.eml"), ".eml", "message-1.eml")[1], "digest.eml#message-1.eml")
    assert (
        first.metadata["subject"] == "[Ppp] testing #1"
        and first.metadata["from"] == "barry@digicool.com (Barry A. Warsaw)"
    )


def test_an_image_is_skipped_and_counted() -> None:
    doc = mail.parse(read("dingus.eml"), "dingus.eml")
    assert doc.text.endswith("Hi there,\n\nThis is the dingus fish.")
    assert (doc.metadata["images_skipped"], doc.metadata["attachments"]) == (1, [])


def test_a_bounce_names_what_it_did_not_read() -> None:
    doc = mail.parse(read("banned-file.eml"), "banned-file.eml")
    assert doc.metadata["body"] == ["plain"] and doc.metadata["attachments"] == ["attachment-1.bin"]
    assert [(w.code, w.message) for w in doc.warnings] == [
        ("skipped", "a message/delivery-status part (machine-readable status) not read")
    ]


@pytest.mark.parametrize("name", ["digest.eml", "dingus.eml", "banned-file.eml"])
def test_real_mails_pass_the_gate(name: str) -> None:
    data = read(name)
    doc = mail.parse(data, name)
    chunker = Chunker(ChunkConfig(max_tokens=256))
    records = chunker.chunk(doc)
    verdict = evaluate(measure(doc, records, chunker.counter, chunker.max_tokens, data), Thresholds())
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0
