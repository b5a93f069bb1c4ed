"""Outputs up to date: a re-run that would write exactly what OUTDIR already holds leaves it be.

A run with a store records in run.json (``outputs``) a fingerprint of everything its outputs
are made of — its settings (configuration, chunk sets and so every parser's, the chunker's and
the tokenizer's version; corpus, selection, gate thresholds, output format, parsegate's own
version) and every document it read, by id, version (content hash) and the outcome the store
holds for that version in this chunk set (the chunks of a version in a chunk set are never
overwritten) — the sha256 of each output file it wrote, and of run.json's summary and outcomes.
A later run that parses nothing and finds the same fingerprint, a complete run.json whose
outcomes are intact, no partial output and every file with its recorded hash does not route,
gate or render again: chunks.jsonl, quarantine.jsonl, report.json
and report.html stay as they are (the earlier run's timings, worker count and store counts in
report.json with them), and run.json is written again with this run's timings and store counts.
Anything else (a file edited or missing, another configuration or threshold, a changed or new
or deleted document) is a full run, whose previous outputs move to history/ as always.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson

# What differs between two runs that write the same outputs: when and how fast they ran, with
# how many workers, and what the store did (parsed or reused).
RUN_CIRCUMSTANCES = frozenset({"started_at", "finished_at", "seconds", "store", "workers", "workers_replaced"})
OUTPUT_FILES = ("chunks.jsonl", "quarantine.jsonl", "report.json", "report.html", "chunks.parquet")


def fingerprint(record: dict[str, Any], gate: dict[str, Any], documents: list[tuple[str, str, str]]) -> str:
    """One hash of the run's settings (its record less its circumstances, and the gate's
    thresholds) and of each document read: id, version and the stored outcome's JSON."""
    digest = hashlib.sha256(_settings(record, gate))
    for document in documents:
        digest.update(orjson.dumps(document))
    return "sha256:" + digest.hexdigest()


def settings_hash(record: dict[str, Any], gate: dict[str, Any]) -> str:
    """The settings' part of the fingerprint alone: a re-run tells a change of settings from a
    change of documents by it."""
    return "sha256:" + hashlib.sha256(_settings(record, gate)).hexdigest()


def _settings(record: dict[str, Any], gate: dict[str, Any]) -> bytes:
    settings = {k: v for k, v in record.items() if k not in RUN_CIRCUMSTANCES}
    return orjson.dumps([settings, gate], option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def outputs_record(
    outdir: Path, run_fingerprint: str, summary: dict[str, Any], files: list[Any], settings: str | None = None
) -> dict[str, Any]:
    """run.json's ``outputs``: the fingerprint (and ``settings``, its settings' part), the sha256
    of each output file the run wrote, and of run.json's own summary and outcomes (which an
    up-to-date re-run prints and keeps)."""
    hashes = {name: _sha256(outdir / name) for name in OUTPUT_FILES if (outdir / name).is_file()}
    out = {"fingerprint": run_fingerprint, "files": hashes, "outcomes": _outcomes_hash(summary, files)}
    return {**out, "settings": settings} if settings is not None else out


def _outcomes_hash(summary: dict[str, Any], files: list[Any]) -> str:
    dumped = orjson.dumps([summary, files], option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return "sha256:" + hashlib.sha256(dumped).hexdigest()


def up_to_date(
    outdir: Path, run_fingerprint: str, partial_files: tuple[str, ...], settings: str | None = None
) -> tuple[dict[str, Any] | None, str | None]:
    """The previous run.json, when OUTDIR holds that complete run's outputs, intact, and its
    fingerprint is this run's (``settings``: this run's settings hash); else None and why not,
    in words a person can act on."""
    left = [name for name in partial_files if (outdir / name).exists()]
    if left:  # an interrupted run left output: a full run files it away
        return None, f"an interrupted run left {left[0]} in the output folder"
    try:
        previous: dict[str, Any] = orjson.loads((outdir / "run.json").read_bytes())
    except FileNotFoundError:
        return None, "the output folder holds no earlier run (no run.json)"
    except (OSError, orjson.JSONDecodeError):
        return None, "the output folder's run.json cannot be read"
    outputs = previous.get("outputs") if isinstance(previous, dict) else None
    if not isinstance(previous, dict) or not previous.get("complete"):
        return None, "the earlier run in the output folder did not finish"
    if not isinstance(outputs, dict):
        return None, "the earlier run recorded no fingerprint of its outputs (no store, or re-gated since)"
    if outputs.get("fingerprint") != run_fingerprint:
        if settings is not None and outputs.get("settings") not in (None, settings):
            return None, "the settings differ from the earlier run's (configuration, thresholds, versions or selection)"
        return None, "the documents differ from the earlier run's (one added, deleted, or read again)"
    if outputs.get("outcomes") != _outcomes_hash(previous.get("summary", {}), previous.get("files", [])):
        return None, "run.json's outcomes are not those the earlier run wrote (edited since)"
    recorded = outputs.get("files")
    present = {n for n in OUTPUT_FILES if (outdir / n).exists()}
    if not isinstance(recorded, dict) or set(recorded) != present:
        known = set(recorded) if isinstance(recorded, dict) else set()
        odd = sorted(known ^ present)
        return None, f"the output folder's files are not those the earlier run wrote ({', '.join(odd) or 'run.json'})"
    for name, digest in recorded.items():
        try:
            if _sha256(outdir / name) != digest:
                return None, f"{name} changed since the earlier run wrote it"
        except OSError:
            return None, f"{name} cannot be read"
    return previous, None


def _sha256(path: Path) -> str:
    with path.open("rb") as file:
        return "sha256:" + hashlib.file_digest(file, "sha256").hexdigest()
