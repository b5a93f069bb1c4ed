"""parsegate: structure-aware parsing and chunking for retrieval ingestion.

The Python API (README "Python API")::

    import parsegate

    doc = parsegate.parse("policy/travel.md")
    chunks = parsegate.chunk(doc, max_tokens=256)
    for chunk in chunks:
        print(chunk.id, chunk.start, chunk.end, chunk.section_path, chunk.tokens)
    verdict = parsegate.gate(doc, chunks, source="policy/travel.md")  # the gate, on one document
    result = parsegate.run("corpus/", "out/")  # chunks.jsonl, quarantine.jsonl, reports

Libraries are imported on first use: ``import parsegate`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parsegate.version import __version__

if TYPE_CHECKING:
    from parsegate.api import chunk, gate, parse, run
    from parsegate.errors import CommandError
    from parsegate.parsers.options import ParseOptions
    from parsegate.runner.run import RunResult

__all__ = ["CommandError", "ParseOptions", "RunResult", "__version__", "chunk", "gate", "parse", "run"]


def __getattr__(name: str) -> Any:
    """The API on first use (PEP 562): ``import parsegate`` stays cheap (the command line's start)."""
    if name == "ParseOptions":
        from parsegate.parsers.options import ParseOptions

        return ParseOptions
    if name == "CommandError":
        from parsegate.errors import CommandError

        return CommandError
    if name == "RunResult":
        from parsegate.runner.run import RunResult

        return RunResult
    if name in __all__:
        from parsegate import api

        return getattr(api, name)
    raise AttributeError(f"module 'parsegate' has no attribute {name!r}")
