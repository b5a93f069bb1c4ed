"""Validate parsegate's output files against the JSON Schemas committed under schemas/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
KINDS = {"chunks.jsonl": "chunk-1", "quarantine.jsonl": "quarantine-1", "run.json": "run-1", "report.json": "report-1"}


def _validators() -> dict[str, Draft202012Validator]:
    loaded = {p.name.removesuffix(".schema.json"): json.loads(p.read_text()) for p in SCHEMAS.glob("*.schema.json")}
    registry: Registry[Any] = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in loaded.values())
    return {name: Draft202012Validator(s, registry=registry) for name, s in loaded.items()}


VALIDATORS = _validators()


def records(path: Path) -> Iterator[tuple[str, Any]]:
    if path.suffix == ".jsonl":
        for n, line in enumerate(path.read_text().splitlines(), 1):
            yield f"{path}:{n}", json.loads(line)
    else:
        yield str(path), json.loads(path.read_text())


def errors(path: Path) -> list[str]:
    """Every schema violation in one output file (a chunks.jsonl, quarantine.jsonl, run.json or report.json)."""
    validator = VALIDATORS[KINDS[path.name]]
    found = []
    for where, record in records(path):
        for e in validator.iter_errors(record):
            found.append(f"{where}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    return found


def outputs(folder: Path) -> list[Path]:
    """The output files of every run under ``folder`` (archived runs in history/ included)."""
    return sorted(p for name in KINDS for p in folder.rglob(name) if p.is_file())
