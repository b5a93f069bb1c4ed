"""report.html reads the chunks of the documents it details from chunks.jsonl by their doc_id,
read off each line without parsing the whole record (most lines are not wanted): ids with quotes,
backslashes and non-ASCII characters are read exactly."""

from __future__ import annotations

from pathlib import Path

import orjson

import parsegate
from parsegate.runner.reports import _chunks_by_doc

IDS = ['we"ird\\path/é.md', "plain.md", 'a\\"b.md', "doc_id.md"]


def test_chunks_are_found_by_their_exact_doc_id(tmp_path: Path) -> None:
    # Whole records (the session's schema check reads every chunks.jsonl the tests write), whose
    # text holds a decoy doc_id field.
    record = parsegate.chunk(text='"doc_id":"plain.md"', format="txt")[0].to_dict()
    lines = [
        orjson.dumps({**record, "id": f"ch-{n}-{k}", "doc_id": doc}) for n, doc in enumerate(IDS) for k in range(2)
    ]
    (tmp_path / "chunks.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    found = _chunks_by_doc(tmp_path, set(IDS[:3]), set(IDS[:3]))
    assert {doc: [c["id"] for c in chunks] for doc, chunks in found.items()} == {
        IDS[0]: ["ch-0-0", "ch-0-1"],
        IDS[1]: ["ch-1-0", "ch-1-1"],
        IDS[2]: ["ch-2-0", "ch-2-1"],
    }
