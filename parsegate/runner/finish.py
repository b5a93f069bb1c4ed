"""The end of a run (and of ``parsegate gate``): the reports and run.json, written, or found up to
date (parsegate/store/current.py). What is shown of them is the caller's (the command line prints
a summary from the ``Finished`` it gets back)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from parsegate.engines.work import FileOutcome, outcome_dict, summarize
from parsegate.errors import CommandError
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.quality_gates.verdict import Verdict
from parsegate.runner.outdir import write_run
from parsegate.runner.reports import PageCache, write_reports
from parsegate.store.current import outputs_record, settings_hash


@dataclass(frozen=True)
class Finished:
    record: dict[str, Any]  # run.json as written
    report: dict[str, Any]  # report.json
    empty: bool  # the run read no document, and that was not allowed: it fails
    wrote: bool  # the outputs were written (False: they were up to date; only run.json was)


def finish(
    out: Path,
    root: Path,
    record: dict[str, Any],
    files: list[FileOutcome],
    gate_config: GateConfig,
    pages: PageCache | None = None,
    gated: dict[str, tuple[DocFacts, Verdict]] | None = None,
    outputs_of: str | None = None,
    password: str | None = None,
) -> Finished:
    """Write the reports, then run.json (with, given the run's fingerprint, the outputs' hashes);
    ``password``: the run's PDF password, for the report's pages of encrypted PDFs."""
    record = {k: v for k, v in record.items() if k != "outputs"}  # `gate` passes an earlier run's on
    summary = summarize(files)
    outcomes = [outcome_dict(f) for f in files]
    documents = summary["chunked"] + summary["failed"]
    # A run that read no document (an empty folder, a --glob typo) fails unless allowed.
    empty = documents == 0 and not record.get("allow_empty")
    checks = [
        {"check": "min_documents", "metric": "run.documents", "value": 0, "threshold": 1, "passed": False, "faults": []}
    ]
    try:
        report = write_reports(
            out, outcomes, gate_config, record, root, checks if empty else [], pages, gated, password
        )
        settings = settings_hash(record, gate_config.to_dict())
        recorded = None if outputs_of is None else outputs_record(out, outputs_of, summary, outcomes, settings)
        outputs = {} if recorded is None else {"outputs": recorded}
        # Last, and whole or not at all: a folder without run.json holds no finished run.
        written = {
            **record,
            "complete": True,
            "gate": gate_config.to_dict(),
            "summary": summary,
            "files": outcomes,
            **outputs,
        }
        write_run(out, written)
    except OSError as exc:
        raise CommandError(f"cannot write the run's report in {out}: {exc.strerror or exc}") from None
    return Finished(written, report, empty, wrote=True)


def finish_current(
    out: Path,
    record: dict[str, Any],
    previous: dict[str, Any],
    gate_config: GateConfig,
) -> Finished:
    """Outputs up to date: only run.json is written again (this run's timings and store counts)."""
    summary = previous["summary"]
    kept = {"complete": True, "gate": gate_config.to_dict(), "summary": summary, "files": previous["files"]}
    try:
        report = orjson.loads((out / "report.json").read_bytes())
        written = {**record, **kept, "outputs": previous["outputs"]}
        write_run(out, written)
    except OSError as exc:
        raise CommandError(f"cannot write the run's report in {out}: {exc.strerror or exc}") from None
    empty = summary["chunked"] + summary["failed"] == 0 and not record.get("allow_empty")
    return Finished(written, report, empty, wrote=False)
