"""What a run over a source tree leaves out, and says so: .gitignore (git's rules, per folder),
--exclude, __pycache__, version-control and virtualenv folders, binary files no parser claims."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.runner.discover import Selection, discover

runner = CliRunner()


def tree(root: Path) -> Path:
    files = {
        "README.md": "# Project\n\nRead me.\n",
        ".gitignore": "build/\n*.log\n!keep.log\n/top.txt\n",
        "keep.log": "kept: negated in .gitignore\n",
        "debug.log": "ignored\n",
        "top.txt": "ignored: anchored to the corpus folder\n",
        "docs/top.txt": "read: /top.txt anchors at the .gitignore's own folder\n",
        "docs/.gitignore": "draft.md\n!debug.log\n",
        "docs/draft.md": "ignored by docs/.gitignore\n",
        "docs/trace.log": "ignored: the outer .gitignore holds in sub-folders\n",
        "docs/debug.log": "read again: the deeper .gitignore has the last word\n",
        "docs/guide.md": "# Guide\n\nText.\n",
        "docs/old/legacy.md": "excluded by --exclude docs/old/\n",
        "build/out.md": "ignored folder\n",
        "site/style.css": "body { color: red; }\n",
        "src/app.py": "def f():\n    return 1\n",
        "src/__pycache__/app.cpython-311.pyc": "",
        "venv/pyvenv.cfg": "home = /usr/bin\n",
        "venv/lib/site.py": "x = 1\n",
        "CVS/Entries": "/README.md/1.1///\n",
        "empty.dat": "",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / "src/__pycache__/app.cpython-311.pyc").write_bytes(b"\xa7\r\r\n\x00\x00\x00\x00" + bytes(range(256)))
    (root / "logo.gif").write_bytes(b"GIF89a\x10\x00\x10\x00" + bytes(200))
    (root / "notes.md").write_bytes(b"\x00\x01binary under a suffix a parser claims")  # the parser reports it
    return root


def test_walk_honours_gitignore_exclude_and_tool_folders(tmp_path: Path) -> None:
    root = tree(tmp_path / "corpus")
    selection = Selection(excludes=("*.css", "docs/old/"))
    found = [s.doc_id for s in discover(root, selection)]
    assert found == [
        "README.md",
        "docs/debug.log",
        "docs/guide.md",
        "docs/top.txt",
        "empty.dat",
        "keep.log",
        "notes.md",
        "src/app.py",
    ]
    assert selection.left_out == {
        "hidden (use --include-hidden)": 2,  # the two .gitignore files
        "ignored by .gitignore": 5,  # debug.log, top.txt, build/ (once), docs/draft.md, docs/trace.log
        "matching --exclude": 2,  # site/style.css, docs/old/ (once)
        "__pycache__ folder": 1,
        "virtualenv folder": 1,
        "version-control folder": 1,
        "binary file (no parser for its suffix, content not text)": 1,  # logo.gif
    }


def test_no_gitignore_reads_what_it_ignores(tmp_path: Path) -> None:
    root = tree(tmp_path / "corpus")
    selection = Selection(gitignore=False)
    found = {s.doc_id for s in discover(root, selection)}
    assert {"debug.log", "top.txt", "build/out.md", "docs/draft.md", "site/style.css"} <= found
    assert "ignored by .gitignore" not in selection.left_out


def test_run_counts_what_it_left_out_in_run_json(tmp_path: Path) -> None:
    root = tree(tmp_path / "corpus")
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(root), "--out", str(out), "-w", "1", "-x", "*.css", "-x", "docs/old/"])
    run = json.loads((out / "run.json").read_text())
    assert run["exclude"] == ["*.css", "docs/old/"] and run["gitignore"] is True
    assert run["left_out"]["ignored by .gitignore"] == 5
    assert run["left_out"]["binary file (no parser for its suffix, content not text)"] == 1
    paths = {f["path"]: f["status"] for f in run["files"]}
    assert "logo.gif" not in paths and not any("__pycache__" in p for p in paths)
    assert paths["notes.md"] == "failed"  # a claimed suffix with binary content is a failure to report
    assert "left out on purpose: 1 paths (__pycache__ folder)" in " ".join(result.stderr.split())
