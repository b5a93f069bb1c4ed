"""``parsegate chunk``: one file into chunk records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from parsegate.cli.params import (
    PATH,
    allow_over_model_max,
    chunk_config,
    chunking_options,
    ocr_office_images_option,
    output_format_option,
    parse_options,
    password_option,
    single_file_options,
)


@click.command("chunk")
@click.argument("file", type=PATH)
@click.option("-o", "--out", type=PATH, help="Write the records here ('-' or none: stdout).")
@chunking_options
@allow_over_model_max
@password_option
@ocr_office_images_option
@single_file_options
@output_format_option
def chunk_command(file: Path, out: Path | None, **given: Any) -> None:
    """Chunk one file into parsegate.chunk/1 records (JSONL, or Parquet).

    FILE is a file in any format 'parsegate formats' lists, or '-' for stdin. Every record's text is
    the exact slice Document.text[start:end]; its embed_text (context prefix + text) fits
    --max-tokens, counted with the real tokenizer."""
    import orjson

    from parsegate.cli.io import load_document, output_format, write_records
    from parsegate.errors import CommandError
    from parsegate.runner.chunking import make_chunker

    kind = output_format(given.pop("output_format"), out)
    config = chunk_config(given)
    chunker = make_chunker(config, given["allow_over_model_max"])
    doc = load_document(
        file, given["doc_id"], given["root"], given["fmt"], parse_options(given["password"], given["ocr_office_images"])
    )
    try:
        chunks = chunker.chunk(doc)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    write_records([orjson.dumps(c.to_dict()) for c in chunks], out, kind)
