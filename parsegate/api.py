"""parsegate's Python API: ``parse``, ``chunk``, ``gate`` and ``run``, re-exported by ``parsegate``.

Libraries are imported on first use, so ``import parsegate`` stays cheap. Document warnings
are logged to ``logging.getLogger("parsegate")``; nothing here prints.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsegate.log import log_warnings
from parsegate.parsers.options import ParseOptions

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.parsers.model import Document
    from parsegate.quality_gates.thresholds import Thresholds
    from parsegate.quality_gates.verdict import Verdict
    from parsegate.runner.run import RunResult


def parse(
    source: str | os.PathLike[str] | bytes | None = None,
    *,
    text: str | None = None,
    format: str | None = None,
    doc_id: str | None = None,
    options: ParseOptions | None = None,
) -> Document:
    """Parse one document into elements with exact offsets into ``Document.text``.

    ``source`` is a path (``str`` or ``Path``) or the document's bytes; ``text`` a document you
    hold as a string. A ``str`` source is a path, never text: one that names no file raises
    ``ParseError`` (``not_found``) saying to pass ``text=``. ``format`` names the format by a
    suffix (``"md"``, ``"pdf"``, ``".docx"``…); by default a path's suffix, then the content,
    decides; for bytes and text, ``doc_id``'s suffix, then the content (a PDF, an Office file, a
    web page, Markdown, source code: ``doc.metadata["format_detected"]`` then says what it was
    read as and why; docs/formats.md#format-from-content). ``doc_id`` defaults to the
    file's name (for bytes and text ``"document"``, with the format's suffix when one is given).
    Raises ``parsegate.parsers.model.ParseError`` (``.code``, ``.message``) for a file that cannot
    be read or parsed. ``options`` (``parsegate.ParseOptions``: PDF password, page, time, size and
    pixel limits) apply to this parse; by default, the defaults (the environment is not read:
    ``ParseOptions.from_env(os.environ)`` gives the command line's settings).
    """
    from parsegate.parsers.model import ParseError
    from parsegate.parsers.registry import parse_data, read_regular_file

    if (source is None) == (text is None):
        raise TypeError("parse() takes a source (a path or bytes) or text=..., one of them")
    if text is not None:
        source = text.encode("utf-8")
    elif isinstance(source, str) and not Path(source).exists():
        advice = " (to parse a string, pass text=...)" if "\n" in source or " " in source else ""
        raise ParseError("not_found", f"{source[:80]!r}: no such file{advice}")
    assert source is not None
    if isinstance(source, bytes):
        # the parser may go by the name's suffix (Office and web pages do): give it the format's
        default = f"document.{format.lower().lstrip('.')}" if format else "document"
        data, name = source, doc_id or default
    else:
        path = Path(source)
        data, name = read_regular_file(path), path.name
    hint = Path(name)
    if format:
        hint = Path(f"{hint.stem or 'document'}.{format.lower().lstrip('.')}")
    doc = parse_data(data, hint, doc_id or name, options or ParseOptions())
    log_warnings(doc)
    return doc


def chunk(
    doc: Document | str | os.PathLike[str] | bytes | None = None,
    *,
    text: str | None = None,
    format: str | None = None,
    max_tokens: int | None = None,
    tokenizer: str = "all-MiniLM-L6-v2",
    strategy: str = "structural",
    allow_over_model_max: bool = False,
    **options: Any,
) -> list[Chunk]:
    """Chunk a parsed ``Document`` (or a path, bytes or ``text=``, parsed first with ``format``) into
    ``parsegate.chunk/1`` records (``Chunk``; ``chunk.to_dict()`` is the JSON record):
    ``parsegate.chunk(text="# Title\n\nBody.", format="md")``.

    ``max_tokens`` defaults to the tokenizer model's maximum (256 for all-MiniLM-L6-v2, shipped
    with parsegate); a budget above it raises ``ValueError`` unless ``allow_over_model_max``.
    ``tokenizer``: ``"all-MiniLM-L6-v2"``, a path to any ``tokenizer.json``, ``"chars"``,
    ``"words"``, or ``"openai:cl100k_base"`` / ``"openai:o200k_base"`` (the openai extra).
    ``strategy``: ``structural`` (default), ``parent-child``, ``semantic-lexical``,
    ``semantic-embedding``, ``recursive`` or ``fixed``. ``options`` are the other fields of
    ``chunkers.ChunkConfig`` (``min_tokens``, ``overlap``, ``context_share``, ``parent_tokens``…).
    Each ``Chunk`` satisfies ``chunk.text == doc.text[chunk.start:chunk.end]``.
    """
    from parsegate.chunkers import ChunkConfig, Chunker, ConfigError

    if text is not None or not hasattr(doc, "elements"):
        doc = parse(doc, text=text, format=format)  # type: ignore[arg-type]
    chunker = Chunker(ChunkConfig(strategy=strategy, tokenizer=tokenizer, max_tokens=max_tokens, **options))
    model_max = chunker.over_model_max()
    if model_max is not None and not allow_over_model_max:
        raise ConfigError(
            f"max_tokens {chunker.max_tokens} is above {chunker.counter.name}'s maximum sequence length "
            f"({model_max}); pass allow_over_model_max=True if your embedder takes longer input"
        )
    return chunker.chunk(doc)  # type: ignore[arg-type]


def gate(
    doc: Document,
    chunks: Sequence[Chunk],
    *,
    source: str | os.PathLike[str] | bytes | None = None,
    max_tokens: int | None = None,
    tokenizer: str = "all-MiniLM-L6-v2",
    thresholds: Thresholds | Mapping[str, Any] | None = None,
    options: ParseOptions | None = None,
) -> Verdict:
    """The quality gate's verdict on one document's chunks, as ``run`` gives it per document.

    ``source`` is the file (a path or its bytes) the checks compare the chunks with, read
    independently of the parser (the text itself, PDFium's text layer, docling's export); without
    it those checks are reported in ``verdict.not_measured``, never passed. Every ``embed_text`` is
    counted again with ``tokenizer`` against ``max_tokens`` (default: the model's maximum).
    ``thresholds``: ``parsegate.quality_gates.thresholds.Thresholds`` or a mapping of its fields
    (``{"max_short_chunk_rate": 0.4}``). ``verdict.passed``, ``verdict.checks`` (value, threshold,
    faults with chunk ids and offsets), ``verdict.to_dict()``. ``options``: the parse options
    the document was parsed with (an encrypted PDF's source opens with their password).
    """
    from parsegate.chunkers.tokens.counter import load_counter
    from parsegate.quality_gates.measure import measure
    from parsegate.quality_gates.thresholds import Thresholds
    from parsegate.quality_gates.verdict import evaluate

    counter = load_counter(tokenizer)
    budget = max_tokens or counter.model_max
    if budget is None:
        raise ValueError(f"give max_tokens: {counter.name} has no model maximum")
    if source is None or isinstance(source, bytes):
        data = source
    else:
        from parsegate.parsers.registry import read_regular_file

        data = read_regular_file(Path(source))
    facts = measure(doc, chunks, counter, budget, data, password=(options or ParseOptions()).password)
    if thresholds is None or isinstance(thresholds, Thresholds):
        chosen = thresholds or Thresholds()
    else:
        chosen = Thresholds(**dict(thresholds))
    return evaluate(facts, chosen)


def run(
    corpus: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    max_tokens: int | None = None,
    tokenizer: str = "all-MiniLM-L6-v2",
    strategy: str = "structural",
    workers: int = 0,
    glob: Sequence[str] = (),
    exclude: Sequence[str] = (),
    thresholds: Mapping[str, object] | None = None,
    config: str | os.PathLike[str] | None = None,
    options: ParseOptions | None = None,
    store: str | os.PathLike[str] | None = None,
    use_store: bool = True,
    chunking: Mapping[str, Any] | None = None,
    **settings: Any,
) -> RunResult:
    """Parse, chunk and gate every file under ``corpus`` into ``out``, exactly as ``parsegate run``
    does (workers, limits, crash-safe output, reports, the chunk store), without printing anything.

    ``thresholds`` override gate thresholds (``{"max_short_chunk_rate": 0.4,
    "text.min_heading_inheritance": 0}``) over those of ``config`` (a TOML file with a [gate] table;
    default: parsegate.toml or pyproject.toml in the current folder). ``options``: the parse options
    (PDF password, limits). ``chunking``: other ``ChunkConfig`` fields (``{"overlap": 1}``).
    ``settings``: any other ``parsegate.runner.settings.RunSettings`` field (``limits``, ``engine``,
    ``allow_empty``, ``include_hidden``…). A usage, input or output error raises
    ``parsegate.CommandError`` (``.code`` 2); a failed gate does not raise: see ``verdict``.
    """
    from parsegate.chunkers import ChunkConfig
    from parsegate.errors import CommandError
    from parsegate.quality_gates.thresholds import GateConfigError, load_gate_config
    from parsegate.runner.run import run_corpus
    from parsegate.runner.settings import RunSettings

    overrides = [f"{k}={v}" for k, v in (thresholds or {}).items()]
    try:
        gate_config = load_gate_config(Path.cwd(), Path(config) if config else None, overrides)
    except GateConfigError as exc:
        raise CommandError(str(exc)) from None
    chunk_config = ChunkConfig(strategy=strategy, tokenizer=tokenizer, max_tokens=max_tokens, **(chunking or {}))
    run_settings = RunSettings(
        corpus=Path(corpus),
        out=Path(out),
        chunking=chunk_config,
        gate=gate_config,
        parsing=options or ParseOptions(),
        glob=tuple(glob) or ("*",),
        exclude=tuple(exclude),
        workers=workers,
        store=Path(store) if store else None,
        use_store=use_store,
        **settings,
    )
    return run_corpus(run_settings)
