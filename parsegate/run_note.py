"""The note a run with a store leaves in OUTDIR for its next unchanged re-run
(parsegate/chunkstore/quick.py): what its settings were made of and the corpus, hashed before
the corpus is listed, and after run.json is written its documents, fingerprint and summary."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import typer

from parsegate.chunkstore.quick import Unsupported, corpus_state, invocation, remember
from parsegate.chunkstore.run import RunStore
from parsegate.log import log
from parsegate.run_finish import render_current
from parsegate.runner import choose_workers


def note_possible(engine: str, strategy: str, tokenizer: str) -> bool:
    """Whether quick.py can vouch for everything this run's settings read: not with a tokenizer
    file or a semantic model (files it does not hash), a password (which the note's hash of the
    environment would carry) or -v (whose log lines the note does not keep); not for Ray."""
    return (
        engine == "local"
        and strategy != "semantic"
        and not Path(tokenizer).exists()
        and not os.environ.get("PARSEGATE_PDF_PASSWORD")
        and not log.isEnabledFor(logging.DEBUG)
    )


def settings_note(
    corpus: Path, skip: tuple[Path, ...], include_hidden: bool, config: Path | None, patterns: tuple[str, ...]
) -> dict[str, Any] | None:
    """What chunkstore/quick.py's note says of the settings and the corpus (None: it cannot say)."""
    cwd = Path.cwd()
    inputs = [str(config.resolve())] if config else [str(cwd / "parsegate.toml"), str(cwd / "pyproject.toml")]
    folders = [str(p) for p in skip]
    try:
        state, files = corpus_state(str(corpus.resolve()), folders, include_hidden)
    except (OSError, Unsupported):
        return None
    return {
        "invocation": invocation(sys.argv[1:], str(cwd), inputs),
        "inputs": inputs,
        "corpus": str(corpus.resolve()),
        "skip": folders,
        "include_hidden": include_hidden,
        "corpus_state": state,
        "patterns": list(patterns),
        "files": files,
    }


@contextmanager
def remembered(
    out: Path, note: dict[str, Any] | None, run_store: RunStore | None, run_fingerprint: str | None, allow: bool
) -> Iterator[None]:
    """After the run's outputs and run.json are written (the gate passed or failed), the note for
    the next unchanged run (chunkstore/quick.py); an error leaves none."""
    if note is None or run_store is None or not run_fingerprint:
        yield
        return
    try:
        yield
    except typer.Exit as exc:
        if exc.exit_code == 1:  # run.json is written and the gate failed: a complete run all the same
            _write_note(out, note, run_store, run_fingerprint, allow)
        raise
    _write_note(out, note, run_store, run_fingerprint, allow)


def _write_note(out: Path, note: dict[str, Any], run_store: RunStore, run_fingerprint: str, allow: bool) -> None:
    documents = [(str(p.source.path), p.doc.doc_id, p.doc.version) for p in run_store.planned if p.doc is not None]
    if len(documents) != len(run_store.planned):
        return
    shown, status = render_current(out, 0.0, allow)  # its title says "in 0.0s" (SECONDS_MARK)
    files = note.pop("files")
    note.update(
        out=str(out.resolve()),
        fingerprint=run_fingerprint,
        store=str(run_store.path.resolve()),
        chunk_set=run_store.chunk_set,
        root=run_store.corpus,
        workers=choose_workers(0, []),
        shown=shown,
        exit=status,
    )
    with suppress(OSError):  # no note: the next run takes the full path
        remember(out, note, files, documents)
