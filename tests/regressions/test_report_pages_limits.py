"""The run's parent draws no page itself (issue 39): a 648-byte PDF with one 2 x 300 pt page failed
the whole run while report.html was drawn (exit 2, no run.json), a 1 x 2000 pt page grew the parent
to gigabytes. Pages are drawn in a child under the document's limits, at most 1600 pixels tall,
and a child that fails costs that document's pictures only, with a note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.engines.base import Limits
from parsegate.runner import render
from parsegate.runner.render import PageDrawer

fpdf = pytest.importorskip("fpdf")


def _pdf(path: Path, width: float, height: float) -> None:
    doc = fpdf.FPDF(unit="pt", format=(width, height))
    doc.set_margins(0, 0)
    doc.set_auto_page_break(False)
    doc.add_page()
    doc.set_font("helvetica", size=1)
    doc.text(0.2, 10, "A")
    doc.output(str(path))


def test_a_run_with_needle_shaped_pages_finishes_and_draws_them_bounded(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _pdf(corpus / "thin.pdf", 2, 300)
    _pdf(corpus / "tall.pdf", 1, 2000)
    (corpus / "a.md").write_text("# A\n\nSome text here.\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out), "--no-store", "--allow-failures"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "run.json").read_text())["complete"] is True
    html = (out / "report.html").read_text()
    details = json.loads(html[html.index('id="data">') + 10 : html.index("</script>", html.index('id="data">'))])[
        "details"
    ]
    for page in (p for d in details.values() for p in d.get("pages") or []):
        assert page["height"] <= 1600 and page["width"] <= 560


def test_a_renderer_over_its_memory_limit_costs_the_pictures_and_says_so(tmp_path: Path) -> None:
    _pdf(tmp_path / "a.pdf", 200, 200)
    data = (tmp_path / "a.pdf").read_bytes()
    with PageDrawer(Limits(60.0, (), 40)) as drawer:
        pages, note = drawer.draw(data, [], [], [], 1, "a.pdf")
    assert pages == [] and note is not None and note.startswith("Pages not drawn: the renderer failed")
    with PageDrawer(Limits()) as drawer:
        pages, note = drawer.draw(data, [], [], [], 1, "a.pdf")
    assert note is None and len(pages) == 1


def test_one_child_draws_one_document_after_another_and_a_failed_child_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child per document paid Python's, parsegate's and PDFium's start each time (a quarter of a
    run's CPU on the shared corpus's PDFs)."""
    started: list[object] = []
    popen = render.subprocess.Popen

    def counted(*args: object, **kwargs: object) -> object:
        started.append(args)
        return popen(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(render.subprocess, "Popen", counted)
    _pdf(tmp_path / "a.pdf", 200, 200)
    data = (tmp_path / "a.pdf").read_bytes()
    with PageDrawer(Limits()) as drawer:
        assert len(drawer.draw(data, [], [], [], 1, "a.pdf")[0]) == 1
        assert drawer.draw(b"%PDF-1.4 not a pdf at all", [], [], [], 1, "b.pdf") == ([], None)
        assert len(drawer.draw(data, [], [], [], 1, "c.pdf")[0]) == 1
    assert len(started) == 1
    with PageDrawer(Limits(60.0, (), 40)) as drawer:  # each document fails its child: the next gets a new one
        for name in ("d.pdf", "e.pdf"):
            pages, note = drawer.draw(data, [], [], [], 1, name)
            assert pages == [] and note is not None and "renderer failed" in note
    assert len(started) == 3
