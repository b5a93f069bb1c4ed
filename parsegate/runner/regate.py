"""``regate``: an earlier run's documents gated again under other thresholds, without parsing
anything: documents move between chunks.jsonl and quarantine.jsonl as the new verdicts say, and
the run's previous outputs move to OUTDIR/history/ first."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from parsegate.engines.work import outcome_from_dict
from parsegate.errors import CommandError
from parsegate.log import log
from parsegate.quality_gates.thresholds import GateConfig
from parsegate.runner.discover import source_of
from parsegate.runner.finish import finish
from parsegate.runner.outdir import RUN_SCHEMA, archive_previous, read_chunk_lines
from parsegate.runner.route import Router
from parsegate.runner.run import RunResult, hold, write_run_parquet


def regate(outdir: Path, gate: GateConfig, allow_failures: bool = False) -> RunResult:
    run_json = outdir / "run.json"
    if not run_json.is_file():
        raise CommandError(f"{outdir}: no run.json here; run 'parsegate run CORPUS --out {outdir}' first")
    try:
        previous = json.loads(run_json.read_text())
    except (OSError, ValueError) as exc:
        raise CommandError(f"{run_json}: not readable as JSON ({exc})") from None
    if not isinstance(previous, dict) or previous.get("schema") != RUN_SCHEMA:
        raise CommandError(f"{run_json}: not a {RUN_SCHEMA} file")
    root = Path(previous.get("root") or previous["corpus"])
    outside = [f["path"] for f in previous.get("files", []) if source_of(root, str(f.get("path", ""))) is None]
    if outside:
        raise CommandError(
            f"{run_json} names documents outside its corpus root {root} ({', '.join(map(repr, outside[:3]))}"
            f"{', …' if len(outside) > 3 else ''}): not a run this folder's corpus made; nothing re-gated"
        )
    with hold(outdir, "gate"):
        archived, _ = archive_previous(outdir)
        assert archived is not None
        lines = read_chunk_lines(archived)
        files = [outcome_from_dict(f) for f in previous["files"]]
        with Router(outdir, gate) as router:
            for f in files:
                f.verdict, f.failed_checks = None, []
                router.route(f, lines.get(f.path, []))
            router.finish()
        record = {k: v for k, v in previous.items() if k not in ("schema", "summary", "files", "gate", "complete")}
        record["regated_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        log.info("previous outputs moved to %s", archived)
        if previous.get("output_format") == "parquet":
            write_run_parquet(outdir)
        try:
            done = finish(outdir, root, record, files, gate)
        finally:  # run.json is written: the outputs are complete, whatever the verdict
            router.discard_journal()
    failed = done.report["verdict"] == "fail"
    return RunResult(
        exit_code=1 if failed and not allow_failures else 0,
        verdict=done.report["verdict"],
        summary=done.record["summary"],
        left_out=done.record.get("left_out", {}),
        out=outdir,
        record=done.record,
        report=done.report,
        files=files,
        seconds=float(previous.get("seconds", 0)),
        empty=done.empty,
        wrote=True,
    )
