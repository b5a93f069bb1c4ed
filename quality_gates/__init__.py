"""The quality gate: (Document, Chunks, source) -> facts -> verdict.

``measure.measure`` runs the table of checks (``checks/``: one module per check) over a
document's chunks, comparing them with independent readings of the source (``references/``),
into ``facts.DocFacts``; ``verdict.evaluate`` judges facts under ``thresholds.Thresholds``;
``report/`` builds report.json and report.html, and the terminal's table as plain rows.
"""
