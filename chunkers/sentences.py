"""Sentence boundaries as integer offsets.

A boundary is terminal punctuation (with any closing quotes or brackets) followed
by whitespace and then something that can open a sentence. Abbreviations, initials,
decimals and URLs do not end a sentence: the first two are listed or recognised,
the last two never have whitespace right after their inner dots.
"""

from __future__ import annotations

import re

from parsers.model import trim_span

_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "mt",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "cf",
        "al",
        "approx",
        "dept",
        "est",
        "fig",
        "figs",
        "no",
        "nos",
        "vol",
        "p",
        "pp",
        "ed",
        "eds",
        "rev",
        "gen",
        "col",
        "lt",
        "sgt",
        "capt",
        "cmdr",
        "gov",
        "sen",
        "rep",
        "inc",
        "ltd",
        "co",
        "corp",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "u.s",
        "u.k",
        "a.m",
        "p.m",
        "ph.d",
        "art",
        "sec",
        "ch",
        "para",
        "min",
        "max",
        "ref",
        "resp",
        "approx",
        "incl",
        "excl",
        "viz",
    ]
)
# Abbreviations that often end a sentence too: a boundary only when a capital follows.
_AMBIGUOUS = frozenset({"etc", "inc", "ltd", "co", "corp", "a.m", "p.m"})
_BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9À-Ý])|[.!?…]+[\"'”’)\]]*(?=\s*$)")

# Sentences that open with these lean on the one before (an exception, a consequence,
# a pronoun): the chunker keeps them together when a paragraph must be split.
_CONTINUES = re.compile(
    r"(?:however|but|except|unless|otherwise|this|that|these|those|such|it|its|they|them|their|"
    r"he|she|his|her|therefore|thus|hence|also|in that case|in this case|if so|then|instead|"
    r"nevertheless|notwithstanding|exceptions?|note)\b",
    re.IGNORECASE,
)


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Spans of the sentences in ``text[start:end]``, whitespace trimmed, covering every
    non-whitespace character of the range."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    cursor = start
    for match in _BOUNDARY.finditer(text, start, end):
        if _is_abbreviation(text, cursor, match.start(), match.end(), end):
            continue
        _append(text, spans, cursor, match.end())
        cursor = match.end()
    _append(text, spans, cursor, end)
    return spans


def continues_previous(text: str, start: int) -> bool:
    return _CONTINUES.match(text, start) is not None


def _is_abbreviation(text: str, floor: int, dot: int, after: int, end: int) -> bool:
    if text[dot] != ".":
        return False
    begin = dot
    while begin > floor and (text[begin - 1].isalnum() or text[begin - 1] in "._"):
        begin -= 1
    word = text[begin:dot].lower()
    if not word:
        return False
    if len(word) == 1 and word.isalpha():
        return True  # an initial: "J. Smith"
    if word not in _ABBREVIATIONS:
        return False
    if word in _AMBIGUOUS:
        rest = text[after:end].lstrip()
        return not (rest[:1].isupper())
    return True


def _append(text: str, spans: list[tuple[int, int]], start: int, end: int) -> None:
    start, end = trim_span(text, start, end)
    if start < end:
        spans.append((start, end))
