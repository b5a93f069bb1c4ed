from __future__ import annotations

import os
from pathlib import Path

import pytest

from chunkers import ChunkConfig, Chunker

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden_docs"
CORPUS = ROOT.parent / "shared" / "corpus"
IN_CI = os.environ.get("CI") == "true"


def corpus_dir(name: str) -> Path:
    """A folder of ../shared/corpus; skipped where absent, but never in CI."""
    path = CORPUS / name
    if not path.is_dir():
        if IN_CI:
            pytest.fail(f"{path} is missing, and tests that use the real-world corpus must run in CI")
        pytest.skip(f"{path} is absent on this machine")
    return path


@pytest.fixture(scope="session")
def chunker_factory():
    cache: dict[ChunkConfig, Chunker] = {}

    def make(**kwargs: object) -> Chunker:
        config = ChunkConfig(**kwargs)  # type: ignore[arg-type]
        if config not in cache:
            cache[config] = Chunker(config)
        return cache[config]

    return make
