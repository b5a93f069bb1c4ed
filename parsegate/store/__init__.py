"""The versioned chunk store: documents, chunk sets, chunks and gate verdicts in one SQLite file.

``parsegate run --store`` writes it (``run``), and reuses what it holds (``plan``); ``diff``,
``export`` and ``retire`` read and prune it; ``lookup`` serves retrieval-side assembly."""
