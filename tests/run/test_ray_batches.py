"""How a Ray run cuts its documents into batches (one actor task each): every document once, the
costliest first and alone, at most _BATCH_MOST a batch, about a sixteenth of the work each on two
actors. One task per document cost 3.5x the local engine's CPU on 2,036 files."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.engines.base import Task
from parsegate.engines.local.dispatch import cost
from parsegate.engines.ray import _BATCH_MOST, _BATCHES_PER_ACTOR, EngineError, _batches, _check_current_folder


def corpus(tmp_path: Path) -> list[Task]:
    tasks = []
    for n in range(300):
        path = tmp_path / f"note-{n:03}.md"
        path.write_text("word " * (20 + n))
        tasks.append(Task(n, path, path.name))
    for n, size in enumerate((3_000_000, 1_000_000)):  # two PDFs that cost more than all the notes
        path = tmp_path / f"big-{n}.pdf"
        path.write_bytes(b"%PDF-1.7\n" + b"0" * size)
        tasks.append(Task(300 + n, path, path.name))
    return tasks


def test_every_document_once_the_costliest_alone_first(tmp_path: Path) -> None:
    tasks = corpus(tmp_path)
    batches = _batches(tasks, actors=2)
    assert sorted(t.index for b in batches for t in b) == list(range(302))
    assert [[t.doc_id for t in b] for b in batches[:2]] == [["big-0.pdf"], ["big-1.pdf"]]
    assert all(len(b) <= _BATCH_MOST for b in batches)
    target = sum(cost(t.path) for t in tasks) / (2 * _BATCHES_PER_ACTOR)
    assert all(sum(cost(t.path) for t in b) <= target for b in batches if len(b) > 1)
    # The notes go in few batches, not one task each.
    assert len(batches) < 20


def test_a_few_office_files_go_to_one_actor_many_go_to_several(tmp_path: Path) -> None:
    """docling's import (about 4 s of CPU) is paid by each actor whose worker reads an Office file
    or a web page: a few of them make one batch, where the costliest of them stands (watched
    failing when they were batched by cost alone: the two costliest went to two batches)."""
    tasks = corpus(tmp_path)
    for n, size in enumerate((300_000, 200_000, 1_000, 500)):
        path = tmp_path / f"office-{n}.docx"
        path.write_bytes(b"0" * size)
        tasks.append(Task(400 + n, path, path.name))
    page = tmp_path / "page.html"
    page.write_bytes(b"<p>a page</p>")
    tasks.append(Task(404, page, page.name))
    batches = _batches(tasks, actors=2)
    office = [b for b in batches if any(t.doc_id.startswith(("office-", "page")) for t in b)]
    assert [[t.doc_id for t in b] for b in office] == [
        ["office-0.docx", "office-1.docx", "office-2.docx", "office-3.docx", "page.html"]
    ]
    # Where its costliest one stands: docling's import (schedule's first use) puts it after the
    # 3 MB PDF and before the 1 MB one.
    assert [b[0].doc_id for b in batches[:3]] == ["big-0.pdf", "office-0.docx", "big-1.pdf"]
    assert sorted(t.index for b in batches for t in b) == [*range(302), *range(400, 405)]
    # With a megabyte of them or more, a second import pays for itself: batched by cost.
    big = tmp_path / "office-big.docx"
    big.write_bytes(b"0" * 1_000_000)
    batches = _batches([*tasks, Task(405, big, big.name)], actors=2)
    assert [[t.doc_id for t in b] for b in batches[:3]] == [["big-0.pdf"], ["office-big.docx"], ["big-1.pdf"]]
    assert sum(1 for b in batches if any(t.doc_id.startswith("office-") for t in b)) > 1


def test_one_document_is_one_batch(tmp_path: Path) -> None:
    (task,) = corpus(tmp_path)[:1]
    assert _batches([task], actors=4) == [[task]]


def test_a_parsegate_folder_where_the_run_starts_is_refused_before_ray_starts(tmp_path: Path) -> None:
    """Ray's workers import from the driver's current folder first: a source checkout's parsegate/
    there shadowed the installed package ("No module named 'parsegate.chunkers'" from an actor)."""
    import parsegate

    (tmp_path / "parsegate").mkdir()
    (tmp_path / "parsegate" / "__init__.py").write_text("")
    with pytest.raises(EngineError, match=r"holds a parsegate/ package .* run from another folder"):
        _check_current_folder(tmp_path)
    _check_current_folder(tmp_path / "parsegate")  # no parsegate/ inside it
    _check_current_folder(Path(parsegate.__file__).resolve().parents[1])  # the installed one's own folder
