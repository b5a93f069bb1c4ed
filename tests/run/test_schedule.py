"""The order documents go to several workers (dispatch.schedule): the costliest first, the first
document of a format slow to import carrying its libraries' import (docling's for HTML and
Office: seconds), so that no long document starts last while the other workers run dry."""

from __future__ import annotations

from pathlib import Path

from parsegate.engines.base import Task
from parsegate.engines.local.dispatch import schedule


def tasks(tmp_path: Path, names_sizes: list[tuple[str, int]]) -> list[Task]:
    found = []
    for n, (name, size) in enumerate(names_sizes):
        (tmp_path / name).write_bytes(b"x" * size)
        found.append(Task(n, tmp_path / name, name))
    return found


def order(tmp_path: Path, names_sizes: list[tuple[str, int]]) -> list[str]:
    return [t.doc_id for t in schedule(tasks(tmp_path, names_sizes))]


def test_the_first_web_page_goes_first_and_the_rest_by_cost(tmp_path: Path) -> None:
    # big.md: 0.01 + 0.6 MB x 1.5 s = 0.91 s; a.html: 0.05 s + docling's import (4 s); b.html: 0.05 s.
    names = [("a.html", 10_000), ("b.html", 10_000), ("big.md", 600_000), ("small.md", 1_000)]
    assert order(tmp_path, names) == ["a.html", "big.md", "b.html", "small.md"]


def test_the_costliest_not_the_largest_goes_first(tmp_path: Path) -> None:
    # A PDF's megabyte costs 4.5 s, Markdown's 1.5 s: 0.3 MB of PDF (1.66 s with PDFium's import) before 0.5 MB of text.
    names = [("notes.md", 500_000), ("scan.pdf", 300_000)]
    assert order(tmp_path, names) == ["scan.pdf", "notes.md"]


def test_equal_costs_keep_the_given_order(tmp_path: Path) -> None:
    names = [("c.md", 5_000), ("a.md", 5_000), ("b.md", 5_000)]
    assert order(tmp_path, names) == ["c.md", "a.md", "b.md"]


def test_a_worker_has_its_next_document_before_the_finished_one_is_routed(tmp_path: Path) -> None:
    """The parent's routing (gate, writing) runs while the worker reads the next document."""
    from parsegate.chunkers import ChunkConfig
    from parsegate.engines.local.supervisor import Supervisor

    work = tasks(tmp_path, [("a.md", 50), ("b.md", 50), ("c.md", 50)])
    with Supervisor(ChunkConfig(), workers=1) as supervisor:
        busy_when_yielded = [(done.task.doc_id, supervisor.workers[0].task) for done in supervisor.run(work)]
    # When a.md is routed the worker is reading a later document: b.md, or already c.md (b.md
    # waited in its pipe, and a 50-byte file can be done before the parent routes a.md).
    # Nothing is left when the last one is routed.
    names = [(name, task and task.doc_id) for name, task in busy_when_yielded]
    assert [name for name, _ in names] == ["a.md", "b.md", "c.md"]
    assert names[0][1] in ("b.md", "c.md")
    assert names[-1] == ("c.md", None)


def test_only_a_short_document_is_queued_behind_a_busy_workers_own(tmp_path: Path) -> None:
    """A document queued behind the one a worker reads waits for it: only a short one (by the
    cost estimate) whose libraries that worker has, so that no long one waits while others idle."""
    from parsegate.engines.local.dispatch import SHORT, Pending, cost

    work = tasks(tmp_path, [("long.md", 100_000), ("short.md", 1_000), ("page.html", 1_000)])
    assert cost(work[0].path) > SHORT >= cost(work[1].path)
    pending = Pending(work)
    assert pending.take(set(), set(), short=True) is None  # long.md is next: not queued
    assert pending.take(set(), set()).doc_id == "long.md"  # type: ignore[union-attr]
    assert pending.take(set(), set(), short=True).doc_id == "short.md"  # type: ignore[union-attr]
    assert pending.take(set(), set(), short=True) is None  # docling's import would come with it
    assert pending.take({"docling"}, {"docling"}, short=True).doc_id == "page.html"  # type: ignore[union-attr]
