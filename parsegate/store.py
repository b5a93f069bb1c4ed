"""Run outputs on disk. A chunk set is never overwritten: when OUTDIR already holds a
run, that run's files move to ``OUTDIR/history/<finished>-<chunk_set>/`` first."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

RUN_SCHEMA = "parsegate.run/1"
RUN_FILES = ("chunks.jsonl", "run.json")


def archive_previous(outdir: Path) -> Path | None:
    run_json = outdir / "run.json"
    if not run_json.exists():
        return None
    try:
        previous = json.loads(run_json.read_text())
        label = f"{previous['finished_at'].replace(':', '')}-{previous['chunk_set']}"
    except (ValueError, KeyError, AttributeError):
        label = "unlabelled-" + str(int(run_json.stat().st_mtime))
    target = outdir / "history" / label
    n = 1
    while target.exists():
        target = outdir / "history" / f"{label}.{n}"
        n += 1
    target.mkdir(parents=True)
    for name in RUN_FILES:
        if (outdir / name).exists():
            shutil.move(str(outdir / name), str(target / name))
    return target


def write_run(outdir: Path, record: dict[str, Any]) -> Path:
    path = outdir / "run.json"
    path.write_text(json.dumps({"schema": RUN_SCHEMA, **record}, indent=2, ensure_ascii=False) + "\n")
    return path
