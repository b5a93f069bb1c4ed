"""docling running out of memory is the run's limit, not a property of the file: it reaches the
worker as MemoryError (outcome ``memory``, never stored in the chunk store), where it was caught
as ``corrupt`` and stored as if the bytes were broken (issue 39). Any other exception of docling's
backends is still the file's: ``corrupt``, with docling's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.engines.work import process
from parsegate.parsers import office
from parsegate.parsers.model import ParseError
from tests.conftest import GOLDEN, needs_pure_python

pytest.importorskip("docling")
DOCX = GOLDEN / "office" / "docx" / "incident-policy" / "input.docx"


def failing_convert(exc: BaseException):  # type: ignore[no-untyped-def]
    def convert(self: object) -> None:
        raise exc

    return convert


@needs_pure_python
def test_docling_out_of_memory_is_the_run_s_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from docling.backend.msword_backend import MsWordDocumentBackend

    monkeypatch.setattr(MsWordDocumentBackend, "convert", failing_convert(MemoryError()))
    with pytest.raises(MemoryError):
        office.parse(DOCX.read_bytes(), "policy.docx")
    outcome, lines = process(DOCX, "policy.docx", Chunker(ChunkConfig()))
    assert (outcome.status, outcome.code, lines) == ("failed", "memory", [])


@needs_pure_python
def test_other_docling_errors_are_the_file_s(monkeypatch: pytest.MonkeyPatch) -> None:
    from docling.backend.msword_backend import MsWordDocumentBackend

    monkeypatch.setattr(MsWordDocumentBackend, "convert", failing_convert(KeyError("rId7")))
    with pytest.raises(ParseError) as info:
        office.parse(DOCX.read_bytes(), "policy.docx")
    assert info.value.code == "corrupt" and "KeyError" in info.value.message
