"""parsegate: structure-aware parsing and chunking for retrieval ingestion."""

__version__ = "0.1.0"
