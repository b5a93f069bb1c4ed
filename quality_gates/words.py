"""Words, as the gate compares them between an independent extraction and the chunks.

Both sides go through the same normalization: Unicode compatibility folding (ligatures such as
"ﬁ" become "fi"), case folding, Latin accents dropped (a text layer may keep TeX's accent glyph
beside its letter: "universit¨at" for "universität"), and a word hyphenated at a line end joined
again ("exam-\\nple"), or marked as hyphenation by the text layer (U+FFFE, soft hyphens), which
is how a text layer differs from the text a reader sees. Punctuation separates words, so
table pipes, Markdown markup and list bullets never count as words.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator

_WORD = re.compile(r"\w+")
_HYPHENATED = re.compile(r"(?<=\w)-[ \t]*\r?\n[ \t]*(?=[a-zà-ÿ])")
# PDFium reports a line-end hyphen it takes for hyphenation as U+FFFE (as \x02 in the text of a box);
# a soft hyphen is one too.
_HYPHEN_MARKS = re.compile(r"[\ufffe\u00ad\x02]\s*")
_SPACING_ACCENTS = re.compile("[\u00a8\u00af\u00b4\u00b8\u02c6-\u02c7\u02c9-\u02cb\u02d8-\u02dd]")
_LATIN_MARKS = re.compile("[\u0300-\u036f]")  # the combining diacritics of Latin, Greek, Cyrillic
_DOTLESS = str.maketrans("\u0131\u0237", "ij")  # TeX's dotless i and j, under an accent glyph


def fold(text: str) -> str:
    joined = _HYPHEN_MARKS.sub("", _HYPHENATED.sub("", text))
    # A Latin letter's accent, however encoded (precomposed, combining, or TeX's accent glyph
    # of its own that a text layer keeps beside its letter), is no part of the word compared.
    return _unaccented(_SPACING_ACCENTS.sub("", joined))


def _unaccented(text: str) -> str:
    bare = _LATIN_MARKS.sub("", unicodedata.normalize("NFKD", text.translate(_DOTLESS)))
    return unicodedata.normalize("NFKC", bare).casefold()


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def bag(text: str) -> Counter[str]:
    return Counter(words(text))


def located(text: str) -> Iterator[tuple[str, int, int]]:
    """Each word of ``text`` with its span in ``text`` itself (no hyphen joining: the spans
    must stay exact; the folding is applied word by word)."""
    for m in _WORD.finditer(text):
        yield _unaccented(m.group(0)), m.start(), m.end()


def spans(text: str) -> Iterator[tuple[int, int]]:
    """Each word's span in ``text``, where only the positions matter (no folding: it would be
    thrown away)."""
    return map(re.Match.span, _WORD.finditer(text))


def runs(sequence: list[str], longest: int = 3) -> dict[str, tuple[int, int]]:
    """Concatenations of 2..``longest`` consecutive words, each with the positions it spans:
    how a word of one text can be found when another runs neighbours together ("2,839" and
    "5" in two table cells come out of a PDF text layer as "2,8395")."""
    out: dict[str, tuple[int, int]] = {}
    for i in range(len(sequence)):
        joined = sequence[i]
        for j in range(i + 1, min(len(sequence), i + longest)):
            joined += sequence[j]
            out.setdefault(joined, (i, j + 1))
    return out


def present(sequence: list[str], reference: set[str]) -> set[str]:
    """The words of ``sequence`` found in ``reference``: as words, inside a run of consecutive
    words that the reference has as one word, or alone or in such a run at the start or end of
    a reference word (a text layer joins table cells in its own order: "6,617" beside "7" comes
    out "6,6177")."""
    found = {w for w in sequence if w in reference}
    if len(found) == len(set(sequence)):
        return found  # every word as it stands: no run or prefix can add one (most chunks)
    joined_runs = runs(sequence)
    for joined, (i, j) in joined_runs.items():
        if joined in reference:
            found.update(sequence[i:j])
    for w in set(sequence) - found:
        if any(r.startswith(w) or r.endswith(w) for r in reference):
            found.add(w)
    missing = set(sequence) - found
    if missing:
        # Or in a run of words that begins or ends a reference word: a note's mark set apart
        # from the words around it, which the text layer runs together ("directory", "9" in
        # "directory9can").
        for joined, (i, j) in joined_runs.items():
            if not missing.isdisjoint(sequence[i:j]) and any(
                r.startswith(joined) or r.endswith(joined) for r in reference
            ):
                found.update(sequence[i:j])
    return found
