"""A run names its tokenizer by a hash of the tokenizer.json bytes and checks --max-tokens against
the special tokens it adds; neither needs the tokenizer built (an unchanged re-run builds none)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from tokenizers import Tokenizer

from parsegate.chunkers.tokens import counter as budget

DEFAULT = budget.default_tokenizer_path()


def built_specials(path: Path) -> int:
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()  # the shipped file pads to 128 for training
    return len(tokenizer.encode("", add_special_tokens=True).ids)


def test_the_default_fingerprint_is_a_hash_of_the_file_and_builds_no_tokenizer() -> None:
    counter = budget.HFCounter(DEFAULT, budget.DEFAULT_TOKENIZER)
    digest = hashlib.sha256(DEFAULT.read_bytes()).hexdigest()[:16]
    assert counter.fingerprint == f"all-MiniLM-L6-v2@sha256:{digest}"
    assert (counter.default_max, counter.model_max, counter.specials) == (256, 256, 2)
    assert counter._tokenizer is None  # nothing above built it
    assert counter.count("hello world") == 4  # and counting builds it: [CLS] hello world [SEP]
    assert counter.additive and counter.words is not None


def with_template(tmp_path: Path, single: list[object], specials: dict[str, object]) -> Path:
    spec = json.loads(DEFAULT.read_text())
    spec["post_processor"] = {
        "type": "TemplateProcessing",
        "single": single,
        "pair": single,
        "special_tokens": specials,
    }
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec))
    return path


@pytest.mark.parametrize(
    ("single", "specials"),
    [
        ([{"Sequence": {"id": "A", "type_id": 0}}], {}),  # nothing added
        (  # one special token before, one that is two ids after
            [
                {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "[END]", "type_id": 0}},
            ],
            {
                "[CLS]": {"id": "[CLS]", "ids": [101], "tokens": ["[CLS]"]},
                "[END]": {"id": "[END]", "ids": [102, 102], "tokens": ["[SEP]", "[SEP]"]},
            },
        ),
    ],
)
def test_special_tokens_read_off_the_file_are_what_the_built_tokenizer_adds(
    tmp_path: Path, single: list[object], specials: dict[str, object]
) -> None:
    path = with_template(tmp_path, single, specials)
    assert budget.HFCounter(path, "t").specials == built_specials(path)


def test_the_shipped_file_and_a_file_without_a_post_processor_agree_with_the_built_tokenizer(tmp_path: Path) -> None:
    assert budget.HFCounter(DEFAULT, "d").specials == built_specials(DEFAULT)
    spec = json.loads(DEFAULT.read_text())
    spec["post_processor"] = None
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec))
    assert budget.HFCounter(path, "t").specials == built_specials(path) == 0


def test_a_malformed_tokenizer_a_user_names_is_refused_at_once(tmp_path: Path) -> None:
    spec = json.loads(DEFAULT.read_text())
    spec["model"]["type"] = "NoSuchModel"
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(budget.TokenizerUnavailable, match="cannot load tokenizer"):
        budget.load_counter(str(path))
