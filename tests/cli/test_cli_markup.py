"""User text reaches rich as Text, never as markup: `[/]` (which rich rejects as a closing tag
with nothing open) and `a[i]` (which rich would swallow as a style) are shown as written."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app

runner = CliRunner()
DOC = "# Arrays [/] and a[i]\n\nIndex with a[i] or close with [/] here.\n\n## [bold]Not bold[/bold]\n\nText [red]x[/red].\n"


def flat(text: str) -> str:
    return " ".join(text.split())


def test_inspect_shows_brackets_verbatim_in_tables_and_rules(tmp_path: Path) -> None:
    doc = tmp_path / "a[i].md"
    doc.write_text(DOC)
    result = runner.invoke(app, ["inspect", str(doc)], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "a[i].md · markdown · 4 elements" in out  # the table's title
    assert "Arrays [/] and a[i]" in out  # element text and section column
    assert "Index with a[i] or close with [/] here." in out  # chunk text
    assert "Arrays [/] and a[i] > [bold]Not bold[/bold]" in out  # a rule's section path
    assert "Text [red]x[/red]." in out


def test_warnings_and_run_summary_show_brackets_verbatim(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "notes[bold].xyz").write_text("Plain text with a[i].\n")  # unknown_format warning
    (corpus / "bad a[i].md").write_bytes(b"caf\x00 [/]")  # parse failure, with its name in the summary
    result = runner.invoke(app, ["run", str(corpus), "--out", str(tmp_path / "out")], env={"COLUMNS": "300"})
    (row,) = [line for line in result.stderr.splitlines() if line.startswith("│ parse failed")]  # the summary table
    assert "bad a[i].md" in row and "binary content" in row
    assert "unknown_format ×1" in flat(result.stderr)
    parsed = runner.invoke(app, ["parse", str(corpus / "notes[bold].xyz")], env={"COLUMNS": "300"})
    assert "warning notes[bold].xyz: no parser for '.xyz' files; read as text [unknown_format]" in parsed.stderr
