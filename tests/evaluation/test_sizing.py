"""Unit sizing (`parsegate eval --spans`): the evidence classifier on hand-labelled questions,
where each question's evidence fits under a configuration, and the recommendation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from parsegate.chunkers.record import Chunk
from parsegate.cli.main import app
from parsegate.evaluation.sizing import (
    CODE,
    MORE,
    NOT_IN_TEXT,
    ONE,
    PARAGRAPH,
    PARENT,
    SECTION,
    SECTIONS,
    SENTENCE,
    TABLE_ROW,
    Option,
    Sizing,
    classify,
    fit,
)
from parsegate.golden.evidence import SpanRef, locate
from parsegate.parsers import markdown
from parsegate.parsers.registry import parse_file
from tests.conftest import GOLDEN

POLICY = """# Policy

## Meals

Meals are capped at 45 EUR a day. Client dinners are exempt when a director approves them.

Alcohol is never reimbursed.

| Item | Limit |
|------|-------|
| Taxi | 30 EUR |
| Hotel | 150 EUR |

## Travel

Trains are booked centrally.
"""
HEADER = "| Item | Limit |"
# (evidence spans, hand label)
LABELLED = [
    (["Meals are capped at 45 EUR a day."], SENTENCE),
    (["Client dinners are exempt"], SENTENCE),
    (["Meals are capped at 45 EUR a day. Client dinners are exempt when a director approves them."], PARAGRAPH),
    (["Meals are capped at 45 EUR a day.", "Client dinners are exempt"], PARAGRAPH),
    ([("| Taxi | 30 EUR |", HEADER)], TABLE_ROW),
    (["| Taxi | 30 EUR |", "| Hotel | 150 EUR |"], SECTION),
    (["Meals are capped at 45 EUR a day.", "Alcohol is never reimbursed."], SECTION),
    (["## Meals\n\nMeals are capped"], SECTION),
    (["Alcohol is never reimbursed.", "Trains are booked centrally."], SECTIONS),
    (["Bikes are free."], NOT_IN_TEXT),
]


def located(text: str, spans: list[str | tuple[str, str]]) -> list:
    refs = [SpanRef(quote=s) if isinstance(s, str) else SpanRef(quote=s[0], context=(s[1],)) for s in spans]
    return [locate(text, r) for r in refs]


@pytest.mark.parametrize(("spans", "label"), LABELLED, ids=[f"{n}-{label}" for n, (_, label) in enumerate(LABELLED)])
def test_the_classifier_agrees_with_the_hand_labels(spans: list, label: str) -> None:
    doc = markdown.parse(POLICY.encode(), "policy.md")
    assert classify(doc, located(doc.text, spans)) == label


def test_code_is_a_definition_with_its_context() -> None:
    doc = parse_file(GOLDEN / "code" / "python" / "input.py", "input.py")
    spans = [("url = urljoin(self.base_url, path)", "class Session:")]
    assert classify(doc, located(doc.text, spans)) == CODE


def chunk(cid: str, start: int, end: int, text: str, parent: str | None = None) -> Chunk:
    return Chunk(cid, "d", "v", "cs", start, end, text[start:end], text[start:end], 1, "t", [], [], parent_id=parent)


def test_fit_one_chunk_child_and_parent_or_more() -> None:
    text = "aaa bbb. ccc ddd. eee fff."
    evidence = located(text, ["aaa bbb. ccc ddd."])
    parent = chunk("p", 0, 26, text)
    first, second, third = chunk("c1", 0, 8, text, "p"), chunk("c2", 9, 17, text, "p"), chunk("c3", 18, 26, text, "p")
    every = [parent, first, second, third]
    children = [first, second, third]
    assert fit(evidence, every, children) == PARENT
    assert fit(evidence, every, [*children, chunk("w", 0, 17, text)]) == ONE
    assert fit(evidence, [first, second, third], children) == MORE  # no parent to expand to
    # a child that holds none of the evidence does not lead to it, even if its parent holds it
    assert fit(evidence, every, [third]) == MORE
    assert fit(located(text, ["zzz"]), every, children) == MORE


def sizing(options: list[Option], target: float) -> Sizing:
    return Sizing({}, {}, options, target)


def test_the_smallest_unit_that_reaches_the_target_then_the_lowest_overhead() -> None:
    options = [
        Option("structural@128", "structural", 128, "none", 0.90, 0.98),
        Option("parent-child@128", "parent-child", 128, "none", 0.90, 0.98),
        Option("parent-child@128", "parent-child", 128, "parent", 0.97, 1.90),
        Option("structural@256", "structural", 256, "none", 0.96, 0.98),
    ]
    chosen = sizing(options, 0.95).recommendation()
    assert chosen is not None and (chosen.configuration, chosen.expand) == ("parent-child@128", "parent")
    cheaper = [*options, Option("semantic-lexical@128", "semantic-lexical", 128, "none", 0.95, 0.98)]
    chosen = sizing(cheaper, 0.95).recommendation()
    assert chosen is not None and (chosen.configuration, chosen.expand) == ("semantic-lexical@128", "none")
    assert sizing(options, 0.99).recommendation() is None
    best = sizing(options, 0.99).best()
    assert best is not None and best.covered == 0.97


def test_eval_spans_end_to_end(tmp_path: Path) -> None:
    case = tmp_path / "golden" / "markdown" / "policy"
    case.mkdir(parents=True)
    (case / "input.md").write_text(POLICY)
    questions = [
        {
            "question": f"q{n}",
            "evidence": [s if isinstance(s, str) else {"quote": s[0], "context": s[1]} for s in spans],
        }
        for n, (spans, label) in enumerate(LABELLED)
        if label != NOT_IN_TEXT
    ]
    questions.append({"question": "Hotels and trains?", "evidence": "| Hotel | 150 EUR |\n\n## Travel\n\nTrains are"})
    (case / "evidence.json").write_text(json.dumps(questions))
    args = ["eval", str(tmp_path / "golden"), "--config", "structural", "--config", "parent-child", "-m", "40"]
    result = CliRunner().invoke(app, [*args, "--spans", "--json", "-r", "bm25", "--target", "0.9"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    by = {c["configuration"]: c for c in payload["configurations"]}
    # a parent is reached through a child: evidence counts as whole only in what the retriever returns
    assert by["parent-child@40"]["questions_whole"] == by["structural@40"]["questions_whole"] == 9 / 10
    assert by["parent-child@40"]["over_budget"] == 0 and by["parent-child@40"]["parents"] == 1
    assert by["parent-child@40"]["stored_overhead"] > 1.5 * by["parent-child@40"]["overhead"]
    sizing_json = payload["sizing"]
    assert sizing_json["distribution"] == {SENTENCE: 2, PARAGRAPH: 2, TABLE_ROW: 1, SECTION: 3, SECTIONS: 2}
    shares = {name: c["shares"] for name, c in sizing_json["configurations"].items()}
    # at 40 tokens no chunk holds both sections; the one parent over the whole policy does
    assert shares["structural@40"][PARENT] == 0 and shares["structural@40"][MORE] > 0
    assert shares["parent-child@40"][MORE] == 0
    assert sizing_json["recommendation"]["configuration"] == "parent-child@40"
    assert sizing_json["recommendation"]["expand"] == "parent"
    assert "recommended for 90.0% of the questions: parent-child@40" in result.stderr.replace("\n", " ")


def test_compare_runs_the_new_strategies(tmp_path: Path) -> None:
    case = tmp_path / "golden" / "markdown" / "policy"
    case.mkdir(parents=True)
    (case / "input.md").write_text(POLICY)
    (case / "evidence.json").write_text(json.dumps([{"question": "Taxi?", "evidence": "| Taxi | 30 EUR |"}]))
    result = CliRunner().invoke(app, ["eval", str(tmp_path / "golden"), "--compare", "--json", "-r", "bm25"])
    assert result.exit_code == 0, result.output
    names = [c["configuration"] for c in json.loads(result.stdout)["configurations"]]
    assert {"structural@256", "parent-child@256", "semantic-lexical@256"} <= set(names)
