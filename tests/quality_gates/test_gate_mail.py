"""The gate's independent reading of a mail (references/mail.py): the subject, header lines and
body parts as the email package's own walk gives them. A parser that drops the quoted reply
fails extraction recall with the lost words named; words the mail does not hold fail
localization; an HTML-only mail is measured against its text nodes."""

from __future__ import annotations

from email.policy import default

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.parsers import mail
from parsegate.parsers.model import Document
from parsegate.quality_gates.measure import measure
from parsegate.quality_gates.references import open_reference
from parsegate.quality_gates.thresholds import Thresholds
from parsegate.quality_gates.verdict import evaluate
from tests.mail_samples import BODY, reply, with_attachments

DATA = with_attachments()


def gate(doc: Document, data: bytes = DATA):  # type: ignore[no-untyped-def]
    chunker = Chunker(ChunkConfig(max_tokens=128))
    records = chunker.chunk(doc)
    return evaluate(measure(doc, records, chunker.counter, chunker.max_tokens, data), Thresholds())


def test_a_mail_with_attachments_passes_against_its_own_parts() -> None:
    verdict = gate(mail.parse(DATA, "survey.eml"))
    assert verdict.passed, verdict.failed
    assert verdict.metrics["extraction_recall"] == 1.0
    assert verdict.metrics["localization"] == 1.0
    ref = open_reference("eml", DATA, "survey.eml")
    assert ref is not None and ref.kind == "the mail's own parts (email package)"
    assert "policy" not in ref.text.split("\n")[0] and "%PDF" not in ref.text  # attachments: not this document's


def test_a_dropped_quoted_reply_fails_recall_by_its_words() -> None:
    # A parser that leaves quoted replies out: the same mail read without them (the chunker's
    # spans run over a gap between elements, so dropping elements alone would not lose text).
    start = BODY.index("On Mon")
    unquoted = reply(BODY[:start] + BODY[BODY.index("Best,") :]).as_bytes(policy=default)
    verdict = gate(mail.parse(unquoted, "survey.eml"), reply().as_bytes(policy=default))
    (check,) = [c for c in verdict.failed if c.metric == "extraction_recall"]
    lost = check.faults[0]["words"].split()
    # the attribution and the three quoted lines: 29 of the mail's 86 words ("09", "12", "bob"…)
    assert check.faults[0]["count"] == 29
    assert verdict.metrics["extraction_recall"] == pytest.approx(57 / 86, abs=1e-6)
    assert {"send", "tide", "tables", "wrote"} <= set(lost)


def test_a_body_the_parser_never_read_fails_recall() -> None:
    whole = reply().as_bytes(policy=default)
    cut = reply("Hi Bob,\n").as_bytes(policy=default)
    verdict = gate(mail.parse(cut, "m.eml"), whole)
    assert verdict.metrics["extraction_recall"] < 0.7
    assert not verdict.passed


def test_words_the_mail_does_not_hold_fail_localization() -> None:
    doc = mail.parse(DATA, "survey.eml")
    other = mail.parse(reply("Completely different words about lighthouses.\n").as_bytes(policy=default), "x.eml")
    verdict = gate(other, DATA)
    assert verdict.metrics["localization"] < 1.0
    assert gate(doc).metrics["localization"] == 1.0


def test_an_html_only_mail_is_measured_against_its_text_nodes() -> None:
    msg = reply()
    msg.set_content("<p>Low water at <b>06:12</b> on Gull Island.</p><p>Bring boots.</p>", subtype="html")
    data = msg.as_bytes(policy=default)
    verdict = gate(mail.parse(data, "m.eml"), data)
    assert verdict.passed and verdict.metrics["extraction_recall"] == 1.0
    doc = mail.parse(data, "m.eml")
    doc.elements = [e for e in doc.elements if doc.text[e.start : e.end] != "Bring boots."]
    assert gate(doc, data).metrics["extraction_recall"] == pytest.approx(1 - 2 / 35, abs=0.02)
