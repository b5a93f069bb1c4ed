"""Output versions follow output: a parser's or the chunker's OUTPUT_VERSION must be bumped
whenever its golden output changes, so that the same span under changed code gets a new chunk
id and embedding caches keyed by id never go stale. golden_docs/VERSIONS.json records, per
case, a hash of its expected elements and chunks and the versions they were made with;
PARSEGATE_REGENERATE_GOLDEN=1 rewrites it (refusing output that changed without a bump)."""

from __future__ import annotations

import hashlib
import json

from parsegate import chunkers
from parsegate.parsers import asciidoc, code, csv, epub, image, mail, markdown, notebook, office, pdf, rst, text
from tests.golden import GOLDEN, cases, regenerate_requested

RECORD = GOLDEN / "VERSIONS.json"
PARSERS = {
    "markdown": markdown,
    "text": text,
    "code": code,
    "office": office,
    "pdf": pdf,
    "csv": csv,
    "notebook": notebook,
    "image": image,
    "epub": epub,
    "mail": mail,
    "rst": rst,
    "asciidoc": asciidoc,
}


def versions() -> dict[str, int]:
    found = {name: getattr(module, "OUTPUT_VERSION", 1) for name, module in PARSERS.items()}
    return {**found, "chunker": chunkers.OUTPUT_VERSION}


def hashes() -> dict[str, dict[str, str]]:
    """Per case, a hash of its expected elements and chunks — without the ids, which the versions
    themselves name (a bump changes every id; that is the point, not a further change)."""
    out = {}
    for case in cases():
        found = {}
        for kind in ("elements", "chunks"):
            records = json.loads((case.path / "expected" / f"{kind}.json").read_text())
            for r in records:
                if kind == "chunks":
                    r.pop("id", None)
                    r.pop("chunk_set", None)
            found[kind] = hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()[:16]
        out[case.name] = found
    return out


def problems(record: dict, now: dict[str, int], current: dict[str, dict[str, str]]) -> list[str]:
    """What changed without its version being bumped."""
    found = []
    before = record["versions"]
    for case, h in current.items():
        old = record["cases"].get(case)
        if old is None:
            continue  # a new case changes no existing output
        family = case.split("/")[0]
        if h["elements"] != old["elements"] and now[family] <= before[family]:
            found.append(f"{case}: elements changed; bump {family}'s OUTPUT_VERSION")
        elif h["chunks"] != old["chunks"] and h["elements"] == old["elements"] and now["chunker"] <= before["chunker"]:
            found.append(f"{case}: chunks changed for the same elements; bump chunkers.OUTPUT_VERSION")
    return found


def test_output_versions_are_bumped_when_golden_output_changes() -> None:
    current, now = hashes(), versions()
    record = json.loads(RECORD.read_text()) if RECORD.exists() else {"versions": now, "cases": {}}
    found = problems(record, now, current)
    assert not found, "\n".join(found)
    if regenerate_requested():
        RECORD.write_text(json.dumps({"versions": now, "cases": current}, indent=2, sort_keys=True) + "\n")
        return
    assert record == {"versions": now, "cases": current}, (
        "golden outputs or versions moved: rerun the golden tests with PARSEGATE_REGENERATE_GOLDEN=1 to record them"
    )


def test_the_check_fails_when_output_changes_without_a_bump() -> None:
    current, now = hashes(), versions()
    case = next(iter(current))
    family = case.split("/")[0]
    changed = {**current, case: {"elements": "0" * 16, "chunks": current[case]["chunks"]}}
    assert problems({"versions": now, "cases": current}, now, changed) == [
        f"{case}: elements changed; bump {family}'s OUTPUT_VERSION"
    ]
    chunks_only = {**current, case: {"elements": current[case]["elements"], "chunks": "0" * 16}}
    assert problems({"versions": now, "cases": current}, now, chunks_only) == [
        f"{case}: chunks changed for the same elements; bump chunkers.OUTPUT_VERSION"
    ]
    bumped = {**now, family: now[family] + 1}
    assert problems({"versions": now, "cases": current}, bumped, changed) == []
