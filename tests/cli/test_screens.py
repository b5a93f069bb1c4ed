"""What a person reads in a terminal fits it: at 80 and 120 columns the columns that name things
(element ids and kinds, configuration names, chunk set ids) are whole, and no line is wider than
the terminal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app

GOLDEN = Path(__file__).resolve().parents[2] / "golden_docs"
WIDTHS = (80, 120)


def _invoke(width: int, *args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(width)}, terminal_width=width)
    assert result.exit_code == 0, result.output
    return result.stdout


def _widest(output: str) -> int:
    return max(len(line.rstrip()) for line in output.splitlines())


@pytest.mark.parametrize("width", WIDTHS)
def test_inspect_shows_every_element_id_kind_and_lines_whole(width: int) -> None:
    from parsegate import parse

    source = GOLDEN / "code" / "python" / "input.py"
    shown = _invoke(width, "inspect", str(source), "--max-tokens", "128")
    assert _widest(shown) <= width
    rows = [line for line in shown.splitlines() if line.startswith("│ e")]
    doc = parse(source)
    assert len(rows) == len(doc.elements)
    for row, element in zip(rows, doc.elements, strict=True):
        cells = [c.strip() for c in row.strip("│").split("│")]
        lines = f"{element.lines[0]}–{element.lines[1]}" if element.lines else ""
        assert cells[:3] == [element.id, element.kind, lines]


@pytest.mark.parametrize("width", WIDTHS)
def test_eval_names_every_configuration_whole(width: int) -> None:
    shown = _invoke(width, "eval", str(GOLDEN), "--case", "markdown", "--config", "structural",
                    "--config", "semantic-lexical", "--config", "parent-child", "--retriever", "bm25")  # fmt: skip
    assert _widest(shown) <= width
    for name in ("structural@256", "semantic-lexical@256", "parent-child@256"):
        assert len(re.findall(rf"^\s+{re.escape(name)}\s", shown, re.M)) == 2  # chunks table, retrieval table
    assert "…" not in shown.split("chunks, mean/max")[0]  # no figure cut


@pytest.mark.parametrize("width", WIDTHS)
def test_store_ls_shows_the_chunk_set_id_that_export_takes(width: int, tmp_path: Path) -> None:
    import json

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nSome text here.\n")
    CliRunner().invoke(app, ["-q", "run", str(corpus), "--out", str(tmp_path / "out")])
    store = tmp_path / ".parsegate" / "store.sqlite"
    shown = _invoke(width, "store", "ls", "--store", str(store))
    listed = json.loads(_invoke(width, "store", "ls", "--store", str(store), "--json"))
    assert _widest(shown) <= width
    assert listed and all(s["id"] in shown for s in listed)


def test_file_names_that_carry_terminal_escapes_reach_the_terminal_inert(tmp_path: Path) -> None:
    # An OSC 52 clipboard write and a screen clear in file names (and so in doc ids, progress,
    # the summary, warnings): written out, never sent (issue 39). Off a terminal rich adds no
    # escape of its own, so any ESC in the output would be the corpus's.
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    clipboard, clear = "\x1b]52;c;aGVsbG8=\x07", "\x1b[2J"
    (corpus / f"a{clipboard}.md").write_text("# A\n\nSome text here.\n")
    (corpus / f"b{clear}.xyz").write_bytes(b"\x00\x01binary")
    (corpus / f"c{clear}.md").write_text("---\ntitle: Notes\n---\n")  # front matter alone: text, no chunk
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(tmp_path / "out"), "--no-store"])
    shown = result.output
    assert result.exit_code == 1  # the document of front matter alone fails the gate
    assert "\x1b" not in shown and "\x07" not in shown
    assert "a\\x1b]52;c;aGVsbG8=\\x07.md" in shown or "c\\x1b[2J.md" in shown


@pytest.fixture(scope="module")
def six_formats(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import shutil

    root = tmp_path_factory.mktemp("six")
    for source, name in (
        ("markdown/policy-exception/input.md", "a.md"),
        ("text/plain-policy/input.txt", "b.txt"),
        ("office/html/mdbook-chapter/input.html", "c.html"),
        ("code/python/input.py", "d.py"),
        ("pdf/footnote/input.pdf", "e.pdf"),
        ("office/xlsx/ducks-and-budget/input.xlsx", "f.xlsx"),
    ):
        shutil.copy2(GOLDEN / source, root / name)
    out = tmp_path_factory.mktemp("six-out")
    CliRunner().invoke(app, ["-q", "run", str(root), "--out", str(out), "--no-store"])
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_the_gate_table_shows_every_format_and_value_whole(width: int, six_formats: Path) -> None:
    import json

    result = CliRunner().invoke(app, ["gate", str(six_formats)], env={"COLUMNS": str(width)}, terminal_width=width)
    shown = result.output.split("quality gate", 1)[1].split("gate PASS")[0].split("gate FAIL")[0]
    assert _widest(shown) <= width
    assert "…" not in shown
    report = json.loads((six_formats / "report.json").read_text())
    for fmt in report["formats"]:
        assert re.search(rf"\s{re.escape(fmt)}\s", shown), fmt
    from parsegate.quality_gates.report.rows import gate_table

    lines = shown.splitlines()
    for row in gate_table(report).rows:  # each metric's label whole on one line, not folded
        assert any(row.label in line for line in lines), row.label
