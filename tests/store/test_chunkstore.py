"""The chunk store under `parsegate run`: incremental re-runs, changed and deleted files, new
chunk sets for new configurations, and a store that cannot be used refused before any work."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.parsers import registry
from parsegate.store.schema import StoreLock
from tests.hostile_plugins import install

runner = CliRunner()
DOC = (
    "# {name}\n\nFirst paragraph about {name}. It has a second sentence that goes on for a while. "
    "And a third one, so that a small budget cuts it.\n\n## Part\n\n- one thing to remember\n- two more things\n"
)


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = install(tmp_path / "plugins")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry, "_loaded", None)
    monkeypatch.setenv("PG_TEST_PIDS", str(tmp_path))
    monkeypatch.setenv("PG_TEST_RELEASE", str(tmp_path / "release"))
    monkeypatch.setenv("PYTHONPATH", str(folder))
    (tmp_path / "release").touch()
    return folder


def make_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    for name in ("a", "b", "sub/c"):
        (root / f"{name}.md").write_text(DOC.format(name=name))
    (root / "bad.txt").write_bytes(b"\x00\x01binary\x00")  # fails to parse, the same way every time
    return root


def run(root: Path, out: Path, *extra: str) -> dict:
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "--allow-failures", *extra])
    assert result.exit_code == 0, result.output
    return json.loads((out / "run.json").read_text())


def query(tmp_path: Path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(tmp_path / ".parsegate" / "store.sqlite")) as store:
        return store.execute(sql).fetchall()


def test_a_rerun_parses_nothing_and_writes_the_same_outputs(plugins: Path, tmp_path: Path) -> None:
    root = make_corpus(tmp_path)
    (root / "z.wait").write_text("a document only the test parser reads\n")
    out = tmp_path / "out"
    first = run(root, out)
    assert first["store"]["parsed"] == 5 and first["store"]["reused"] == 0
    assert (tmp_path / "z.wait.pid").exists()  # the test parser ran
    kept = {name: (out / name).read_bytes() for name in ("chunks.jsonl", "quarantine.jsonl")}
    (tmp_path / "z.wait.pid").unlink()
    second = run(root, out)
    # Independent of the store's own counts: the parser of z.wait never ran again.
    assert not (tmp_path / "z.wait.pid").exists()
    assert second["store"] | {"path": ""} == {
        "path": "",
        "reused": 5,
        "parsed": 0,
        "not_stored": 0,
        "gone": 0,
        "outputs": "up to date",
    }
    for name, data in kept.items():
        assert (out / name).read_bytes() == data
    strip = ("seconds", "started_at", "finished_at", "store")
    same = [{k: v for k, v in f.items() if k != "seconds"} for f in first["files"]]
    assert [{k: v for k, v in f.items() if k != "seconds"} for f in second["files"]] == same
    assert {k: v for k, v in first.items() if k not in strip} == {k: v for k, v in second.items() if k not in strip}


def test_a_changed_file_is_a_new_version_and_a_deleted_one_is_gone(tmp_path: Path) -> None:
    root = make_corpus(tmp_path)
    out = tmp_path / "out"
    first = run(root, out)
    (root / "a.md").write_text(DOC.format(name="a").replace("First paragraph", "A new first paragraph"))
    (root / "b.md").unlink()
    second = run(root, out)
    assert (second["store"]["reused"], second["store"]["parsed"], second["store"]["gone"]) == (2, 1, 1)
    chunk_set = first["chunk_set"]
    assert query(tmp_path, "SELECT count(*) FROM results WHERE doc_id = 'a.md'") == [(2,)]  # the old version stays
    assert query(tmp_path, "SELECT doc_id FROM members WHERE gone_at IS NOT NULL") == [("b.md",)]
    # What the chunk set holds now: a.md's chunks all from the new version, none from the old.
    exported = tmp_path / "now.jsonl"
    assert (
        runner.invoke(
            app, ["export", chunk_set, "-o", str(exported), "--store", str(tmp_path / ".parsegate/store.sqlite")]
        ).exit_code
        == 0
    )
    records = [json.loads(x) for x in exported.read_text().splitlines()]
    assert exported.read_bytes() == (out / "chunks.jsonl").read_bytes()
    new_version = {r["doc_version"] for r in records if r["doc_id"] == "a.md"}
    assert len(new_version) == 1 and "A new first paragraph" in "".join(
        r["text"] for r in records if r["doc_id"] == "a.md"
    )
    assert "b.md" not in {r["doc_id"] for r in records}


def test_a_new_configuration_is_a_new_chunk_set_and_the_old_one_stays(tmp_path: Path) -> None:
    root = make_corpus(tmp_path)
    store = str(tmp_path / ".parsegate" / "store.sqlite")
    first = run(root, tmp_path / "out")
    second = run(root, tmp_path / "out-small", "--max-tokens", "24")
    assert first["chunk_set"] != second["chunk_set"] and second["store"]["parsed"] == 4
    listed = runner.invoke(app, ["store", "ls", "--json", "--store", store])
    assert [s["id"] for s in json.loads(listed.output)] == [first["chunk_set"], second["chunk_set"]]
    for chunk_set, out in ((first["chunk_set"], "out"), (second["chunk_set"], "out-small")):
        target = tmp_path / f"{chunk_set}.jsonl"
        assert runner.invoke(app, ["export", chunk_set, "-o", str(target), "--store", store]).exit_code == 0
        assert target.read_bytes() == (tmp_path / out / "chunks.jsonl").read_bytes()
    diff = json.loads(
        runner.invoke(app, ["diff", first["chunk_set"], second["chunk_set"], "--json", "--store", store]).output
    )
    changed = {d["doc_id"]: d for d in diff["documents_changed"]}
    assert sorted(changed) == ["a.md", "b.md", "sub/c.md"] and diff["documents_only_in_a"] == []
    old = [json.loads(x) for x in (tmp_path / "out" / "chunks.jsonl").read_text().splitlines() if '"a.md"' in x]
    new = {
        json.loads(x)["id"]: json.loads(x) for x in (tmp_path / "out-small" / "chunks.jsonl").read_text().splitlines()
    }
    for chunk in old:  # every old chunk's span is covered by the new chunks it is mapped to
        cover = [new[i] for i in changed["a.md"]["covered_by"][chunk["id"]]]
        assert (
            cover
            and min(c["start"] for c in cover) <= chunk["start"] + 2
            and max(c["end"] for c in cover) >= chunk["end"]
        )
    retire = runner.invoke(app, ["retire", first["chunk_set"], "--yes", "--store", store])
    assert retire.exit_code == 0 and f"retiring {first['chunk_set']} removes: 4 current documents" in retire.output
    listed = runner.invoke(app, ["store", "ls", "--json", "--store", store])
    assert [s["id"] for s in json.loads(listed.output)] == [second["chunk_set"]]
    target = tmp_path / "after.jsonl"
    assert runner.invoke(app, ["export", second["chunk_set"], "-o", str(target), "--store", store]).exit_code == 0
    assert target.read_bytes() == (tmp_path / "out-small" / "chunks.jsonl").read_bytes()


def test_a_read_only_or_corrupt_store_is_refused_before_any_work(tmp_path: Path) -> None:
    root = make_corpus(tmp_path)
    run(root, tmp_path / "out")
    store = tmp_path / ".parsegate" / "store.sqlite"
    store.chmod(0o444)
    refused = runner.invoke(app, ["run", str(root), "--out", str(tmp_path / "out")])
    assert refused.exit_code == 2 and "the store is read-only" in refused.output
    assert not (tmp_path / "out" / "history").exists()  # the previous run was not even moved
    store.chmod(0o644)
    for suffix in ("-wal", "-shm"):
        Path(str(store) + suffix).unlink(missing_ok=True)
    store.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    refused = runner.invoke(app, ["run", str(root), "--out", str(tmp_path / "out")])
    assert refused.exit_code == 2 and "not a usable store" in refused.output, refused.output
    assert not (tmp_path / "out" / "history").exists()
    other = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(other)) as foreign:
        foreign.execute("CREATE TABLE x (y)")
        foreign.commit()
    refused = runner.invoke(app, ["run", str(root), "--out", str(tmp_path / "o2"), "--store", str(other)])
    assert refused.exit_code == 2 and "not a parsegate store" in refused.output


def test_a_second_run_on_the_same_store_is_refused(tmp_path: Path) -> None:
    root = make_corpus(tmp_path)
    store = tmp_path / "shared.sqlite"
    with StoreLock(store, "run"):
        refused = runner.invoke(app, ["run", str(root), "--out", str(tmp_path / "elsewhere"), "--store", str(store)])
    assert refused.exit_code == 2 and f"the store {store} is in use by another parsegate run (pid" in refused.output
    assert not (tmp_path / "elsewhere" / "run.json").exists()


def test_no_store_records_nothing(tmp_path: Path) -> None:
    root = make_corpus(tmp_path)
    record = run(root, tmp_path / "out", "--no-store")
    assert "store" not in record and not (tmp_path / ".parsegate").exists()


def test_an_encrypted_pdf_is_reused_without_a_password_and_read_again_with_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.conftest import corpus_dir

    monkeypatch.setenv("PARSEGATE_PDF_PASSWORD", "")  # restored after the test: --password sets it
    root = make_corpus(tmp_path)
    (root / "locked.pdf").write_bytes((corpus_dir("pdf") / "password-example.pdf").read_bytes())
    out = tmp_path / "out"
    first = run(root, out)
    locked = {f["path"]: f for f in first["files"]}["locked.pdf"]
    assert (locked["status"], locked["code"]) == ("failed", "encrypted")
    second = run(root, out)  # still no password: the bytes decide, so it is not parsed again
    assert (second["store"]["reused"], second["store"]["parsed"]) == (5, 0)
    assert {f["path"]: f for f in second["files"]}["locked.pdf"] == locked
    third = run(root, out, "--password", "test")  # a password may open it: read again, and it does
    assert (third["store"]["reused"], third["store"]["parsed"]) == (4, 1)
    assert {f["path"]: f["status"] for f in third["files"]}["locked.pdf"] == "chunked"
    assert "Backup4all" in (out / "chunks.jsonl").read_text()


def _report_details(out: Path) -> dict:
    html = (out / "report.html").read_text()
    start = html.index('id="data">') + len('id="data">')
    return json.loads(html[start : html.index("</script>", start)])["details"]


def test_a_rerun_takes_report_pages_from_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from parsegate.quality_gates.report import pages as page_images
    from tests.conftest import corpus_dir

    root = make_corpus(tmp_path)
    (root / "memo.pdf").write_bytes((corpus_dir("pdf") / "2023-06-20-PV.pdf").read_bytes())
    out = tmp_path / "out"
    run(root, out)
    drawn = _report_details(out)["memo.pdf"]["pages"]
    assert drawn and all(p["image"].startswith("data:image/") for p in drawn)

    def no_drawing(*args: object) -> None:
        raise AssertionError("a re-run drew the pages again")

    monkeypatch.setattr(page_images, "page_images", no_drawing)
    second = run(root, out)
    assert second["store"]["parsed"] == 0
    assert _report_details(out)["memo.pdf"]["pages"] == drawn
