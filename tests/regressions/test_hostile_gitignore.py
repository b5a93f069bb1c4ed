"""A corpus's .gitignore is the user's data: it must not stall a run before any limit holds
(issue 39). Patterns are matched by one RE2 automaton, in time linear in the path; a file of more
patterns than that automaton can hold is refused, named, with the way round it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.runner.discover import MAX_IGNORE_PATTERNS, Selection, discover


def test_a_backtracking_pattern_on_long_names_is_matched_at_once(tmp_path: Path) -> None:
    # With Python's regex this pattern took about 3 minutes per 48-letter name (measured); the
    # test would hang rather than pass.
    (tmp_path / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*b\n")
    for n in range(3):
        (tmp_path / ("a" * 48 + f"{n}.txt")).write_text("text\n")
    (tmp_path / ("a" * 20 + "b")).write_text("ignored\n")
    found = discover(tmp_path, Selection(("*",), ()))
    assert sorted(s.doc_id for s in found) == sorted("a" * 48 + f"{n}.txt" for n in range(3))


def test_a_gitignore_too_large_to_match_in_bounded_time_is_refused_by_name(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / ".gitignore").write_text("".join(f"dir{n}/file{n}*.log\n" for n in range(MAX_IGNORE_PATTERNS + 1)))
    (corpus / "a.md").write_text("# A\n\nText.\n")
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(tmp_path / "out"), "--no-store"])
    assert result.exit_code == 2
    assert f"{corpus / '.gitignore'}: {MAX_IGNORE_PATTERNS + 1} patterns" in " ".join(result.output.split())
    passed = CliRunner().invoke(app, ["-q", "run", str(corpus), "--out", str(tmp_path / "out"), "--no-store",
                                      "--no-gitignore"])  # fmt: skip
    assert passed.exit_code == 0
