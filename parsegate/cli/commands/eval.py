"""``parsegate eval``: evidence evaluation of chunking configurations on one corpus."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from parsegate.cli.params import PATH
from parsegate.errors import CommandError

if TYPE_CHECKING:
    from parsegate.evaluation.corpus import Corpus
    from parsegate.evaluation.retrieval import Retriever


def _corpus(path: Path, questions: Path | None, cases: tuple[str, ...]) -> Corpus:
    from parsegate.evaluation.corpus import from_documents, from_golden
    from parsegate.golden.evidence import EvidenceError

    try:
        if questions is not None:
            if not path.is_dir():
                raise CommandError(f"{path}: not a folder of documents")
            return from_documents(path, questions)
        if not path.is_dir():
            raise CommandError(
                f"{path}: no such folder (give a golden tree, or a folder of documents with --questions)"
            )
        return from_golden(path, list(cases) or None)
    except EvidenceError as exc:
        raise CommandError(str(exc)) from None


def _specs(config: tuple[str, ...], compare: bool) -> list[str]:
    from parsegate.evaluation import configs

    if compare:
        installed = configs.available()
        return [*(c for c in configs.DEFAULT_COMPARE if c in installed), *config]
    return list(config) or ["structural"]


def _retrievers(names: tuple[str, ...]) -> list[Retriever]:
    from parsegate.evaluation.retrieval import RetrieverUnavailable, dense_available, make_retriever

    chosen = list(names) or (["bm25", "dense"] if dense_available() else ["bm25"])
    try:
        return [make_retriever(n) for n in dict.fromkeys(chosen)]
    except RetrieverUnavailable as exc:
        raise CommandError(str(exc)) from None


@click.command("eval")
@click.argument("path", type=PATH, default=Path("golden_docs"))
@click.option(
    "--questions",
    type=PATH,
    help="Questions with evidence: a CSV (question, document, start, end[, id, context]: character offsets into "
    "the parsed text; for text formats the file itself) or a JSON list like evidence.json whose items name "
    "their 'document'.",
)
@click.option("--case", "-c", multiple=True, help="Only these golden cases.")
@click.option(
    "--config",
    multiple=True,
    help="A configuration: structural, parent-child, semantic-lexical, semantic-embedding, recursive, fixed, "
    "langchain, chonkie, semchunk, with options as 'structural:overlap=1,min_tokens=16' or "
    "'parent-child:parent_tokens=512' (repeatable; default structural).",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Ours (structural, parent-child, semantic-lexical, semantic-embedding when the embed extra is in, "
    "recursive, fixed) and every installed peer.",
)
@click.option(
    "--spans",
    is_flag=True,
    help="Also classify each question's minimum sufficient evidence (one sentence, sentences of one paragraph, "
    "a table row with its header, one section, several sections, code with its context), report per "
    "configuration whether it fits in one chunk, in a child plus its parent, or needs more, and recommend "
    "the smallest unit and expansion that cover --target.",
)
@click.option("--target", type=float, default=None, help="Share of questions the recommendation must cover (--spans).")
@click.option("--max-tokens", "-m", type=int, multiple=True, help="Token budget (repeatable; default 256).")
@click.option(
    "--retriever",
    "-r",
    multiple=True,
    help="bm25 and/or dense (default: bm25, and dense when the embed extra is in).",
)
@click.option(
    "--top-k", "-k", type=click.IntRange(min=1), default=3, show_default=True, help="Chunks retrieved per question."
)
@click.option(
    "--scope",
    type=click.Choice(["corpus", "document"]),
    default="corpus",
    show_default=True,
    help="Retrieve from the whole corpus, or only the question's document.",
)
@click.option("--expand", help="Assembly after retrieval: none, neighbours, section, parent (default: none).")
@click.option("--context-budget", type=int, help="Assembly's context budget in tokens (default: no cap).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON on stdout.")
@click.option("--json-out", type=PATH, help="Also write the JSON here.")
@click.option("--html", type=PATH, help="Write a page with the table and every question.")
@click.option("--quiet", is_flag=True, help="Do not list the spans that are not whole.")
def eval_command(
    path: Path,
    questions: Path | None,
    case: tuple[str, ...],
    config: tuple[str, ...],
    compare: bool,
    spans: bool,
    target: float | None,
    max_tokens: tuple[int, ...],
    retriever: tuple[str, ...],
    top_k: int,
    scope: str,
    expand: str | None,
    context_budget: int | None,
    as_json: bool,
    json_out: Path | None,
    html: Path | None,
    quiet: bool,
) -> None:
    """Score chunking configurations by the evidence they keep whole and find.

    Per configuration: the share of evidence spans lying whole in one chunk (with the context they
    name), the share of questions whose every span does, and for top-k retrieval token recall,
    precision and IoU, the complete-evidence hit rate next to the keyword hit rate, and the
    complete-evidence hit rate after assembly; chunk count, mean and max tokens, index overhead."""
    from parsegate.chunkers import ConfigError
    from parsegate.chunkers.tokens.counter import TokenizerUnavailable
    from parsegate.cli import console
    from parsegate.cli.eval_tables import print_results, print_sizing
    from parsegate.evaluation import configs
    from parsegate.evaluation.assemble import EXPANSIONS
    from parsegate.evaluation.html import write_html
    from parsegate.evaluation.report import to_json
    from parsegate.evaluation.runner import Result, Settings, evaluate
    from parsegate.evaluation.sizing import DEFAULT_TARGET, size

    if expand is not None and expand not in EXPANSIONS:
        raise CommandError(f"--expand is one of {', '.join(EXPANSIONS)}")
    share = DEFAULT_TARGET if target is None else target
    if not 0 < share <= 1:
        raise CommandError("--target is a share in (0, 1]")
    corpus = _corpus(path, questions, case)
    retrievers = _retrievers(retriever)
    settings = Settings(top_k, scope, expand, context_budget)
    results: list[Result] = []
    try:
        for budget in max_tokens or (256,):
            for spec in _specs(config, compare):
                configuration = configs.build(spec, budget)
                console.say(f"evaluating {configuration.name} …")
                results.append(evaluate(corpus, configuration, retrievers, settings))
    except (configs.ConfigurationError, ConfigError, TokenizerUnavailable) as exc:
        raise CommandError(str(exc)) from None
    payload = to_json(results, settings, str(path))
    sizing = size(corpus, results, share) if spans else None
    if sizing is not None:
        payload["sizing"] = sizing.to_json()
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if as_json:
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    shown = console.stderr() if as_json else console.stdout()
    print_results(results, settings, shown, show_split=not quiet)
    if sizing is not None:
        print_sizing(sizing, shown)
    if html is not None:
        write_html(html, results, settings, corpus, str(path))
        console.say(f"wrote {html}")
