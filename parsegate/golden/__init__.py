"""Golden-document regression: cases on disk (``cases``), what changed (``compare``), whether
each question's evidence still arrives whole (``evidence_check``), reports (``check``,
``render``), new cases and rewrites (``add``), and the ``parsegate golden`` commands."""
