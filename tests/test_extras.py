"""Without the pdf, office and code extras (their libraries not installed), parsegate still
reads Markdown, plain text and web pages, and a PDF, Office or code file fails with a reason that
names the extra to install; the gate measures what it can. Simulated in subprocesses (and so in
run's workers) by a sitecustomize, first on PYTHONPATH, that hides the libraries from the import
system as an uninstalled package is hidden: importlib.util.find_spec finds nothing, an import
raises ModuleNotFoundError."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GOLDEN

BLOCKED = ("pypdfium2", "pdfplumber", "docling", "docling_core", "tree_sitter", "tree_sitter_language_pack")
HIDE = """
import sys
from importlib.machinery import PathFinder

class Uninstalled(PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            return None
        return PathFinder.find_spec(name, path, target)

sys.meta_path[:] = [Uninstalled if finder is PathFinder else finder for finder in sys.meta_path]
"""


@pytest.fixture
def without_extras(tmp_path: Path) -> dict[str, str]:
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "sitecustomize.py").write_text(HIDE.format(blocked=set(BLOCKED)))
    return {"PYTHONPATH": str(blocked), "PATH": "/usr/bin:/bin"}


def python(code: str, env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_core_formats_read_and_the_others_name_their_extra(without_extras: dict[str, str], tmp_path: Path) -> None:
    code = """
import json, parsegate
from parsegate.parsers.model import ParseError
out = {}
doc = parsegate.parse(b"# Setup\\n\\nRun it:\\n\\n```python\\ndef f():\\n    return 1\\n```\\n", format="md")
chunks = parsegate.chunk(doc)
out["md"] = [e.kind for e in doc.elements]
out["gate"] = parsegate.gate(doc, chunks, source=doc.text.encode()).passed
out["html"] = [e.kind for e in parsegate.parse(b"<h1>T</h1><p>Body text.</p>", format="html").elements]
out["script"] = parsegate.parse(b"#!/usr/bin/env python3\\nprint(1)\\n", doc_id="tool").format
for fmt, data in (("py", b"x = 1\\n"), ("pdf", b"%PDF-1.4\\n"), ("docx", b"PK\\x03\\x04")):
    try:
        parsegate.parse(data, format=fmt)
        out[fmt] = "parsed"
    except ParseError as exc:
        out[fmt] = [exc.code, exc.message]
print(json.dumps(out))
"""
    out = json.loads(python(code, without_extras, tmp_path))
    assert out["md"] == ["heading", "paragraph", "code"] and out["gate"] is True  # the fence stays one block
    assert out["html"] == ["heading", "paragraph"] and out["script"] == "text"
    for fmt, extra, library in (
        ("py", "code", "tree_sitter"),
        ("pdf", "pdf", "pypdfium2"),
        ("docx", "office", "docling"),
    ):
        assert out[fmt][0] == "missing_extra"
        assert f"pip install 'parsegate[{extra}]'" in out[fmt][1] and library in out[fmt][1]


def test_a_run_without_the_pdf_extra_quarantines_pdfs_with_the_reason(
    without_extras: dict[str, str], tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "guide.md").write_text("# Guide\n\nEmployees may claim meals.\n")
    (corpus / "report.pdf").write_bytes((GOLDEN / "pdf" / "footnote" / "input.pdf").read_bytes())
    code = f"""
import json, parsegate
result = parsegate.run({str(corpus)!r}, {str(tmp_path / "out")!r}, use_store=False)
print(json.dumps(result.summary))
"""
    summary = json.loads(python(code, without_extras, tmp_path))
    assert summary["chunked"] == 1 and summary["failed_by_code"] == {"missing_extra": 1}
    quarantined = [json.loads(line) for line in (tmp_path / "out" / "quarantine.jsonl").read_text().splitlines()]
    assert [q.get("code") for q in quarantined] == ["missing_extra"]
    assert "parsegate[pdf]" in json.dumps(quarantined[0])
