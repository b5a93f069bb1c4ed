"""A single document in (a file, or stdin as '-') and records out (stdout, a file, JSONL or
Parquet), for parse, chunk and inspect."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from parsegate.cli.params import STDIO, file_doc_id
from parsegate.errors import CommandError, MissingExtra
from parsegate.log import log

if TYPE_CHECKING:
    from parsegate.parsers.model import Document
    from parsegate.parsers.options import ParseOptions


def load_document(
    path: Path, doc_id: str | None, root: Path | None, fmt: str | None, options: ParseOptions
) -> Document:
    """One document from a file, or from stdin when the path is '-'."""
    from parsegate.api import parse
    from parsegate.parsers.model import ParseError

    source: Path | bytes = path
    if path == STDIO:
        source, ident = sys.stdin.buffer.read(), doc_id or "stdin"
    elif not path.exists():
        raise CommandError(f"{path}: no such file")
    elif path.is_dir():
        raise CommandError(f"{path}: is a directory (use 'parsegate run {path} --out OUTDIR')")
    else:
        ident = file_doc_id(path, doc_id, root)
    try:
        return parse(source, format=fmt, doc_id=ident, options=options)
    except ParseError as exc:
        raise CommandError(f"{path}: {exc.message} [{exc.code}]") from None


def output_format(explicit: str | None, out: Path | None) -> str:
    """The format asked for, else the one the output's suffix names; Parquet's extra checked first."""
    from parsegate.runner.outputs import choose

    try:
        return choose(explicit, out)
    except (ValueError, ImportError) as exc:
        raise CommandError(str(exc)) from None


def write_records(lines: list[bytes], out: Path | None, kind: str) -> None:
    """Chunk records as JSONL, or as Parquet (a file, or stdout with '-' or no --out)."""
    from parsegate.runner.outputs import parquet_bytes, write_parquet

    if kind == "jsonl":
        write_lines(lines, out)
        return
    try:
        if out is None or out == STDIO:
            sys.stdout.buffer.write(parquet_bytes(lines))
            sys.stdout.flush()
            return
        out.parent.mkdir(parents=True, exist_ok=True)
        write_parquet(lines, out)
    except MissingExtra as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    log.info("wrote %d records to %s", len(lines), out)


def write_lines(lines: list[bytes], out: Path | None) -> None:
    data = b"".join(line + b"\n" for line in lines)
    if out is None or out == STDIO:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    log.info("wrote %d %s to %s", len(lines), "line" if len(lines) == 1 else "lines", out)
