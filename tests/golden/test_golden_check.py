"""`parsegate golden`: each kind of change is reported, with case, span and reason, and fails."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.cli.main import app
from parsegate.golden.cases import discover
from parsegate.golden.check import check_case, check_cases, exit_code
from tests.golden import CHAT, POLICY, case, edit_json, golden_copies


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return golden_copies(tmp_path)


runner = CliRunner()


def test_unchanged_copies_pass(root: Path) -> None:
    reports = check_cases(discover(root))
    assert [r.status for r in reports] == ["ok", "ok"]
    assert exit_code(reports) == 0


class CutAfterFirstSentence(Chunker):
    """A chunker with one boundary deliberately broken: the chunk holding the meal rule is cut
    between its rule and the exception that follows it."""

    def chunk(self, doc):  # type: ignore[no-untyped-def]
        out = []
        for c in super().chunk(doc):
            cut = doc.text.find(" This limit", c.start, c.end)
            if cut == -1:
                out.append(c)
                continue
            out.append(replace(c, end=cut, text=doc.text[c.start : cut], embed_text=doc.text[c.start : cut]))
            out.append(replace(c, start=cut + 1, text=doc.text[cut + 1 : c.end], embed_text=doc.text[cut + 1 : c.end]))
        return out


def test_a_broken_boundary_fails_with_case_span_and_reason(root: Path) -> None:
    target = case(root, POLICY)
    report = check_case(target, CutAfterFirstSentence(ChunkConfig(**target.config().__dict__)))
    assert report.failed("any") and report.failed("evidence")
    assert report.status == "evidence_failed"
    assert report.diff is not None
    assert [(m["before"], m["after"]) for m in report.diff.boundaries_moved] == [([[0, 205]], [[0, 96], [97, 205]])]
    lost = [e for q in report.questions for e in q.to_dicts(report.case) if e["status"] == "lost"]
    assert len(lost) == 1
    assert lost[0]["case"] == POLICY
    assert lost[0]["question_id"] == f"{POLICY}#1"
    assert lost[0]["span"] == [28, 205]
    assert lost[0]["pieces"] == [[0, 96], [97, 205]]
    assert lost[0]["reason"] == "span [28-205] is split across chunks [0-96] and [97-205] (cut at 96)"
    # the other questions about this document still hold (the fourth is a recorded expected failure)
    assert [q.status for q in report.questions] == ["lost", "ok", "ok", "xfail", "ok"]


def test_cli_check_reports_a_smaller_budget_as_lost_evidence_in_json(root: Path) -> None:
    """What a user sees after changing a chunk size: exit 1, and JSON naming case, span and reason."""
    (root / POLICY / "config.json").write_text('{"max_tokens": 30}')
    result = runner.invoke(app, ["golden", "check", str(root), "--json"])
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    assert payload["schema"] == "parsegate.golden-check/2"
    by_case = {c["case"]: c for c in payload["cases"]}
    assert by_case[CHAT]["status"] == "ok"
    policy = by_case[POLICY]
    assert policy["status"] == "evidence_failed"
    assert [(e["question_id"], e["status"], e["span"], e["reason"]) for e in policy["evidence"][:3]] == [
        (f"{POLICY}#1", "lost", [28, 205], "span [28-205] is split across chunks [0-96] and [97-205] (cut at 96)"),
        # whole at 30 tokens once its breadcrumb gives way (its prefix keeps what is left)
        (f"{POLICY}#2", "ok", [207, 342], "whole in chunk [207-342]"),
        (
            f"{POLICY}#3",
            "lost",
            [357, 503],
            "span [357-503] is split across chunks [344-395] and [396-503] (cut at 395)",
        ),
    ]
    assert payload["summary"]["failed"] == 1
    # --fail-on evidence still fails: the evidence is what broke
    assert runner.invoke(app, ["golden", "check", str(root), "--fail-on", "evidence"]).exit_code == 1


def test_heading_level_change_is_reported(root: Path) -> None:
    path = root / POLICY / "expected" / "elements.json"
    edit_json(path, lambda els: els[1].update(level=3))  # "## Meals" was level 3 before, say
    report = check_case(case(root, POLICY))
    assert report.diff is not None
    assert report.diff.levels_changed == [{"kind": "heading", "text": "## Meals", "id": "e1", "before": 3, "after": 2}]
    assert report.failed("any") and not report.failed("evidence")


def test_elements_added_and_lost_are_reported(root: Path) -> None:
    path = root / POLICY / "expected" / "elements.json"

    def change(els: list) -> None:
        els.pop(3)  # today's parse has it: reported as added
        els.append({"id": "e99", "kind": "paragraph", "start": 600, "end": 610, "text": "Gone para.", "level": None})

    edit_json(path, change)
    diff = check_case(case(root, POLICY)).diff
    assert diff is not None
    assert [(e["kind"], e["span"]) for e in diff.elements_added] == [("paragraph", [207, 342])]
    assert [(e["id"], e["text"]) for e in diff.elements_lost] == [("e99", "Gone para.")]


def test_expected_failures_are_strict(root: Path) -> None:
    evidence = root / CHAT / "evidence.json"
    items = json.loads(evidence.read_text())
    items.append(
        {
            "question": "Which invoice was charged twice?",
            "evidence": ["| Invoice | Charged |"],  # not in the text: fails, as recorded
            "expected_failure": "a table the transcript does not have",
        }
    )
    evidence.write_text(json.dumps(items))
    report = check_case(case(root, CHAT))
    assert [q.status for q in report.questions][-1] == "xfail"
    assert not report.failed("any")
    items[0]["expected_failure"] = "marked, but it passes"
    evidence.write_text(json.dumps(items))
    report = check_case(case(root, CHAT))
    assert report.questions[0].status == "xpass"
    assert report.failed("evidence")


def test_update_is_off_in_ci(root: Path) -> None:
    (root / POLICY / "config.json").write_text('{"max_tokens": 30}')
    before = (root / POLICY / "expected" / "chunks.json").read_text()
    result = runner.invoke(app, ["golden", "update", "--dir", str(root), "--yes"], env={"CI": "true"})
    assert result.exit_code == 2
    assert "off in CI" in result.output
    assert (root / POLICY / "expected" / "chunks.json").read_text() == before


def test_update_shows_the_diff_first_and_asks(root: Path) -> None:
    (root / POLICY / "config.json").write_text('{"max_tokens": 30}')
    path = root / POLICY / "expected" / "chunks.json"
    before = path.read_text()
    result = runner.invoke(app, ["golden", "update", "--dir", str(root)], input="n\n", env={"CI": ""})
    assert result.exit_code == 1
    assert result.output.index("boundaries moved") < result.output.index("Rewrite the expected files")
    assert path.read_text() == before
    result = runner.invoke(app, ["golden", "update", POLICY, "--dir", str(root)], input="y\n", env={"CI": ""})
    assert result.exit_code == 0, result.output
    assert [c["end"] for c in json.loads(path.read_text())] == [96, 205, 342, 395, 503]
    # the new expectation holds now; the evidence, split at 30 tokens, still fails (never blessed)
    report = check_case(case(root, POLICY))
    assert not report.changed and report.failed("evidence")


def test_add_creates_a_case_that_checks(tmp_path: Path) -> None:
    doc = tmp_path / "Leave Policy.md"
    doc.write_text(
        "# Leave\n\nStaff get 25 days of leave a year.\n\nUnused days expire on 31 March, "
        "unless a manager approved carrying them over.\n"
    )
    root = tmp_path / "golden"
    args = ["golden", "add", str(doc), "--dir", str(root), "--max-tokens", "64"]
    result = runner.invoke(
        app, [*args, "-q", "Do unused days expire?", "-e", "Unused days expire on 31 March", "--unanswerable", "Pay?"]
    )
    assert result.exit_code == 0, result.output
    folder = root / "markdown" / "leave-policy"
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "evidence.json", "expected", "input.md"]
    assert json.loads((folder / "config.json").read_text()) == {"max_tokens": 64}
    assert json.loads((folder / "evidence.json").read_text()) == [
        {"question": "Do unused days expire?", "evidence": ["Unused days expire on 31 March"]},
        {"question": "Pay?", "answerable": False},
    ]
    assert runner.invoke(app, ["golden", "check", str(root)]).exit_code == 0
    # a quote that is not in the text is refused, and nothing is written
    bad = runner.invoke(app, [*args, "--name", "other", "-q", "Q?", "-e", "Unused days never expire"])
    assert bad.exit_code == 2 and not (root / "markdown" / "other").exists()
    assert "not in the document's text" in bad.output
    # evidence that the chunker splits at this budget: the case is kept, and the exit says so
    small = [*args[:-1], "24", "--name", "small", "-q", "Leave?", "-e", "Staff get 25 days of leave a year.\n\nUnused"]
    assert runner.invoke(app, small).exit_code == 1
    assert (root / "markdown" / "small" / "expected" / "chunks.json").exists()
