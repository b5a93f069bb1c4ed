"""``parsegate export``: a chunk set's current chunks as JSONL (exactly the ``parsegate.chunk/1``
lines the run wrote) or Parquet (pyarrow, the ``parquet`` extra; nested fields whose shape varies
from record to record, ``boxes``, ``metadata`` and ``warnings``, are JSON text columns)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import orjson

from parsegate.store.read import current_lines
from parsegate.store.schema import StoreError

_JSON_COLUMNS = ("boxes", "metadata", "warnings")
_BATCH = 10_000


def export_jsonl(db: sqlite3.Connection, chunk_set: str, target: Path, passed_only: bool = True) -> int:
    count = 0
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        with temporary.open("wb") as out:
            for line in current_lines(db, chunk_set, passed_only):
                out.write(line + b"\n")
                count += 1
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return count


def parquet_schema() -> Any:
    import pyarrow as pa

    text, integer = pa.string(), pa.int64()
    return pa.schema(
        [
            ("schema", text), ("id", text), ("doc_id", text), ("doc_version", text), ("chunk_set", text),
            ("start", integer), ("end", integer), ("text", text), ("embed_text", text), ("tokens", integer),
            ("tokenizer", text), ("section_path", pa.list_(text)), ("kinds", pa.list_(text)),
            ("parent_id", text), ("prev_id", text), ("next_id", text), ("pages", pa.list_(integer)),
            ("boxes", text), ("lines", pa.list_(integer)), ("language", text), ("symbol", text),
            ("metadata", text), ("warnings", text),
        ]
    )  # fmt: skip


def _row(line: bytes) -> dict[str, Any]:
    record: dict[str, Any] = orjson.loads(line)
    for key in _JSON_COLUMNS:
        value = record.get(key)
        record[key] = None if value is None else orjson.dumps(value).decode()
    return record


def export_parquet(db: sqlite3.Connection, chunk_set: str, target: Path, passed_only: bool = True) -> int:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise StoreError("Parquet export needs pyarrow: pip install 'parsegate[parquet]'") from None
    schema = parquet_schema()
    count = 0
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        with pq.ParquetWriter(temporary, schema) as writer:
            batch: list[dict[str, Any]] = []
            for line in current_lines(db, chunk_set, passed_only):
                batch.append(_row(line))
                if len(batch) >= _BATCH:  # a corpus streams through: never every chunk at once
                    writer.write_table(pa.Table.from_pylist(batch, schema))
                    count += len(batch)
                    batch = []
            if batch or count == 0:
                writer.write_table(pa.Table.from_pylist(batch, schema))
                count += len(batch)
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return count
