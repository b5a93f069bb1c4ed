"""Issue 36's acceptance run: a folder holding one file of each format parsegate learned for it
(CSV, TSV, EPUB, a notebook, an image, a scanned PDF, a mail with an attachment,
reStructuredText, AsciiDoc) and a standard-library package with an empty ``__init__.py`` passes
the gate with the defaults, every file read as its format."""

from __future__ import annotations

import json
import shutil
import sysconfig
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app

pytest.importorskip("tree_sitter_language_pack")
pytest.importorskip("tesserocr")

GOLDEN = Path(__file__).parents[2] / "golden_docs"
INPUTS = {  # name in the folder: (golden case, the format its records name)
    "expenses.csv": ("csv/expense-report/input.csv", "csv"),
    "stations.tsv": ("csv/station-readings/input.tsv", "tsv"),
    "book.epub": ("epub/harbour-walks/input.epub", "epub"),
    "analysis.ipynb": ("notebook/sales-analysis/input.ipynb", "notebook"),
    "scan.png": ("image/scanned-table/input.png", "image"),
    "scan.pdf": ("pdf/scanned-footnote/input.pdf", "pdf"),
    "reply.eml": ("mail/harbour-reply/input.eml", "eml"),
    "gauge.rst": ("rst/tide-gauge/input.rst", "rst"),
    "runbook.adoc": ("asciidoc/backup-runbook/input.adoc", "asciidoc"),
}


def test_a_folder_of_the_new_formats_passes_the_gate_with_defaults(tmp_path: Path) -> None:
    corpus = tmp_path / "drive"
    corpus.mkdir()
    for name, (case, _) in INPUTS.items():
        shutil.copyfile(GOLDEN / case, corpus / name)
    shutil.copytree(Path(sysconfig.get_paths()["stdlib"]) / "email" / "mime", corpus / "mime")
    assert (corpus / "mime" / "__init__.py").stat().st_size == 0
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out), "--no-store"])
    assert result.exit_code == 0, result.output
    run = json.loads((out / "run.json").read_text())
    files = {f["path"]: f for f in run["files"]}
    assert {name: files[name]["format"] for name in INPUTS} == {name: fmt for name, (_, fmt) in INPUTS.items()}
    assert files["mime/__init__.py"]["status"] == "chunked" and files["mime/__init__.py"]["chunks"] == 0
    assert all(f["verdict"] == "pass" for f in run["files"]), [f for f in run["files"] if f["verdict"] != "pass"]
    assert files["reply.eml#agenda.txt"]["format"] == "text"  # the mail's attachment, a document of its own
