"""Golden cases: golden_docs/<format>/<case>/input.<ext> (+ config.json, evidence.json),
expected outputs in expected/elements.json and expected/chunks.json.

Expected outputs are regenerated only with PARSEGATE_REGENERATE_GOLDEN=1, and are
committed after a person has read them (parsegate inspect shows them readably).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from chunkers import ChunkConfig, Chunker
from parsers.registry import parse_file

REGENERATE_FLAG = "PARSEGATE_REGENERATE_GOLDEN"
GOLDEN = Path(__file__).resolve().parent.parent / "golden_docs"


def cases() -> list[Path]:
    return sorted({p.parent for p in GOLDEN.glob("**/input.*")})


def case_config(case: Path) -> ChunkConfig:
    path = case / "config.json"
    return ChunkConfig(**(json.loads(path.read_text()) if path.exists() else {}))


def actual(case: Path, chunker: Chunker) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    source = next(case.glob("input.*"))
    doc = parse_file(source, f"{case.relative_to(GOLDEN).as_posix()}/{source.name}")
    elements = [e.to_dict(doc.text) for e in doc.elements]
    chunks = [
        {
            "start": c.start,
            "end": c.end,
            "lines": list(c.lines) if c.lines else None,
            "pages": c.pages,
            "tokens": c.tokens,
            "section_path": c.section_path,
            "kinds": c.kinds,
            "language": c.language,
            "symbol": c.symbol,
            "text": c.text,
            "embed_text": c.embed_text,
        }
        for c in chunker.chunk(doc)
    ]
    return elements, chunks


def regenerate_requested() -> bool:
    return os.environ.get(REGENERATE_FLAG) == "1"


def write_expected(case: Path, elements: list[dict[str, Any]], chunks: list[dict[str, Any]]) -> None:
    out = case / "expected"
    out.mkdir(exist_ok=True)
    for name, data in (("elements.json", elements), ("chunks.json", chunks)):
        (out / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
