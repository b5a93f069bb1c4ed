"""``parsegate inspect``: a document's elements and its chunk boundaries, for a person."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from parsegate.cli.params import (
    PATH,
    allow_over_model_max,
    chunk_config,
    chunking_options,
    parse_options,
    password_option,
    single_file_options,
)


@click.command("inspect")
@click.argument("file", type=PATH)
@chunking_options
@click.option("--elements/--no-elements", default=True, help="Also list the parsed elements.")
@allow_over_model_max
@password_option
@single_file_options
def inspect_command(file: Path, elements: bool, **given: Any) -> None:
    """Show a document's elements and where the chunk boundaries fall.

    Every chunk with its token count against the budget, its lines or pages, its section path and
    kinds, its context prefix (in cyan) and its text."""
    from rich.table import Table
    from rich.text import Text

    from parsegate.cli import console
    from parsegate.cli.io import load_document
    from parsegate.runner.chunking import make_chunker

    config = chunk_config(given)
    chunker = make_chunker(config, given["allow_over_model_max"])
    doc = load_document(file, given["doc_id"], given["root"], given["fmt"], parse_options(given["password"]))
    out = console.stdout()
    if elements:
        # Everything from the document (ids, section titles, text) goes in as Text: `[/]` or `a[i]`
        # in a document is shown as written, never read as rich markup.
        table = Table(
            title=Text(console.inert(f"{doc.doc_id} · {doc.format} · {len(doc.elements)} elements")),
            title_justify="left",
            expand=True,
        )
        rows = []
        for e in doc.elements:
            lines = f"{e.lines[0]}–{e.lines[1]}" if e.lines else ""
            kind = ("  " * (e.level or 0 if e.kind == "list_item" else 0)) + e.kind
            preview = doc.text[e.start : e.end].replace("\n", " ⏎ ")[:80]
            rows.append((e.id, kind, lines, " > ".join(e.section_path), preview))
        # id, kind and lines whole at any width; the section and the text share what is left.
        for n, name in enumerate(("id", "kind", "lines")):
            width = max([len(name), *(len(r[n]) for r in rows)])
            table.add_column(name, no_wrap=True, width=width, min_width=width)
        table.add_column("section", overflow="ellipsis", no_wrap=True, ratio=1)
        table.add_column("text", overflow="ellipsis", no_wrap=True, ratio=2)
        for row in rows:
            table.add_row(*(Text(console.inert(cell)) for cell in row))
        out.print(table)
    chunks = chunker.chunk(doc)
    budget = chunker.max_tokens
    parents = {c.parent_id for c in chunks if c.parent_id}  # parent-child: their own budget
    for n, c in enumerate(chunks):
        if c.lines:
            where = f"lines {c.lines[0]}–{c.lines[1]}"
        else:
            where = f"pages {', '.join(map(str, c.pages))}" if c.pages else ""
        role = f"parent · {c.tokens}/{chunker.config.parent_tokens}" if c.id in parents else f"{c.tokens}/{budget}"
        out.rule(
            Text(f"chunk {n + 1}/{len(chunks)}", style="bold")
            + Text(
                console.inert(f" · {role} tokens · {where} · {' > '.join(c.section_path) or '(no section)'}")
                + f" · {', '.join(c.kinds)}"
            ),
            align="left",
        )
        prefix = c.embed_text[: len(c.embed_text) - len(c.text)]
        if prefix:
            out.print(Text(console.inert(prefix.rstrip()), style="italic cyan"))
        out.print(Text(console.inert(c.text), style="" if n % 2 == 0 else "bright_black"))
    out.rule(Text(f"{len(chunks)} chunks · budget {budget} tokens ({chunker.counter.name})"), align="left")
