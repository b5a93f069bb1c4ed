"""Chunk records as JSONL (``parsegate.chunk/1``, one object a line) or Parquet, for ``chunk``
and ``run`` (``--output-format``). The Parquet file has the chunk store's export schema
(parsegate/store/export.py), so ``chunk``, ``run`` and ``export`` write the same columns:
nested fields whose shape varies from record to record (boxes, metadata, warnings) are JSON text.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from parsegate.errors import require

FORMATS = ("jsonl", "parquet")
_BATCH = 10_000


def choose(explicit: str | None, out: Path | None) -> str:
    """The format asked for, else the one the output's suffix names: ValueError if unknown, and
    MissingExtra before any work when Parquet is asked for without pyarrow."""
    chosen = (explicit or ("parquet" if out is not None and out.suffix.lower() == ".parquet" else "jsonl")).lower()
    if chosen not in FORMATS:
        raise ValueError(f"--output-format {chosen}: expected one of {', '.join(FORMATS)}")
    if chosen == "parquet":
        require("pyarrow.parquet", "parquet")
    return chosen


def parquet_bytes(lines: Iterable[bytes]) -> bytes:
    """``parsegate.chunk/1`` JSON lines as one Parquet file, in memory (for stdout)."""
    pa = require("pyarrow", "parquet")
    sink = pa.BufferOutputStream()
    _write(lines, sink)
    return bytes(sink.getvalue().to_pybytes())


def write_parquet(lines: Iterable[bytes], target: Path) -> int:
    """``parsegate.chunk/1`` JSON lines into ``target`` (whole or not at all); the record count."""
    require("pyarrow", "parquet")
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        count = _write(lines, temporary)
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return count


def _write(lines: Iterable[bytes], sink: Any) -> int:
    pa = require("pyarrow", "parquet")
    pq = require("pyarrow.parquet", "parquet")
    from parsegate.store.export import _row, parquet_schema  # one schema for every Parquet file

    schema = parquet_schema()
    count = 0
    with pq.ParquetWriter(sink, schema) as writer:
        batch: list[dict[str, Any]] = []
        for line in lines:
            batch.append(_row(line))
            if len(batch) >= _BATCH:  # a corpus streams through, never every chunk at once
                writer.write_table(pa.Table.from_pylist(batch, schema))
                count, batch = count + len(batch), []
        if batch or count == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema))
            count += len(batch)
    return count


def run_parquet(outdir: Path) -> int:
    """OUTDIR/chunks.parquet from OUTDIR/chunks.jsonl, the run's (or regate's) passed chunks."""
    with (outdir / "chunks.jsonl").open("rb") as lines:
        return write_parquet((line.rstrip(b"\n") for line in lines if line.strip()), outdir / "chunks.parquet")
