"""The golden tree's layout: <format>/<case>/{input.*, config.json (optional), evidence.json,
expected/{elements,chunks,chunk_set}.json}; a case that lacks a part is named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from parsegate.golden.layout import layout_problems
from tests.golden import GOLDEN

POLICY = "markdown/policy-exception"


def test_every_golden_case_follows_the_layout() -> None:
    assert layout_problems(GOLDEN) == []


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(GOLDEN / POLICY, tmp_path / POLICY)
    shutil.copytree(GOLDEN / "office/docx/incident-policy", tmp_path / "office/docx/incident-policy")
    assert layout_problems(tmp_path) == []
    return tmp_path


@pytest.mark.parametrize(
    "part", ["evidence.json", "expected/elements.json", "expected/chunks.json", "expected/chunk_set.json"]
)
def test_a_case_that_lacks_a_part_is_named(root: Path, part: str) -> None:
    (root / POLICY / part).unlink()
    assert layout_problems(root) == [f"{POLICY}: no {part}"]


def test_a_case_that_lost_its_input_is_named_though_discovery_skips_it(root: Path) -> None:
    (root / POLICY / "input.md").unlink()
    assert layout_problems(root) == [f"{POLICY}: no input.* file"]
    (root / POLICY / "input.md").write_text("# A\n")
    (root / POLICY / "input.txt").write_text("A\n")
    assert layout_problems(root) == [f"{POLICY}: several inputs: input.md, input.txt"]


def test_a_misspelled_expected_file_a_bad_config_and_a_wrong_folder_are_named(root: Path) -> None:
    (root / POLICY / "expected/chunks.json").rename(root / POLICY / "expected/chunk.json")
    (root / POLICY / "config.json").write_text('{"max_token": 48}')
    shutil.move(root / "office/docx/incident-policy", root / "office/incident-policy")
    assert layout_problems(root) == [
        f"{POLICY}: no expected/chunks.json",
        f"{POLICY}: expected/chunk.json is not an expected file",
        f"{POLICY}: config.json: ChunkConfig.__init__() got an unexpected keyword argument 'max_token'",
        "office/incident-policy: office cases belong in office/docx/<case>/",
    ]
