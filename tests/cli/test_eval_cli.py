"""`parsegate eval` end to end on a tree whose answers are known by construction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.cli.main import app
from parsegate.evaluation.retrieval import BM25, Dense, RetrieverUnavailable, dense_available

runner = CliRunner()
POLICY = "# Expenses\n\nMeals are capped at 45 EUR a day. Client dinners are exempt.\n\n## Travel\n\nTrains are booked centrally.\n"
RULE = "Meals are capped at 45 EUR a day. Client dinners are exempt."  # 60 characters, at 12-72


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    case = tmp_path / "golden" / "markdown" / "expenses"
    case.mkdir(parents=True)
    (case / "input.md").write_text(POLICY)
    (case / "evidence.json").write_text(
        json.dumps(
            [
                {"question": "Are client dinners capped at 45 EUR?", "evidence": RULE, "pattern": "rule + exception"},
                {"question": "Who books trains?", "evidence": [{"quote": "Trains are booked", "context": "Travel"}]},
                {"question": "What about bikes?", "answerable": False},
            ]
        )
    )
    return tmp_path / "golden"


def evaluate(*args: str) -> dict:
    result = runner.invoke(app, ["eval", *args, "--json", "--retriever", "bm25"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_structural_keeps_the_rule_whole_and_a_40_char_window_cannot(tree: Path, tmp_path: Path) -> None:
    html = tmp_path / "eval.html"
    payload = evaluate(
        str(tree), "--config", "structural", "--config", "fixed:fixed_size=40,fixed_overlap=0", "-m", "64",
        "--top-k", "1", "--html", str(html),
    )  # fmt: skip
    by = {c["configuration"]: c for c in payload["configurations"]}
    assert set(by) == {"structural@64", "fixed:fixed_size=40,fixed_overlap=0@64"}
    structural, fixed = by["structural@64"], by["fixed:fixed_size=40,fixed_overlap=0@64"]
    assert (structural["spans"], structural["spans_whole"], structural["questions_whole"]) == (2, 1.0, 1.0)
    assert structural["retrieval"]["bm25"]["complete"] == 1.0
    # 40-character windows cut the 60-character rule: retrieved, but never whole
    assert fixed["spans_whole"] == 0.5
    assert fixed["retrieval"]["bm25"]["keyword"] == 1.0
    assert fixed["retrieval"]["bm25"]["complete"] == 0.5
    (cut,) = [e for e in payload["not_whole"] if e["question_id"] == "markdown/expenses#1"]
    assert cut["status"] == "split" and cut["span"] == [12, 72]
    page = html.read_text()
    assert "<mark" in page and "✂" in page and "Are client dinners capped at 45 EUR?" in page


def test_csv_offsets_give_the_same_answer(tree: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "expenses.md").write_text(POLICY)
    questions = tmp_path / "questions.csv"
    questions.write_text("id,question,document,start,end\nq1,Are client dinners capped?,expenses.md,12,72\n")
    payload = evaluate(str(docs), "--questions", str(questions), "-m", "64", "--config", "structural")
    (config,) = payload["configurations"]
    assert (config["spans"], config["spans_whole"]) == (1, 1.0)
    (row,) = payload["questions"]
    assert row["question_id"] == "q1" and row["complete"] and row["hits"][0]["start"] <= 12


def test_input_errors_exit_2(tree: Path, tmp_path: Path) -> None:
    bad = tree / "markdown" / "expenses" / "evidence.json"
    bad.write_text(json.dumps([{"question": "Q?", "evidence": "Bikes are free."}]))
    result = runner.invoke(app, ["eval", str(tree)])
    assert result.exit_code == 2 and "not in the document's text" in result.output
    assert runner.invoke(app, ["eval", str(tmp_path / "nowhere")]).exit_code == 2
    assert runner.invoke(app, ["eval", str(tree), "--config", "magic"]).exit_code == 2


def test_bm25_ranks_the_matching_text_first() -> None:
    scores = BM25().scores(["who books trains"], ["Meals are capped.", "Trains are booked centrally."])
    assert scores[0][1] > scores[0][0] == 0


def test_dense_retrieval_says_how_to_install_it_or_ranks() -> None:
    if not dense_available():
        with pytest.raises(RetrieverUnavailable, match=r"torch==2\.13\.0"):
            Dense()
        return
    scores = Dense().scores(["How much may I spend on dinner?"], ["Meals are capped at 45 EUR.", "Trains run hourly."])
    assert scores[0][0] > scores[0][1]
