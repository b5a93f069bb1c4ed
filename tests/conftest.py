from __future__ import annotations

import os
from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.tokens import counter as budget

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden_docs"
CORPUS = ROOT.parent / "shared" / "corpus"
IN_CI = os.environ.get("CI") == "true"
# The opt-in mypyc build (setup.py, PARSEGATE_MYPYC=1): a compiled class takes no monkeypatched
# method, so the few tests that patch one cannot run against it.
COMPILED = not budget.__file__.endswith(".py")
needs_pure_python = pytest.mark.skipif(COMPILED, reason="patches a method of a class the mypyc build compiles")


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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Every output file a run wrote during the session (chunks.jsonl, quarantine.jsonl, run.json,
    report.json, under the session's temporary folder) validates against its JSON Schema; a
    violation fails the session, naming the file, line and field."""
    from tests.schemas import errors, outputs

    factory = getattr(session.config, "_tmp_path_factory", None)
    if factory is None or exitstatus not in (0, 1):
        return
    files = outputs(factory.getbasetemp())
    found = [e for p in files for e in errors(p)]
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"schemas: {len(files)} output files the tests wrote validated, {len(found)} violations")
        for e in found[:50]:
            reporter.write_line(f"  {e}", red=True)
    if found:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
