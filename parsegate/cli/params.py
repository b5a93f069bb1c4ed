"""Options and helpers the ``parsegate`` commands share: chunking options, gate options, the
document id of a single file, and how an error reaches the user (a message, never a traceback)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer

from parsegate.api import CommandError

if TYPE_CHECKING:
    from rich.console import Console

    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.quality_gates.gate import GateConfig

# chunkers.budget.DEFAULT_TOKENIZER, named here so that defining the options imports no chunker
# (start-up; tests/test_startup.py checks the two agree).
DEFAULT_TOKENIZER = "all-MiniLM-L6-v2"


class _LazyConsole:
    """rich's stderr console, built (and rich imported) the first time something is printed."""

    def __init__(self) -> None:
        object.__setattr__(self, "_console", None)
        object.__setattr__(self, "_settings", {})

    def _real(self) -> Console:
        console: Console | None = object.__getattribute__(self, "_console")
        if console is None:
            from rich.console import Console

            console = Console(stderr=True)
            for key, value in object.__getattribute__(self, "_settings").items():
                setattr(console, key, value)
            object.__setattr__(self, "_console", console)
        return console

    def __getattr__(self, name: str) -> Any:
        settings = object.__getattribute__(self, "_settings")
        if name in settings and object.__getattribute__(self, "_console") is None:
            return settings[name]
        if name == "quiet" and object.__getattribute__(self, "_console") is None:
            return False  # rich's default, without building the console to read it
        return getattr(self._real(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        console = object.__getattribute__(self, "_console")
        if console is None:
            object.__getattribute__(self, "_settings")[name] = value
        else:
            setattr(console, name, value)

    # Dunder methods bypass __getattr__: the ones rich calls on a console (a progress bar's `with`).
    def __enter__(self) -> Console:
        return self._real().__enter__()

    def __exit__(self, *exc: Any) -> None:
        self._real().__exit__(*exc)


err = cast("Console", _LazyConsole())

# Exit status of every command (README "Exit status").
EXIT_OK, EXIT_GATE_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
# Set while the Python API (parsegate.run) drives a command: an error raises, nothing prints.
RAISE_ERRORS: ContextVar[bool] = ContextVar("parsegate_raise_errors", default=False)


# -- shared options ------------------------------------------------------------------

MaxTokens = Annotated[
    int | None,
    typer.Option(
        "--max-tokens",
        "-m",
        help="Token budget per chunk, measured on embed_text with special tokens. "
        "Default: the tokenizer model's maximum sequence length (256 for all-MiniLM-L6-v2).",
    ),
]
TokenizerOpt = Annotated[
    str,
    typer.Option(
        "--tokenizer",
        "-t",
        help=f"'{DEFAULT_TOKENIZER}' (offline, default), a path to any tokenizer.json, OpenAI's "
        "'openai:cl100k_base' or 'openai:o200k_base' (offline: the openai extra), "
        "or the plain units 'chars' and 'words'.",
    ),
]
MinTokens = Annotated[
    int,
    typer.Option(
        "--min-tokens",
        help="Merge chunks smaller than this into a neighbour of the same parent "
        "section when the result fits (structural). 0: off.",
    ),
]
Overlap = Annotated[
    int,
    typer.Option(
        "--overlap",
        help="Sentences of the previous chunk repeated at the start of the next, within "
        "a section and the budget (structural). Costs index size: see 'overhead' in the summary.",
    ),
]
ContextShare = Annotated[
    float,
    typer.Option(
        "--context-share",
        help="At most this share of --max-tokens goes to a chunk's context prefix (title, section "
        "path, table header, list lead-in, speaker, class header, imports), filled by priority and "
        "cut at a word with '…' (structural).",
    ),
]
Password = Annotated[
    str | None,
    typer.Option(
        "--password",
        help="Password for encrypted PDFs (also read from PARSEGATE_PDF_PASSWORD).",
        envvar="PARSEGATE_PDF_PASSWORD",
    ),
]
AllowOverModelMax = Annotated[
    bool,
    typer.Option(
        "--allow-over-model-max",
        help="Accept a --max-tokens above the tokenizer model's maximum sequence length (the embedder "
        "would truncate such chunks: refused by default).",
    ),
]
Format = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        help="Read the input as this format, named by a suffix (md, txt, pdf, docx, py…). Default: the "
        "file's suffix, then its content; for stdin ('-') the --doc-id's suffix, then the content.",
    ),
]
FixedSize = Annotated[int, typer.Option("--fixed-size", help="Window size in characters (fixed strategy).")]
FixedOverlap = Annotated[int, typer.Option("--fixed-overlap", help="Window overlap in characters (fixed strategy).")]

