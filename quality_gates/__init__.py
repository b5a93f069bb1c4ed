"""Quality gates (metrics, thresholds, verdicts): see issue 6."""
