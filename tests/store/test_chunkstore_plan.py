"""The re-run plan looks stored results up in batches: its answer for every file must be the one
a lookup per file gives (a new version, another chunk set, a failure this run may or may not
take), over more files than one batch holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from parsegate.runner import plan as plan_module
from parsegate.runner.discover import Source
from parsegate.runner.plan import content_version, plan, reusable, reusable_failures


def _store(tmp_path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(tmp_path / "s.sqlite")
    db.execute(
        "CREATE TABLE results (chunk_set TEXT, doc_id TEXT, version TEXT, status TEXT, code TEXT, outcome TEXT,"
        " PRIMARY KEY (chunk_set, doc_id, version))"
    )
    return db


def test_the_batched_plan_answers_as_one_lookup_per_file_does(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(plan_module, "_BATCH", 7)  # many batches, one of them short
    folder = tmp_path / "corpus"
    folder.mkdir()
    db = _store(tmp_path)
    sources = []
    for n in range(40):
        path = folder / f"d{n:02}.txt"
        path.write_text(f"document {n}\n")
        source = Source(path, f"d{n:02}.txt")
        sources.append(source)
        doc = content_version(source)
        assert doc is not None
        kind = n % 5
        if kind == 0:
            continue  # never stored
        version = doc.version if kind != 1 else "sha256:an-older-version"
        chunk_set = "cs-this" if kind != 2 else "cs-another"
        status, code = ("failed", "timeout") if kind == 3 else ("chunked", None)
        if kind == 4 and n % 2:
            status, code = "failed", "encrypted"  # reusable when no password is given
        db.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)", (chunk_set, source.doc_id, version, status, code, f"o{n}")
        )
    sources.append(Source(folder / "missing.txt", "missing.txt"))  # cannot be hashed
    got = plan(db, "cs-this", sources)
    failures = reusable_failures(password=False)
    expected = []
    for item in got:
        doc = content_version(item.source) if item.source.path.is_file() else None
        expected.append(None if doc is None else reusable(db, "cs-this", doc, failures))
    assert [item.outcome for item in got] == expected
    assert [item.reuse for item in got] == [o is not None for o in expected]
    # Reused: the 8 files stored at this version under this chunk set, chunked or failed as
    # encrypted (no password given); not a timeout, another version or another chunk set.
    assert [item.source.doc_id for item in got if item.reuse] == [f"d{n:02}.txt" for n in range(4, 40, 5)]
