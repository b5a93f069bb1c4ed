"""``parsegate parse``: a document's elements as JSONL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from parsegate.cli.params import PATH, parse_options, password_option, single_file_options


@click.command("parse")
@click.argument("file", type=PATH)
@click.option("-o", "--out", type=PATH, help="Write JSONL here ('-' or none: stdout).")
@password_option
@single_file_options
def parse_command(file: Path, out: Path | None, password: str | None, **given: Any) -> None:
    """Print a document's elements as JSONL, in reading order, with exact offsets.

    FILE is a file in any format 'parsegate formats' lists, or '-' for stdin (the format is then
    told by --format, the --doc-id's suffix, or the content)."""
    import orjson

    from parsegate.cli.io import load_document, write_lines

    doc = load_document(file, given["doc_id"], given["root"], given["fmt"], parse_options(password))
    write_lines([orjson.dumps(e.to_dict(doc.text)) for e in doc.elements], out)
