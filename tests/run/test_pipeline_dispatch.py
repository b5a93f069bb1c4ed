"""Which document a worker takes next, and how many workers a corpus gets."""

from __future__ import annotations

import os
from pathlib import Path

from parsegate.engines.base import Task
from parsegate.engines.local.dispatch import SHARE_BYTES, Pending
from parsegate.runner.discover import Source
from parsegate.runner.process import choose_workers


def tasks(tmp_path: Path, names_sizes: list[tuple[str, int]]) -> list[Task]:
    out = []
    for n, (name, size) in enumerate(names_sizes):
        (tmp_path / name).write_bytes(b"x" * size)
        out.append(Task(n, tmp_path / name, name))
    return out


def test_slow_to_import_formats_stay_with_the_worker_that_imported_them(tmp_path: Path) -> None:
    pending = Pending(tasks(tmp_path, [("a.md", 10), ("b.docx", 10), ("c.md", 10), ("d.html", 10), ("e.md", 10)]))
    first: set[str] = set()
    assert pending.take(first, set()).doc_id == "a.md"
    assert pending.take(first, set()).doc_id == "b.docx"  # nobody has docling yet: someone must import it
    first.add("docling")
    second: set[str] = set()
    assert pending.take(second, {"docling"}).doc_id == "c.md"  # d.html is left to the first worker
    assert pending.take(second, {"docling"}).doc_id == "e.md"
    assert pending.take(second, {"docling"}) is None  # idle rather than import docling for 10 bytes
    assert pending.take(first, {"docling"}).doc_id == "d.html"
    assert len(pending) == 0


def test_enough_of_a_slow_format_is_shared(tmp_path: Path) -> None:
    big = SHARE_BYTES // 2 + 1
    pending = Pending(tasks(tmp_path, [("a.docx", big), ("b.docx", big), ("c.docx", big)]))
    assert pending.take({"docling"}, {"docling"}).doc_id == "a.docx"
    assert pending.take(set(), {"docling"}).doc_id == "b.docx"  # two left, over SHARE_BYTES: worth a second import
    assert pending.take(set(), {"docling"}) is None  # one left: not worth it


def test_a_handful_of_small_files_gets_one_worker_and_a_big_corpus_all_cores(tmp_path: Path) -> None:
    small = [Source(t.path, t.doc_id) for t in tasks(tmp_path, [(f"{n}.md", 2000) for n in range(3)])]
    assert choose_workers(0, small) == 1
    big = [Source(t.path, t.doc_id) for t in tasks(tmp_path, [(f"big{n}.md", 500_000) for n in range(8)])]
    assert choose_workers(0, big) == min(os.cpu_count() or 1, 8)
    assert choose_workers(4, small) == 3  # asked for, but never more workers than files


def test_a_corpus_of_a_second_or_more_of_work_gets_a_second_worker(tmp_path) -> None:
    # 155 Markdown pages of 10 KB (the fastapi docs' size): 2 workers ran them 1.55x faster than
    # one on a 2-core machine (benchmarks/results/workers.json), so the default takes both cores.
    sources = []
    for n in range(155):
        path = tmp_path / f"page{n}.md"
        path.write_bytes(b"x" * 9_500)
        sources.append(Source(path, f"page{n}.md"))
    assert choose_workers(0, sources) == min(os.cpu_count() or 1, 2)
