"""OpenAI encodings offline (the `openai` extra, bpe-openai): known token ids, the shipped encoding
files are OpenAI's own (tiktoken's published hashes), and chunks recounted by tiktoken itself are
within budget with exactly the counts they declare."""

from __future__ import annotations

import gzip
import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

import parsegate
from parsegate.chunkers.tokens.counter import TokenizerUnavailable, load_counter
from parsegate.cli.main import app
from tests.conftest import GOLDEN

runner = CliRunner()


def need(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"{module} is not installed (the openai extra / dev extra); CI installs it")


def tiktoken_offline(name: str, monkeypatch: pytest.MonkeyPatch) -> object:
    """tiktoken's own encoding, its file read from bpe-openai's wheel instead of downloaded, and
    checked against the SHA-256 tiktoken publishes for OpenAI's file."""
    bpe = need("bpe_openai")
    tiktoken = need("tiktoken")
    load = importlib.import_module("tiktoken.load")
    data = Path(bpe.__file__).parent / "data"

    def read_local(blobpath: str, expected_hash: str | None = None) -> bytes:
        contents = gzip.decompress((data / f"{blobpath.rsplit('/', 1)[-1]}.gz").read_bytes())
        assert expected_hash and load.check_hash(contents, expected_hash), f"{blobpath}: not OpenAI's file"
        return contents

    monkeypatch.setattr(load, "read_file_cached", read_local)
    return tiktoken.get_encoding(name)


@pytest.mark.parametrize(("name", "ids"), [("cl100k_base", [15339, 1917]), ("o200k_base", [24912, 2375])])
def test_known_token_ids_and_the_files_are_openais(name: str, ids: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    need("bpe_openai")
    counter = load_counter(f"openai:{name}")
    assert counter.encoding.encode_ordinary("hello world") == ids  # type: ignore[attr-defined]
    assert counter.count("hello world") == 2 and counter.specials == 0
    reference = tiktoken_offline(name, monkeypatch)  # raises if the shipped file is not OpenAI's
    assert reference.encode_ordinary("hello world") == ids  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_chunks_recounted_by_tiktoken_are_within_budget_with_their_declared_counts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    need("bpe_openai")
    reference = tiktoken_offline(name, monkeypatch)
    total = 0
    for path in [GOLDEN / "pdf" / "table-two-pages" / "input.pdf", *sorted(GOLDEN.glob("markdown/*/input.md"))[:4]]:
        chunks = parsegate.chunk(path, tokenizer=f"openai:{name}", max_tokens=48)
        for c in chunks:
            recount = len(reference.encode_ordinary(c.embed_text))  # type: ignore[attr-defined]
            assert (c.tokens, c.tokenizer.split("@")[0]) == (recount, f"openai:{name}")
            assert recount <= 48
        total += len(chunks)
    assert total > 20  # a budget small enough that documents are cut


def test_the_cli_takes_openai_encodings_and_refuses_a_budget_over_the_model_input() -> None:
    need("bpe_openai")
    doc = str(GOLDEN / "pdf" / "footnote" / "input.pdf")
    assert runner.invoke(app, ["chunk", doc, "-t", "openai:cl100k_base", "-m", "8191"]).exit_code == 0
    refused = runner.invoke(app, ["chunk", doc, "-t", "openai:cl100k_base", "-m", "8192"])
    assert refused.exit_code == 2 and "(8191)" in refused.stderr
    unknown = runner.invoke(app, ["chunk", doc, "-t", "openai:p50k_base"])
    assert unknown.exit_code == 2 and "cl100k_base, o200k_base" in unknown.stderr


def test_without_bpe_openai_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bpe_openai", None)  # type: ignore[arg-type]
    with pytest.raises(TokenizerUnavailable, match=r"pip install 'parsegate\[openai\]'"):
        load_counter("openai:o200k_base")
