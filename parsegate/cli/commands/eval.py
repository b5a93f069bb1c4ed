"""``parsegate eval``: evidence evaluation of chunking configurations on one corpus."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from parsegate.chunkers import ConfigError
from parsegate.chunkers.budget import TokenizerUnavailable
from parsegate.cli.eval_tables import print_results, print_sizing, to_json
from parsegate.evaluation import configs
from parsegate.evaluation.assemble import EXPANSIONS
from parsegate.evaluation.corpus import Corpus, from_documents, from_golden
from parsegate.evaluation.html import write_html
from parsegate.evaluation.retrieval import Retriever, RetrieverUnavailable, dense_available, make_retriever
from parsegate.evaluation.runner import Result, Settings, evaluate
from parsegate.evaluation.sizing import DEFAULT_TARGET, size
from parsegate.golden.evidence import EvidenceError

err = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    # escaped: a message may hold brackets ("pip install 'parsegate[embed]'") that are not markup
    err.print(f"[bold red]parsegate: error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _corpus(path: Path, questions: Path | None, cases: list[str] | None) -> Corpus:
    try:
        if questions is not None:
            if not path.is_dir():
                fail(f"{path}: not a folder of documents")
            return from_documents(path, questions)
        if not path.is_dir():
            fail(f"{path}: no such folder (give a golden tree, or a folder of documents with --questions)")
        return from_golden(path, cases)
    except EvidenceError as exc:
        fail(str(exc))


def _specs(config: list[str] | None, compare: bool) -> list[str]:
    if compare:
        installed = configs.available()
        return [*(c for c in configs.DEFAULT_COMPARE if c in installed), *(config or [])]
    return config or ["structural"]


def _retrievers(names: list[str] | None) -> list[Retriever]:
    chosen = names or (["bm25", "dense"] if dense_available() else ["bm25"])
    try:
        return [make_retriever(n) for n in dict.fromkeys(chosen)]
    except RetrieverUnavailable as exc:
        fail(str(exc))


def eval_command(
    path: Annotated[
        Path,
        typer.Argument(help="A golden tree (cases with evidence.json), or with --questions a folder of documents."),
    ] = Path("golden_docs"),
    questions: Annotated[
        Path | None,
        typer.Option(
            "--questions",
            help="Questions with evidence: a CSV (question, document, start, end[, id, context]: character offsets "
            "into the parsed text; for text formats the file itself) or a JSON list like evidence.json whose items "
            "name their 'document'.",
        ),
    ] = None,
    case: Annotated[list[str] | None, typer.Option("--case", "-c", help="Only these golden cases.")] = None,
    config: Annotated[
        list[str] | None,
        typer.Option(
            "--config",
            help="A configuration: structural, parent-child, semantic-lexical, semantic-embedding, recursive, fixed, "
            "langchain, chonkie, semchunk, with options as 'structural:overlap=1,min_tokens=16' or "
            "'parent-child:parent_tokens=512' (repeatable; default structural).",
        ),
    ] = None,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="Ours (structural, parent-child, semantic-lexical, semantic-embedding when the embed extra is in, "
            "recursive, fixed) and every installed peer.",
        ),
    ] = False,
    spans: Annotated[
        bool,
        typer.Option(
            "--spans",
            help="Also classify each question's minimum sufficient evidence (one sentence, sentences of one "
            "paragraph, a table row with its header, one section, several sections, code with its context), report "
            "per configuration whether it fits in one chunk, in a child plus its parent, or needs more, and "
            "recommend the smallest unit and expansion that cover --target.",
        ),
    ] = False,
    target: Annotated[
        float, typer.Option("--target", help="Share of questions the recommendation must cover (--spans).")
    ] = DEFAULT_TARGET,
    max_tokens: Annotated[
        list[int] | None, typer.Option("--max-tokens", "-m", help="Token budget (repeatable; default 256).")
    ] = None,
    retriever: Annotated[
        list[str] | None,
        typer.Option(
            "--retriever", "-r", help="bm25 and/or dense (default: bm25, and dense when the embed extra is in)."
        ),
    ] = None,
    top_k: Annotated[int, typer.Option("--top-k", "-k", help="Chunks retrieved per question.")] = 3,
    scope: Annotated[
        str, typer.Option("--scope", help="Retrieve from the whole corpus, or only the question's document.")
    ] = "corpus",
    expand: Annotated[
        str | None,
        typer.Option("--expand", help=f"Assembly after retrieval: {', '.join(EXPANSIONS)} (default: none)."),
    ] = None,
    context_budget: Annotated[
        int | None, typer.Option("--context-budget", help="Assembly's context budget in tokens (default: no cap).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON on stdout.")] = False,
    json_out: Annotated[Path | None, typer.Option("--json-out", help="Also write the JSON here.")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Write a page with the table and every question.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="Do not list the spans that are not whole.")] = False,
) -> None:
    """Score chunking configurations by the evidence they keep whole and what retrieval brings back.

    Per configuration: the share of evidence spans lying whole in one chunk (with the context they
    name), the share of questions whose every span does, and for top-k retrieval token recall,
    precision and IoU, the complete-evidence hit rate next to the keyword hit rate, and the
    complete-evidence hit rate after assembly; chunk count, mean and max tokens, index overhead.
    """
    if scope not in ("corpus", "document"):
        fail("--scope is 'corpus' or 'document'")
    if expand is not None and expand not in EXPANSIONS:
        fail(f"--expand is one of {', '.join(EXPANSIONS)}")
    if top_k < 1:
        fail("--top-k must be at least 1")
    if not 0 < target <= 1:
        fail("--target is a share in (0, 1]")
    corpus = _corpus(path, questions, case)
    retrievers = _retrievers(retriever)
    settings = Settings(top_k, scope, expand, context_budget)
    results: list[Result] = []
    try:
        for budget in max_tokens or [256]:
            for spec in _specs(config, compare):
                configuration = configs.build(spec, budget)
                err.print(f"evaluating {configuration.name} …", highlight=False)
                results.append(evaluate(corpus, configuration, retrievers, settings))
    except (configs.ConfigurationError, ConfigError, TokenizerUnavailable) as exc:
        fail(str(exc))
    payload = to_json(results, settings, str(path))
    sizing = size(corpus, results, target) if spans else None
    if sizing is not None:
        payload["sizing"] = sizing.to_json()
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if as_json:
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    # A table this wide is cut to nothing at a pipe's default 80 columns.
    console = Console(stderr=as_json, width=None if sys.stdout.isatty() else 200)
    print_results(results, settings, console, show_split=not quiet)
    if sizing is not None:
        print_sizing(sizing, console)
    if html is not None:
        write_html(html, results, settings, corpus, str(path))
        err.print(f"wrote {html}", highlight=False)
