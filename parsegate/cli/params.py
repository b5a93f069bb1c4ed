"""Options the commands share, as click decorators, and how their values become the library's typed
settings: chunking options (generated from chunkers/strategies.py's table), parse options (the
environment is read here, once), gate options, and a single file's document id and format."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import MISSING, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from parsegate.errors import CommandError

if TYPE_CHECKING:
    from parsegate.chunkers import ChunkConfig
    from parsegate.parsers.options import ParseOptions
    from parsegate.quality_gates.thresholds import GateConfig

F = TypeVar("F", bound=Callable[..., Any])
STDIO = Path("-")
PATH = click.Path(path_type=Path)


def _compose(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(function: F) -> F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


# -- chunking --------------------------------------------------------------------------


def chunking_options(function: F) -> F:
    """--strategy and every chunking setting, with ChunkConfig's defaults; each setting's help
    names the strategies that read it."""
    from parsegate.chunkers import ChunkConfig
    from parsegate.chunkers.strategies import COMMON, NAMES, SETTINGS, readers, strategy_help

    defaults = {f.name: f.default for f in fields(ChunkConfig) if f.default is not MISSING}
    options = [
        click.option(
            "--strategy",
            "-s",
            "strategy",
            type=click.Choice(NAMES),
            metavar="NAME",  # the help below names each (the choices on one line were 94 columns)
            default=defaults["strategy"],
            show_default=True,
            help=strategy_help(),
        )
    ]
    for setting in SETTINGS:
        names = [setting.flag, *([setting.short] if setting.short else [])]
        who = "" if setting.field in COMMON else f" ({', '.join(readers(setting.field))})"
        options.append(
            click.option(
                *names,
                setting.field,
                type=setting.kind,
                default=defaults[setting.field],
                show_default=not setting.optional,
                help=setting.help + who,
            )
        )
    return _compose(*options)(function)


def chunk_config(values: dict[str, Any]) -> ChunkConfig:
    """The ChunkConfig of a command's options: every field taken (and removed) from ``values``."""
    from parsegate.chunkers import ChunkConfig

    return ChunkConfig(**{f.name: values.pop(f.name) for f in fields(ChunkConfig)})


allow_over_model_max = click.option(
    "--allow-over-model-max",
    is_flag=True,
    help="Accept a --max-tokens above the tokenizer model's maximum sequence length (the embedder would "
    "truncate such chunks: refused by default).",
)


# -- parsing ----------------------------------------------------------------------------

password_option = click.option(
    "--password",
    envvar="PARSEGATE_PDF_PASSWORD",
    help="Password for encrypted PDFs (also read from PARSEGATE_PDF_PASSWORD).",
)


ocr_office_images_option = click.option(
    "--ocr-office-images",
    is_flag=True,
    default=False,
    help="Read the raster images inside DOCX and PPTX files by OCR too (their text at each image's place, "
    "with its OCR confidence; also PARSEGATE_OCR_OFFICE_IMAGES=1). Needs the ocr extra.",
)


def parse_options(password: str | None, ocr_office_images: bool = False) -> ParseOptions:
    """The parse options: the PARSEGATE_* settings of the environment (read here, once, by the one
    reader the library has for them), and --password and --ocr-office-images over them."""
    from dataclasses import replace

    from parsegate.parsers.options import ParseOptions

    try:
        options = ParseOptions.from_env(os.environ)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    if ocr_office_images:
        options = replace(options, ocr_office_images=True)
    return replace(options, password=password) if password else options


def single_file_options(function: F) -> F:
    """A single file's --doc-id, --root and --format (parse, chunk, inspect)."""
    return _compose(
        click.option(
            "--doc-id",
            help="The document's id in every record (and so in every chunk id). Default: the path relative to "
            "--root, which is the file's own folder unless given (as 'run' does for a file).",
        ),
        click.option(
            "--root",
            type=PATH,
            help="Document ids are paths relative to this folder (default: the file's folder), so a file "
            "chunked alone gets the id a run of its corpus gives it.",
        ),
        click.option(
            "--format",
            "-f",
            "fmt",
            callback=_known_format,
            help="Read the input as this format, named by a suffix (md, txt, pdf, docx, py…; 'parsegate formats' "
            "lists them). Default: the file's suffix, then its content; for stdin ('-') the --doc-id's suffix, "
            "then the content.",
        ),
    )(function)


def _known_format(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from parsegate.parsers.registry import supported_suffixes

    suffix = "." + value.lower().lstrip(".")
    known = supported_suffixes()
    if suffix not in known:
        names = ", ".join(s.lstrip(".") for s in known)
        raise click.BadParameter(f"{value!r} is not a format parsegate reads; known: {names}")
    return suffix.lstrip(".")


def file_doc_id(path: Path, explicit: str | None, root: Path | None) -> str:
    """A single file's id: given, or its path relative to ``root`` (default: its folder)."""
    from parsegate.runner.discover import doc_id

    if explicit:
        return explicit
    path = path.resolve()
    base = (root or path.parent).resolve()
    if base != path.parent and base not in path.parents:
        raise CommandError(f"--root {root} does not hold {path}")
    return doc_id(path, base)


# -- the gate ---------------------------------------------------------------------------


def gate_options(function: F) -> F:
    return _compose(
        click.option(
            "--config",
            "gate_file",
            type=PATH,
            help="Gate thresholds from this TOML file (table [gate]). Default: parsegate.toml, else "
            "[tool.parsegate.gate] in pyproject.toml, in the current folder; else built-in defaults.",
        ),
        click.option(
            "--set",
            "overrides",
            multiple=True,
            metavar="KEY=VALUE",
            help="Override one threshold: key=value, or format.key=value for one format (e.g. --set "
            "max_short_chunk_rate=0.4 --set text.min_heading_inheritance=0). Repeatable.",
        ),
        click.option(
            "--allow-failures",
            is_flag=True,
            help="Exit 0 even when the gate fails (the verdict is still in report.json).",
        ),
    )(function)


def load_gate(config: Path | None, overrides: tuple[str, ...]) -> GateConfig:
    from parsegate.quality_gates.thresholds import GateConfigError, load_gate_config

    try:
        return load_gate_config(Path.cwd(), config, list(overrides))
    except GateConfigError as exc:
        raise CommandError(str(exc)) from None


# -- output -----------------------------------------------------------------------------

output_format_option = click.option(
    "--output-format",
    "-F",
    type=click.Choice(["jsonl", "parquet"]),
    help="Records as 'jsonl' (parsegate.chunk/1, one a line) or 'parquet' (pyarrow: the parquet extra; the "
    "columns of 'parsegate export --format parquet'). Default: parquet when --out ends in .parquet, else jsonl.",
)