ConfigFile = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Gate thresholds from this TOML file (table [gate]). Default: parsegate.toml, "
        "else [tool.parsegate.gate] in pyproject.toml, in the current folder; else built-in defaults.",
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Override one threshold: key=value, or format.key=value for one format "
        "(e.g. --set max_short_chunk_rate=0.4 --set text.min_heading_inheritance=0). Repeatable.",
    ),
]
AllowFailures = Annotated[
    bool,
    typer.Option("--allow-failures", help="Exit 0 even when the gate fails (the verdict is still in report.json)."),
]


DocId = Annotated[
    str | None,
    typer.Option(
        "--doc-id",
        help="The document's id in every record (and so in every chunk id). Default: the path relative "
        "to --root, which is the file's own folder unless given (as 'run' does for a file).",
    ),
]
Root = Annotated[
    Path | None,
    typer.Option(
        "--root",
        help="Document ids are paths relative to this folder (default: the corpus folder, or a single "
        "file's folder), so a sub-folder run alone gives the same ids as the whole corpus.",
    ),
]


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    if RAISE_ERRORS.get():
        raise CommandError(message, code)
    from rich.markup import escape

    quiet, err.quiet = err.quiet, False  # -q silences everything but errors
    try:
        err.print(f"[bold red]parsegate: error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    finally:
        err.quiet = quiet
    raise typer.Exit(code)


def chunk_config(options: Mapping[str, Any]) -> ChunkConfig:
    """The ChunkConfig a command's options give: chunk, inspect and run name their chunking
    options as ChunkConfig's fields (--max-tokens → max_tokens), so a command passes its
    parameters (``locals()`` before anything else is assigned) and each field is taken by name."""
    from parsegate.chunkers import ChunkConfig

    names = {f.name for f in fields(ChunkConfig)}
    return ChunkConfig(**{name: value for name, value in options.items() if name in names})


def make_chunker(config: ChunkConfig, allow_over_model_max: bool = False) -> Chunker:
    from parsegate.chunkers import Chunker, ConfigError
    from parsegate.chunkers.budget import TokenizerUnavailable

    try:
        chunker = Chunker(config)
    except (ConfigError, TokenizerUnavailable) as exc:
        fail(str(exc))
    model_max = chunker.counter.model_max
    if model_max is not None and chunker.max_tokens > model_max and not allow_over_model_max:
        fail(
            f"--max-tokens {chunker.max_tokens} is above {chunker.counter.name}'s maximum sequence length "
            f"({model_max}): the embedding model would truncate such chunks. Use --allow-over-model-max "
            "if your embedder takes longer input."
        )
    return chunker


def use_password(password: str | None) -> None:
    # Parsers (and worker processes, which inherit the environment) read it from there.
    if password:
        os.environ["PARSEGATE_PDF_PASSWORD"] = password


def load_gate(config: Path | None, overrides: list[str] | None) -> GateConfig:
    from parsegate.quality_gates.gate import GateConfigError, load_gate_config

    try:
        return load_gate_config(Path.cwd(), config, overrides)
    except GateConfigError as exc:
        fail(str(exc))


def file_doc_id(path: Path, explicit: str | None, root: Path | None) -> str:
    """A single file's id: given, or its path relative to ``root`` (default: its folder)."""
    from parsegate.runner.discover import doc_id

    if explicit:
        return explicit
    path = path.resolve()
    base = (root or path.parent).resolve()
    if base != path.parent and base not in path.parents:
        fail(f"--root {root} does not hold {path}")
    return doc_id(path, base)
