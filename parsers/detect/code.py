"""Source code told by its content: a shebang line or a ``<?php`` opening names the language;
otherwise (with the code extra) tree-sitter reads the text as each supported language, and a
language is chosen when nearly all of the text parses and the language's query finds definitions
or imports in it. Prose fails that: its words read as expressions in some grammars (Ruby, Kotlin),
but not without errors, and define nothing.

Ambiguous grammars (C read as C++, JavaScript as TypeScript) go to the first language of
``_ORDER`` that fits as well as the best one."""

from __future__ import annotations

import importlib.util
import re

_SAMPLE = 16384  # bytes of the text parsed per language
# Whole lines only, and every language gets the same sample; the order breaks ties.
_ORDER = ("python", "c", "cpp", "javascript", "typescript", "go", "rust", "java", "csharp", "kotlin", "ruby")
# (share of the sample's bytes inside ERROR nodes, missing tokens per KB): a strict fit is taken
# before Markdown is looked for, a loose one after (C headers full of unexpanded macros reach 4 %
# in errors; of 891 prose, Markdown and HTML files none came under 4 % with a definition in it).
STRICT = (0.01, 1.0)
LOOSE = (0.04, 3.0)
_MIN_FOUND = 1  # definitions or imports the query finds (constants are not enough: "key = value")
# Reading prose as code is what costs (tree-sitter's error recovery: 20-200 ms per grammar on 32 KB
# of prose, 4 ms for the right grammar on code), so two cheaper looks come first. Text whose lines
# mostly carry no code punctuation is not parsed at all (of the detect suite's files 335 of 338
# code files pass, 239 of 414 plain texts and 252 of 321 Markdown files); and only the three
# grammars that read 2 KB of it best (from a third of the way in) are given the whole sample.
_PUNCTUATED = re.compile(
    r"[;{}()\[\]=<>]|[:,][ \t]*$|^[ \t]*(?:#|//|/\*|\*|end$|def \w|class [A-Z]|module [A-Z]|require |import |return\b)"
)
_MIN_PUNCTUATED = 0.5  # share of the non-blank lines
_PROBE = 2048
_MARGIN = 0.005  # of the sample in errors: as good as the best reading
_PROBE_KEEPS = 3  # the grammars that read the probe best (a module docstring cut short reads badly in all)
# Where a sample may end: before a line in column 0 that follows a blank line (a top-level
# statement or definition, not the middle of a string or a block).
_TOP_LEVEL = re.compile(rb"\n\n(?=[A-Za-z_#@/])")
_PHP = re.compile(r"\A\ufeff?\s*<\?php\b")


def shebang_language(text: str) -> tuple[str, str] | None:
    """The language a first line names (``#!/usr/bin/env python3``, ``<?php``), and why."""
    if _PHP.match(text):
        return "php", "content: a <?php opening tag"
    if not text.startswith("#!"):
        return None
    from parsegate.parsers.formats import CODE_LANGUAGES

    first = text.split("\n", 1)[0].rstrip()
    names = {lang: lang for lang in set(CODE_LANGUAGES.values())} | _INTERPRETERS
    for word in reversed(re.split(r"[\s/]+", first)):
        name = names.get(re.sub(r"[\d.]+$", "", word))
        if name:
            return name, f"content: the shebang line {first[:80]!r}"
    return None


# Interpreters a shebang names, by language (a subset of parsers.code.ALIASES, without importing it).
_INTERPRETERS = {"python": "python", "node": "javascript", "nodejs": "javascript", "deno": "typescript",
                 "ts-node": "typescript", "ruby": "ruby", "php": "php", "kotlin": "kotlin"}  # fmt: skip


def code_available() -> bool:
    """Whether the code extra (tree-sitter and its language pack) is installed."""
    return all(importlib.util.find_spec(m) is not None for m in ("tree_sitter", "tree_sitter_language_pack"))


def parsed_language(text: str, fit: tuple[float, float] = STRICT) -> tuple[str, str] | None:
    """The language tree-sitter reads ``text`` as within ``fit`` (errors, missing tokens per KB)
    and with some definitions or imports, and why; None without the code extra or when no
    language fits."""
    if not code_available():
        return None
    fitting = [
        (share + missing_per_kb / 1024, _ORDER.index(language), language, found)
        for language, share, missing_per_kb, found in _fits(text)
        if share <= fit[0] and missing_per_kb <= fit[1] and found >= _MIN_FOUND
    ]
    if not fitting:
        return None
    least = min(score for score, *_ in fitting)
    # the first language of _ORDER that reads it about as well as the best one (C before C++)
    score, _, language, found = min((f for f in fitting if f[0] <= least + _MARGIN), key=lambda f: f[1])
    what = "definition or import" if found == 1 else "definitions and imports"
    return language, f"content: parses as {language} with tree-sitter ({found} {what}, {score:.1%} in errors)"


_last: tuple[str, list[tuple[str, float, float, int]]] | None = None  # the strict and the loose look share one pass


def _fits(text: str) -> list[tuple[str, float, float, int]]:
    """Per language: the share of the sample in errors, missing tokens per KB, definitions found."""
    global _last
    if _last is not None and _last[0] is text:
        return _last[1]
    from parsegate.parsers.code import syntax_fit

    data = _sample(text)
    kb = max(len(data) / 1024, 1.0)
    fits: list[tuple[str, float, float, int]] = []
    if data.strip() and _punctuated(data):
        probe = _probe(data)
        if probe is None:
            chosen = list(_ORDER)
        else:
            probed = sorted((syntax_fit(probe, language)[0], n) for n, language in enumerate(_ORDER))
            chosen = [_ORDER[n] for _, n in probed[:_PROBE_KEEPS]]
        for language in chosen:
            share, missing, found = syntax_fit(data, language)
            fits.append((language, share, missing / kb, found))
            if share == 0 and missing == 0 and found:
                break  # no grammar reads it better; the next ones would only cost their error recovery
    _last = (text, fits)
    return fits


def _punctuated(data: bytes) -> bool:
    lines = [line for line in data.decode("utf-8", errors="replace").splitlines() if line.strip()]
    return sum(bool(_PUNCTUATED.search(line)) for line in lines) >= _MIN_PUNCTUATED * len(lines)


def _probe(data: bytes) -> bytes | None:
    """About 2 KB from a top-level line a third of the way in (past a module docstring or a
    licence comment, which read alike in every grammar), or None when the sample is small."""
    if len(data) < 2 * _PROBE:
        return None
    start = _TOP_LEVEL.search(data, len(data) // 3, len(data) - _PROBE)
    return _cut(data[start.start() + 2 :], _PROBE) if start else None


def _cut(data: bytes, size: int) -> bytes:
    """About ``size`` bytes of ``data``, ending before a top-level line: the last such line after
    half of ``size``, else the first one before four times ``size``, else at a line end (a cut in
    the middle of a docstring or a block would read as a syntax error)."""
    if len(data) <= size:
        return data
    before = [m.start() for m in _TOP_LEVEL.finditer(data, size // 2, size)]
    after = None if before else _TOP_LEVEL.search(data, size, 4 * size)
    cut = before[-1] + 1 if before else after.start() + 1 if after else data.rfind(b"\n", 0, size)
    return data[: cut + 1] if cut > 0 else data[:size]


def _sample(text: str) -> bytes:
    return _cut(text.encode("utf-8"), _SAMPLE)
