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

__version__ = "0.1.0"

# after __version__, which the API's modules read
from parsegate.api import CommandError, RunResult, chunk, gate, parse, run
from parsegate.parsers.options import ParseOptions

__all__ = ["CommandError", "ParseOptions", "RunResult", "__version__", "chunk", "gate", "parse", "run"]
