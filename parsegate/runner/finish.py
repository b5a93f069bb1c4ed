"""The end of ``parsegate run`` (and ``parsegate gate``): the reports and run.json, written, or
found up to date (parsegate/store/current.py), then the summary on the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import typer
from rich.text import Text

from parsegate.cli.console import print_summary
from parsegate.cli.params import err, fail
from parsegate.engines.work import FileOutcome, outcome_dict, summarize
from parsegate.quality_gates.gate import GateConfig, Verdict
from parsegate.quality_gates.metrics import DocFacts
from parsegate.quality_gates.report import print_report
from parsegate.runner.outdir import write_run
from parsegate.runner.reports import PageCache, write_reports
from parsegate.store.current import outputs_record


def finish(
    out: Path,
    root: Path,
    record: dict[str, Any],
    files: list[FileOutcome],
    gate_config: GateConfig,
    seconds: float,
    allow_failures: bool,
    pages: PageCache | None = None,
    gated: dict[str, tuple[DocFacts, Verdict]] | None = None,
    outputs_of: str | None = None,
) -> None:
    """Write the reports, then run.json (with, given the run's fingerprint, the outputs' hashes)."""
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
        report = write_reports(out, outcomes, gate_config, record, root, checks if empty else [], pages, gated)
        outputs = {} if outputs_of is None else {"outputs": outputs_record(out, outputs_of, summary, outcomes)}
        # Last, and whole or not at all: a folder without run.json holds no finished run.
        write_run(
            out,
            {
                **record,
                "complete": True,
                "gate": gate_config.to_dict(),
                "summary": summary,
                "files": outcomes,
                **outputs,
            },
        )
    except OSError as exc:
        fail(f"cannot write the run's report in {out}: {exc.strerror or exc}")
    _conclude(out, record, report, summary, files, seconds, allow_failures, empty, "wrote")


def finish_current(
    out: Path,
    record: dict[str, Any],
    previous: dict[str, Any],
    files: list[FileOutcome],
    gate_config: GateConfig,
    seconds: float,
    allow_failures: bool,
) -> None:
    """Outputs up to date: only run.json is written again (this run's timings and store counts)."""
    summary = previous["summary"]
    kept = {"complete": True, "gate": gate_config.to_dict(), "summary": summary, "files": previous["files"]}
    try:
        report = orjson.loads((out / "report.json").read_bytes())
        write_run(out, {**record, **kept, "outputs": previous["outputs"]})
    except OSError as exc:
        fail(f"cannot write the run's report in {out}: {exc.strerror or exc}")
    empty = summary["chunked"] + summary["failed"] == 0 and not record.get("allow_empty")
    _conclude(out, record, report, summary, files, seconds, allow_failures, empty, "outputs up to date")


def _conclude(
    out: Path,
    record: dict[str, Any],
    report: dict[str, Any],
    summary: dict[str, Any],
    files: list[FileOutcome],
    seconds: float,
    allow_failures: bool,
    empty: bool,
    done: str,
) -> None:
    print_summary(summary, files, seconds, err)
    for reason, count in sorted(record.get("left_out", {}).items()):
        err.print(Text(f"left out on purpose: {count} paths ({reason})"), highlight=False, soft_wrap=True)
    if empty:
        err.print("no document was read (use --allow-empty to accept an empty run)", highlight=False)
    print_report(report, err)
    if done == "wrote":
        err.print(
            Text(f"wrote {out}/: chunks.jsonl quarantine.jsonl run.json report.json report.html"), highlight=False
        )
    else:  # nothing but run.json was written: the files are those of the run before, checked by hash
        err.print(Text(f"outputs up to date in {out}/ (checked against run.json); wrote run.json"), highlight=False)
    if report["verdict"] == "fail" and not allow_failures:
        raise typer.Exit(1)
