"""parsegate: structure-aware parsing and chunking for retrieval ingestion.

The Python API (README "Python API")::

    import parsegate

    doc = parsegate.parse("policy/travel.md")
    for chunk in parsegate.chunk(doc, max_tokens=256):
        print(chunk.id, chunk.start, chunk.end, chunk.section_path, chunk.tokens)
    result = parsegate.run("corpus/", "out/")  # chunks.jsonl, quarantine.jsonl, reports

Libraries are imported on first use: ``import parsegate`` stays cheap.
"""

__version__ = "0.1.0"

# after __version__, which the API's modules read
from parsegate.api import CommandError, RunResult, chunk, parse, run

__all__ = ["CommandError", "RunResult", "__version__", "chunk", "parse", "run"]
