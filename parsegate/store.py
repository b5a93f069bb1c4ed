"""Run outputs on disk. A chunk set is never overwritten: when OUTDIR already holds a
run, that run's files move to ``OUTDIR/history/<finished>-<chunk_set>/`` first."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import orjson

RUN_SCHEMA = "parsegate.run/1"
RUN_FILES = ("chunks.jsonl", "quarantine.jsonl", "run.json", "report.json", "report.html")


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


def read_chunk_lines(folder: Path) -> dict[str, list[bytes]]:
    """Every chunk record of a run, passed or quarantined, as JSON lines grouped by document."""
    lines: dict[str, list[bytes]] = {}
    chunks, quarantine = folder / "chunks.jsonl", folder / "quarantine.jsonl"
    if chunks.exists():
        with chunks.open("rb") as source:
            for line in source:
                record = orjson.loads(line)
                lines.setdefault(record["doc_id"], []).append(line.rstrip(b"\n"))
    if quarantine.exists():
        with quarantine.open("rb") as source:
            for line in source:
                entry = orjson.loads(line)
                lines.setdefault(entry["doc_id"], []).extend(orjson.dumps(c) for c in entry.get("chunks", []))
    return lines
