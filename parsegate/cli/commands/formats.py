"""``parsegate formats``: what parsegate reads."""

from __future__ import annotations

import click


@click.command("formats")
def formats_command() -> None:
    """List the formats parsegate reads: suffixes, parser, extra.

    One suffix a line."""
    from parsegate.parsers.registry import supported_suffixes

    for suffix in supported_suffixes():
        click.echo(suffix)
