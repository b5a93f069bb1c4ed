"""parsegate: structure-aware parsing and chunking for retrieval ingestion.

The Python API (see README "Python API")::

    import parsegate

    doc = parsegate.parse("policy/travel.md")
    for chunk in parsegate.chunk(doc, max_tokens=256):
        print(chunk.id, chunk.start, chunk.end, chunk.section_path, chunk.tokens)
"""

__version__ = "0.1.0"

# after __version__, which the API's modules read
from parsegate.api import parse

__all__ = ["__version__", "parse"]
