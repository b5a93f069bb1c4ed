"""A mail's attachments as documents of their own (parsegate/runner/members.py): ``parsegate run``
over a folder with a mail lists ``mail.eml#name`` for each attachment, in chunks.jsonl and
run.json, each read by its own parser and gated against its own reference; the store reuses them;
``--glob`` decides on the mail; a broken mail lists none."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.runner.discover import Source, discover
from parsegate.runner.members import member_of, with_attachments
from tests.mail_samples import reply
from tests.mail_samples import with_attachments as mail_with

IDS = ["survey.eml", "survey.eml#policy.pdf", "survey.eml#rates.docx", "survey.eml#tides.txt"]


def run(corpus: Path, out: Path, *extra: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out), "-w", "1", *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads((out / "run.json").read_text())


def test_a_mail_and_its_attachments_pass_the_gate_as_four_documents(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "survey.eml").write_bytes(mail_with())
    code, record = run(corpus, tmp_path / "out", "--no-store")
    assert code == 0
    files = {f["path"]: f for f in record["files"]}
    assert list(files) == IDS
    assert [(files[i]["format"], files[i]["verdict"]) for i in IDS] == [
        ("eml", "pass"), ("pdf", "pass"), ("docx", "pass"), ("text", "pass")
    ]  # fmt: skip
    chunks = [orjson.loads(line) for line in (tmp_path / "out" / "chunks.jsonl").read_bytes().splitlines()]
    by_doc = {c["doc_id"] for c in chunks}
    assert by_doc == set(IDS)
    tides = [c for c in chunks if c["doc_id"] == "survey.eml#tides.txt"]
    assert [c["text"] for c in tides] == ["Low water 06:12, high water 12:30."]
    first = next(c for c in chunks if c["doc_id"] == "survey.eml")
    assert first["section_path"] == ["Harbour survey results"] and "quoted" in first["kinds"]
    assert first["text"].startswith("Harbour survey results\n\nFrom: Ann Gull <ann@example.org>\n")


def test_the_store_reuses_attachments_and_a_changed_mail_reads_them_again(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "survey.eml").write_bytes(mail_with(pdf=False, docx=False))
    store = ["--store", str(tmp_path / "store.sqlite")]
    code, record = run(corpus, tmp_path / "out", *store)
    assert code == 0 and [f["path"] for f in record["files"]] == ["survey.eml", "survey.eml#tides.txt"]
    code, again = run(corpus, tmp_path / "out2", *store)
    assert code == 0 and again["store"]["reused"] == 2 and again["store"]["parsed"] == 0
    (corpus / "survey.eml").write_bytes(mail_with(pdf=False))
    code, changed = run(corpus, tmp_path / "out3", *store)
    assert [f["path"] for f in changed["files"]] == ["survey.eml", "survey.eml#rates.docx", "survey.eml#tides.txt"]
    assert changed["store"]["parsed"] == 3


def test_attachments_follow_their_mail_through_glob_and_a_broken_mail_lists_none(tmp_path: Path) -> None:
    (tmp_path / "survey.eml").write_bytes(mail_with(pdf=False, docx=False))
    (tmp_path / "broken.eml").write_bytes(b"\x00\x01 no mail at all")
    (tmp_path / "notes.txt").write_text("Words.\n")
    found = with_attachments(discover(tmp_path))
    assert [(s.doc_id, s.member) for s in found] == [
        ("broken.eml", None), ("notes.txt", None), ("survey.eml", None), ("survey.eml#tides.txt", "tides.txt"),
    ]  # fmt: skip
    assert all(s.path == tmp_path / "survey.eml" for s in found[2:])
    from parsegate.runner.discover import Selection

    assert [s.doc_id for s in with_attachments(discover(tmp_path, Selection(("*.txt",))))] == ["notes.txt"]


def test_a_doc_id_names_a_member_only_after_a_mail_suffix() -> None:
    assert member_of("a/survey.eml#policy.pdf") == ("a/survey.eml", "policy.pdf")
    assert member_of("notes#1.txt") is None and member_of("survey.eml") is None
    assert with_attachments([Source(Path("/nowhere/x.eml"), "x.eml")]) == [Source(Path("/nowhere/x.eml"), "x.eml")]


def test_a_forwarded_mail_is_read_as_a_mail_its_attachments_not_listed(tmp_path: Path) -> None:
    outer = reply("See the forwarded survey.\n", subject="Fwd: survey")
    inner = reply()
    inner.add_attachment(b"inner attachment words\n", maintype="text", subtype="plain", filename="inner.txt")
    outer.add_attachment(inner)
    (tmp_path / "fwd.eml").write_bytes(outer.as_bytes())
    code, record = run(tmp_path, tmp_path / "out", "--no-store")
    files = {f["path"]: f for f in record["files"]}
    assert list(files) == ["fwd.eml", "fwd.eml#message-1.eml"]
    assert files["fwd.eml#message-1.eml"]["format"] == "eml" and code == 0


def test_the_report_shows_an_attachments_source_read_out_of_the_mail(tmp_path: Path) -> None:
    from parsegate.runner.reports import _read

    (tmp_path / "survey.eml").write_bytes(mail_with(pdf=False, docx=False))
    data, note = _read(tmp_path, "survey.eml#tides.txt", None)
    assert (data, note) == (b"Low water 06:12, high water 12:30.\n", None)
    assert _read(tmp_path / "survey.eml", "survey.eml#tides.txt", None)[0] == data  # a one-file corpus
    assert _read(tmp_path, "survey.eml#gone.txt", None) == (
        None, "The mail no longer holds this attachment; it is not shown."
    )  # fmt: skip
    (tmp_path / "plain.eml#1.txt").write_text("a file with '#' in its name\n")  # not an attachment
    (tmp_path / "plain.eml").write_bytes(mail_with(pdf=False, docx=False))
    assert _read(tmp_path, "plain.eml#1.txt", None)[0] == b"a file with '#' in its name\n"


def test_a_file_named_like_an_attachment_keeps_its_doc_id(tmp_path: Path) -> None:
    from parsegate.runner.discover import Selection
    from parsegate.runner.members import SHADOWED

    (tmp_path / "survey.eml").write_bytes(mail_with(pdf=False, docx=False))
    (tmp_path / "survey.eml#tides.txt").write_text("a file of its own\n")
    selection = Selection()
    found = with_attachments(discover(tmp_path, selection), selection)
    assert [(s.doc_id, s.member) for s in found] == [("survey.eml", None), ("survey.eml#tides.txt", None)]
    assert selection.left_out == {SHADOWED: 1}
