"""The store's commands: ``parsegate store ls``, ``diff``, ``export`` and ``retire``."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from parsegate.cli.params import err, fail
from parsegate.store.diff import diff
from parsegate.store.export import export_jsonl, export_parquet
from parsegate.store.read import chunk_sets, resolve
from parsegate.store.retire import retire, what_goes
from parsegate.store.schema import DEFAULT_STORE, StoreError, StoreLock, connect

StorePath = Annotated[
    Path,
    typer.Option(
        "--store", help="The chunk store (default: .parsegate/store.sqlite here, where `run --out OUTDIR` puts it)."
    ),
]
out = Console()
store_app = typer.Typer(help="The chunk store: what it holds.", no_args_is_help=True)


@contextmanager
def opened(path: Path, write: bool = False) -> Iterator[sqlite3.Connection]:
    try:
        with closing(connect(path, write=write, create=False)) as db:
            yield db
    except StoreError as exc:
        fail(str(exc))


@store_app.command("ls")
def ls(store: StorePath = DEFAULT_STORE, as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """List the chunk sets: when created, documents now (and gone), versions stored, chunks."""
    with opened(store) as db:
        sets = chunk_sets(db)
    if as_json:
        print(json.dumps([s.__dict__ for s in sets], indent=2, ensure_ascii=False))
        return
    table = Table("chunk set", "created", "strategy", "max tokens", "documents", "gone", "versions", "chunks")
    for s in sets:
        config = s.config.get("config", {})
        table.add_row(s.id, s.created_at[:19], str(config.get("strategy", "?")), str(config.get("max_tokens", "?")),
                      str(s.documents), str(s.gone), str(s.versions), str(s.chunks))  # fmt: skip
    out.print(table)


def diff_command(
    chunk_set_a: Annotated[str, typer.Argument(help="The old chunk set (an id or an unambiguous prefix).")],
    chunk_set_b: Annotated[str, typer.Argument(help="The new chunk set.")],
    store: StorePath = DEFAULT_STORE,
    as_json: Annotated[bool, typer.Option("--json", help="The whole diff as JSON on stdout.")] = False,
) -> None:
    """Documents whose chunks changed between two chunk sets, chunks removed and added, and for
    every old chunk the new chunks covering its source span (to re-point citations)."""
    with opened(store) as db:
        try:
            a, b = resolve(db, chunk_set_a), resolve(db, chunk_set_b)
        except StoreError as exc:
            fail(str(exc))
        result = diff(db, a, b).to_dict()
    if as_json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    changed = result["documents_changed"]
    out.print(f"{a} → {b}: {len(changed)} documents changed, {result['documents_unchanged']} unchanged, "
              f"{len(result['documents_only_in_a'])} only in {a}, {len(result['documents_only_in_b'])} only in {b}",
              highlight=False)  # fmt: skip
    for doc in changed:
        out.print(f"  {doc['doc_id']}: -{len(doc['chunks_removed'])} +{len(doc['chunks_added'])} chunks"
                  + (" (new version)" if doc["version_a"] != doc["version_b"] else ""), highlight=False)  # fmt: skip
    for doc_id in result["documents_only_in_a"]:
        out.print(f"  - {doc_id}", highlight=False)
    for doc_id in result["documents_only_in_b"]:
        out.print(f"  + {doc_id}", highlight=False)


def export_command(
    chunk_set: Annotated[str, typer.Argument(help="The chunk set (an id or an unambiguous prefix).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The file to write.")],
    format_: Annotated[str, typer.Option("--format", "-f", help="jsonl (parsegate.chunk/1) or parquet.")] = "jsonl",
    store: StorePath = DEFAULT_STORE,
    include_failed: Annotated[
        bool, typer.Option("--include-failed", help="Also the chunks of documents that failed the gate.")
    ] = False,
) -> None:
    """Write a chunk set's current chunks (documents not gone; by default those that passed the gate)."""
    if format_ not in ("jsonl", "parquet"):
        fail(f"--format {format_}: choose jsonl or parquet")
    with opened(store) as db:
        try:
            ident = resolve(db, chunk_set)
            write = export_jsonl if format_ == "jsonl" else export_parquet
            count = write(db, ident, output, not include_failed)
        except StoreError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
    err.print(f"wrote {count} chunks of {ident} to {output}", highlight=False)


def retire_command(
    chunk_set: Annotated[str, typer.Argument(help="The chunk set to remove (an id or an unambiguous prefix).")],
    store: StorePath = DEFAULT_STORE,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Remove without asking.")] = False,
) -> None:
    """Remove a chunk set with its chunks, and the document versions nothing else refers to."""
    try:
        with StoreLock(store, "retire"), opened(store, write=True) as db:
            try:
                ident = resolve(db, chunk_set)
            except StoreError as exc:
                fail(str(exc))
            goes = what_goes(db, ident)
            err.print(f"retiring {ident} removes: {goes.documents} current documents, {goes.results} document "
                      f"results (all versions read), {goes.chunks} chunks, {goes.orphan_versions} document "
                      "versions no other chunk set refers to", highlight=False)  # fmt: skip
            if not yes:
                if not sys.stdin.isatty():
                    fail("not removed: confirm with --yes (no terminal to ask on)")
                if not typer.confirm("remove them?"):
                    fail("not removed", 1)
            retire(db, ident)
    except StoreError as exc:
        fail(str(exc))
    err.print(f"retired {ident}", highlight=False)
