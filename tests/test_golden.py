from __future__ import annotations

import json
import os

import pytest

from tests.conftest import IN_CI
from tests.golden import GOLDEN, REGENERATE_FLAG, actual, case_config, cases, regenerate_requested, write_expected

CASES = cases()


def test_regenerate_flag_is_off_in_ci() -> None:
    if IN_CI:
        assert os.environ.get(REGENERATE_FLAG) in (None, "", "0"), "golden outputs must never be regenerated in CI"


def test_golden_suite_has_the_required_cases() -> None:
    names = {c.relative_to(GOLDEN).as_posix() for c in CASES}
    assert sum(n.startswith("markdown/") for n in names) >= 6
    assert sum(n.startswith("text/") for n in names) >= 2
    assert {n.split("/")[1] for n in names if n.startswith("office/")} >= {"docx", "html", "pptx", "xlsx"}
    assert {n.split("/")[1] for n in names if n.startswith("code/")} >= {
        "python",
        "javascript",
        "typescript",
        "go",
        "rust",
        "java",
        "c",
        "cpp",
        "csharp",
        "ruby",
        "php",
        "kotlin",
    }


@pytest.mark.parametrize("case", CASES, ids=[c.relative_to(GOLDEN).as_posix() for c in CASES])
def test_golden_case(case, chunker_factory) -> None:
    config = case_config(case)
    elements, chunks = actual(case, chunker_factory(**config.__dict__))
    if regenerate_requested():
        write_expected(case, elements, chunks)
    expected_elements = json.loads((case / "expected" / "elements.json").read_text())
    expected_chunks = json.loads((case / "expected" / "chunks.json").read_text())
    assert elements == expected_elements
    assert chunks == expected_chunks


@pytest.mark.parametrize("case", CASES, ids=[c.relative_to(GOLDEN).as_posix() for c in CASES])
def test_golden_evidence_survives_chunking(case, chunker_factory) -> None:
    """Each question's minimum sufficient evidence lies whole in one chunk, and that chunk's
    embed_text carries the context the evidence needs (a table header, a lead-in, a speaker)."""
    evidence_file = case / "evidence.json"
    assert evidence_file.exists(), f"{case} has no evidence.json"
    _, chunks = actual(case, chunker_factory(**case_config(case).__dict__))
    for item in json.loads(evidence_file.read_text()):
        holding = [c for c in chunks if item["evidence"] in c["text"]]
        assert holding, f"{item['question']!r}: evidence is split across chunks"
        if "needs_context" in item:
            assert any(item["needs_context"] in c["embed_text"] for c in holding), item["question"]
