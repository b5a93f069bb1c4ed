"""The segmenters under test, each behind the same three calls.

``pieces(text, lang)``  the library's own output as strings (what its README shows)
``native(text, lang)``  the library's own offsets, if it has any (None otherwise), untrimmed
``exact(text, lang)``   the path parsegate would use to get exact trimmed (start, end) char offsets

Imports happen inside the factories so that a missing library only drops that candidate, and so
that offline_check.py can import one candidate at a time.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.suites.sentence_segmenters.offsets import align_pieces, trimmed, utf8_to_char_offsets

Spans = list[tuple[int, int]]
SENTENCES = Path(__file__).resolve().parents[3] / "chunkers" / "structural" / "sentences.py"  # this checkout's


@dataclass
class Candidate:
    name: str
    pieces: Callable[[str, str], list[str]]
    native: Callable[[str, str], Spans] | None
    exact: Callable[[str, str], Spans]
    how_exact: str  # how ``exact`` gets its offsets


def ours(path: Path = SENTENCES, name: str = "parsegate") -> Candidate:
    # Load sentences.py by file path, so that the checkout under test (main's working copy, or a
    # committed version written to a file) is measured, not whatever `chunkers` is installed.
    spec = importlib.util.spec_from_file_location(f"_sentences_{abs(hash(str(path)))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sentence_spans = module.sentence_spans

    def spans(text: str, lang: str) -> Spans:
        return list(sentence_spans(text))

    return Candidate(
        name,
        lambda text, lang: [text[s:e] for s, e in sentence_spans(text)],
        spans,
        spans,
        "native char offsets (sentence_spans)",
    )


def sentencex() -> Candidate:
    import sentencex as sx

    def native(text: str, lang: str) -> Spans:
        return [(b["start_index"], b["end_index"]) for b in sx.get_sentence_boundaries(lang, text)]

    return Candidate(
        "sentencex",
        lambda text, lang: list(sx.segment(lang, text)),
        native,
        lambda text, lang: trimmed(text, native(text, lang)),
        "native char offsets (get_sentence_boundaries), trimmed",
    )


def nupunkt() -> Candidate:
    import nupunkt as nk

    return Candidate(
        "nupunkt",
        lambda text, lang: list(nk.sent_tokenize(text)),
        lambda text, lang: list(nk.sent_spans(text)),
        lambda text, lang: trimmed(text, nk.sent_spans(text)),
        "native char offsets (sent_spans), trimmed",
    )


def nupunkt_rs() -> Candidate:
    import nupunkt_rs as nr

    tokenizer = nr.create_default_tokenizer()

    def native(text: str, lang: str) -> Spans:
        return list(tokenizer.tokenize_spans(text))

    def exact(text: str, lang: str) -> Spans:
        # tokenize_spans reports UTF-8 byte offsets: map them to char offsets
        index = utf8_to_char_offsets(text)
        return trimmed(text, [(index[s], index[e]) for s, e in tokenizer.tokenize_spans(text)])

    return Candidate(
        "nupunkt-rs",
        lambda text, lang: list(tokenizer.tokenize(text)),
        native,
        exact,
        "native UTF-8 byte offsets (tokenize_spans) mapped to chars, trimmed",
    )


def blingfire() -> Candidate:
    import blingfire as bf

    def native(text: str, lang: str) -> Spans:
        return list(bf.text_to_sentences_and_offsets(text)[1])

    return Candidate(
        "blingfire",
        lambda text, lang: bf.text_to_sentences(text).split("\n"),
        native,
        lambda text, lang: trimmed(text, native(text, lang)),
        "native char offsets (text_to_sentences_and_offsets), trimmed",
    )


_PYSBD_LANGS = {"en", "de", "fr", "es", "ja", "zh"}


def pysbd() -> Candidate:
    import pysbd as sbd

    plain = {lang: sbd.Segmenter(language=lang, clean=False) for lang in _PYSBD_LANGS}
    spanned = {lang: sbd.Segmenter(language=lang, clean=False, char_span=True) for lang in _PYSBD_LANGS}

    def pieces(text: str, lang: str) -> list[str]:
        return list(plain[lang].segment(text))

    def native(text: str, lang: str) -> Spans:
        return [(s.start, s.end) for s in spanned[lang].segment(text)]

    return Candidate(
        "pysbd",
        pieces,
        native,
        # char_span offsets come from re.finditer of each sentence, which can land on an earlier
        # repeat of the same words: align the strings instead (verified walk, see offsets.py).
        lambda text, lang: align_pieces(text, pieces(text, lang)),
        "align_pieces over segment() strings (char_span offsets not trusted)",
    )


FACTORIES: dict[str, Callable[[], Candidate]] = {
    "sentencex": sentencex,
    "nupunkt": nupunkt,
    "nupunkt-rs": nupunkt_rs,
    "blingfire": blingfire,
    "pysbd": pysbd,
}


# --- controls: segmenters built to make the metric fail ----------------------------------------

_EVERY = re.compile(r"\S+")


def every_space() -> Candidate:
    """Splits at every space (every character in Japanese and Chinese): recall 1, precision collapses."""

    def spans(text: str, lang: str) -> Spans:
        if lang in ("ja", "zh"):
            return [(i, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
        return [m.span() for m in _EVERY.finditer(text)]

    return Candidate("control:every-space", lambda t, lang: [t[s:e] for s, e in spans(t, lang)], spans, spans, "-")


def never_split() -> Candidate:
    """One sentence per paragraph: recall 0."""

    def spans(text: str, lang: str) -> Spans:
        return trimmed(text, [(0, len(text))])

    return Candidate("control:never-split", lambda t, lang: [t], spans, spans, "-")


# --- agreement of two segmenters: where both cut (precision) or where either cuts (recall) ---------


def combined(a: Candidate, b: Candidate, how: str) -> Candidate:
    """``how`` = "both" keeps the boundaries both segmenters find, "either" those either finds."""

    def spans(text: str, lang: str) -> Spans:
        first = {s for s, _ in a.exact(text, lang)[1:]}
        second = {s for s, _ in b.exact(text, lang)[1:]}
        cuts = sorted(first & second if how == "both" else first | second)
        edges = [0, *cuts, len(text)]
        return trimmed(text, list(itertools.pairwise(edges)))

    name = f"{a.name} {'∩' if how == 'both' else '∪'} {b.name}"
    return Candidate(name, lambda t, lang: [t[s:e] for s, e in spans(t, lang)], None, spans, "from both")
