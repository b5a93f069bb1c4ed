"""Golden-document regression: cases on disk (``cases``, ``layout``), what changed (``compare``),
chunk ids and links recomputed rather than stored (``ids``), the chunk set's ingredients kept once
per case (``chunk_set``), whether each question's evidence still arrives whole (``evidence_check``),
reports (``check``), new cases and rewrites (``add``); the ``parsegate golden`` commands are in
``parsegate.cli``."""
