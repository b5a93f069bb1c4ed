"""The store's commands: ``parsegate store ls``, ``diff``, ``export`` and ``retire``."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import click

from parsegate.cli import console
from parsegate.cli.params import PATH
from parsegate.errors import CommandError
from parsegate.store.schema import DEFAULT_STORE, StoreError, connect

store_option = click.option(
    "--store",
    type=PATH,
    default=DEFAULT_STORE,
    show_default=True,
    help="The chunk store (where `run --out OUTDIR` puts it: .parsegate/store.sqlite beside OUTDIR).",
)


@contextmanager
def opened(path: Path, write: bool = False) -> Iterator[sqlite3.Connection]:
    try:
        with closing(connect(path, write=write, create=False)) as db:
            yield db
    except StoreError as exc:
        raise CommandError(str(exc)) from None


@click.group("store", no_args_is_help=True)
def store_command() -> None:
    """The chunk store: what it holds.

    Every run records into it (unless --no-store); 'diff', 'export' and 'retire' work on its
    chunk sets."""


@store_command.command("ls")
@store_option
@click.option("--json", "as_json", is_flag=True, help="The chunk sets as JSON on stdout.")
def ls(store: Path, as_json: bool) -> None:
    """List the chunk sets: when created, their configuration, documents now (and gone), chunks."""
    from rich import box
    from rich.table import Table

    from parsegate.store.read import chunk_sets

    with opened(store) as db:
        sets = chunk_sets(db)
    if as_json:
        print(json.dumps([s.__dict__ for s in sets], indent=2, ensure_ascii=False))
        return
    # The chunk set's id whole (export, diff and retire take it); the rest fits 80 columns beside it
    # (--json has every field, the versions stored among them).
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("chunk set", no_wrap=True, min_width=19)
    table.add_column("created", no_wrap=True)
    table.add_column("configuration", no_wrap=True)
    for col in ("docs", "gone", "chunks"):
        table.add_column(col, justify="right", no_wrap=True)
    for s in sets:
        config = s.config.get("config", {})
        name = f"{config.get('strategy', '?')}@{config.get('max_tokens', '?')}"
        table.add_row(s.id, s.created_at[:10], name, str(s.documents), str(s.gone), str(s.chunks))
    console.stdout().print(table)


@click.command("diff")
@click.argument("chunk_set_a")
@click.argument("chunk_set_b")
@store_option
@click.option("--json", "as_json", is_flag=True, help="The whole diff as JSON on stdout.")
def diff_command(chunk_set_a: str, chunk_set_b: str, store: Path, as_json: bool) -> None:
    """What changed between two chunk sets, and where each old chunk went.

    CHUNK_SET_A is the old chunk set, CHUNK_SET_B the new (ids or unambiguous prefixes): the
    documents whose chunks changed, chunks removed and added, and for every old chunk the new
    chunks covering its source span (to re-point citations)."""
    from parsegate.store.diff import diff
    from parsegate.store.read import resolve

    with opened(store) as db:
        try:
            a, b = resolve(db, chunk_set_a), resolve(db, chunk_set_b)
        except StoreError as exc:
            raise CommandError(str(exc)) from None
        result = diff(db, a, b).to_dict()
    if as_json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    changed = result["documents_changed"]
    console.stdout().print(f"{a} → {b}: {len(changed)} documents changed, {result['documents_unchanged']} unchanged, "
              f"{len(result['documents_only_in_a'])} only in {a}, {len(result['documents_only_in_b'])} only in {b}",
              highlight=False)  # fmt: skip
    for doc in changed:
        console.stdout().print(f"  {doc['doc_id']}: -{len(doc['chunks_removed'])} +{len(doc['chunks_added'])} chunks"
                  + (" (new version)" if doc["version_a"] != doc["version_b"] else ""), highlight=False)  # fmt: skip
    for doc_id in result["documents_only_in_a"]:
        console.stdout().print(f"  - {doc_id}", highlight=False)
    for doc_id in result["documents_only_in_b"]:
        console.stdout().print(f"  + {doc_id}", highlight=False)


@click.command("export")
@click.argument("chunk_set")
@click.option("--output", "-o", type=PATH, required=True, help="The file to write.")
@click.option(
    "--format",
    "-f",
    "format_",
    type=click.Choice(["jsonl", "parquet"]),
    default="jsonl",
    show_default=True,
    help="jsonl (parsegate.chunk/1) or parquet.",
)
@store_option
@click.option("--include-failed", is_flag=True, help="Also the chunks of documents that failed the gate.")
def export_command(chunk_set: str, output: Path, format_: str, store: Path, include_failed: bool) -> None:
    """Write a chunk set's current chunks (JSONL or Parquet).

    CHUNK_SET is an id or an unambiguous prefix ('parsegate store ls' lists them). Documents not
    gone; by default only those that passed the gate."""
    from parsegate.store.export import export_jsonl, export_parquet
    from parsegate.store.read import resolve

    with opened(store) as db:
        try:
            ident = resolve(db, chunk_set)
            write = export_jsonl if format_ == "jsonl" else export_parquet
            count = write(db, ident, output, not include_failed)
        except StoreError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from None
    console.say(f"wrote {count} chunks of {ident} to {output}")


@click.command("retire")
@click.argument("chunk_set")
@store_option
@click.option("--yes", "-y", is_flag=True, help="Remove without asking.")
def retire_command(chunk_set: str, store: Path, yes: bool) -> None:
    """Remove a chunk set and what nothing else refers to.

    CHUNK_SET (an id or an unambiguous prefix) goes with its chunks, and the document versions no
    other chunk set refers to."""
    from parsegate.store.read import resolve
    from parsegate.store.retire import retire, what_goes
    from parsegate.store.schema import StoreLock

    try:
        with StoreLock(store, "retire", create=False), opened(store, write=True) as db:
            try:
                ident = resolve(db, chunk_set)
            except StoreError as exc:
                raise CommandError(str(exc)) from None
            goes = what_goes(db, ident)
            console.say(
                f"retiring {ident} removes: {goes.documents} current documents, {goes.results} document "
                f"results (all versions read), {goes.chunks} chunks, {goes.orphan_versions} document "
                "versions no other chunk set refers to"
            )
            if not yes:
                if not sys.stdin.isatty():
                    raise CommandError("not removed: confirm with --yes (no terminal to ask on)")
                if not click.confirm("remove them?"):
                    raise CommandError("not removed", 1)
            retire(db, ident)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    console.say(f"retired {ident}")
