"""Truth by construction: sentences known one by one, assembled into paragraphs, then messy variants.

A corpus file holds one sentence per line; a blank line ends a paragraph; lines starting with
``#`` are the header (source, licence); a sentence starting with ``↵ `` is joined to the one before
with a line break (a list item). Each variant rewrites the sentences of a paragraph one by one and
then, optionally, the assembled text with a character map, so the true boundaries (the offset where
each sentence after the first starts) are known exactly in every variant's text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
# corpus file stem -> (language code handed to language-aware segmenters, script family)
LANGUAGES = {
    "en": ("en", "latin"),
    "en_fin": ("en", "latin"),
    "de": ("de", "latin"),
    "fr": ("fr", "latin"),
    "es": ("es", "latin"),
    "ja": ("ja", "cjk"),
    "zh": ("zh", "cjk"),
}
NEWLINE_MARK = "↵ "
_FINAL_STOP = re.compile(r"[.!?。！？]+$")
WRAP_LATIN = 80
WRAP_CJK = 40


@dataclass(frozen=True)
class Paragraph:
    corpus: str
    sentences: tuple[str, ...]
    joiners: tuple[str, ...]  # joiners[i] goes before sentences[i]; joiners[0] == ""


@dataclass(frozen=True)
class Sample:
    corpus: str
    lang: str
    variant: str
    text: str
    boundaries: frozenset[int]  # start offset of every sentence after the first (trimmed)


def load_paragraphs(corpus: str) -> list[Paragraph]:
    script = LANGUAGES[corpus][1]
    space = "" if script == "cjk" else " "
    lines = (CORPUS / f"{corpus}.txt").read_text(encoding="utf-8").splitlines()
    paragraphs: list[Paragraph] = []
    sentences: list[str] = []
    joiners: list[str] = []
    for line in [*(x for x in lines if not x.startswith("#")), ""]:
        if not line.strip():
            if sentences:
                paragraphs.append(Paragraph(corpus, tuple(sentences), tuple(joiners)))
            sentences, joiners = [], []
            continue
        if line.startswith(NEWLINE_MARK):
            joiners.append("\n" if sentences else "")
            sentences.append(line[len(NEWLINE_MARK) :].strip())
        else:
            joiners.append(space if sentences else "")
            sentences.append(line.strip())
    return paragraphs


# --- sentence-level rewrites: (sentence, rng) -> sentence ------------------------------------


def _lower(sentence: str, rng: random.Random) -> str:
    out = sentence.lower()
    return out if len(out) == len(sentence) else sentence


def _drop_stop(sentence: str, rng: random.Random) -> str:
    # "unpunctuated-ish": about half the sentences lose their final stop
    return _FINAL_STOP.sub("", sentence) if rng.random() < 0.5 else sentence


_CHAT_LATIN = ["", "", " lol", " :)", " haha", " :-(", "!!!", " ;)", "??", " idk"]
_CHAT_CJK = ["", "", "w", "（笑）", "！！", "～", "笑", "…"]


def _chat(script: str) -> Callable[[str, random.Random], str]:
    decorations = _CHAT_CJK if script == "cjk" else _CHAT_LATIN

    def rewrite(sentence: str, rng: random.Random) -> str:
        s = _lower(sentence, rng)
        decoration = rng.choice(decorations)
        if decoration or rng.random() < 0.5:
            s = _FINAL_STOP.sub("", s)
        return s + decoration

    return rewrite


# --- text-level rewrites with a character map: text -> (new text, new index of every old index) --


def _wrap_latin(text: str, rng: random.Random, width: int = WRAP_LATIN) -> tuple[str, list[int]]:
    """Hard-wrap at ``width`` columns by turning spaces into line breaks (length unchanged)."""
    chars = list(text)
    line_start = 0
    last_space = -1
    for i, ch in enumerate(chars):
        if ch == "\n":
            line_start, last_space = i + 1, -1
        elif ch == " ":
            last_space = i
        if i - line_start >= width and last_space > line_start:
            chars[last_space] = "\n"
            line_start, last_space = last_space + 1, -1
    return "".join(chars), list(range(len(text) + 1))


def _wrap_cjk(text: str, rng: random.Random, width: int = WRAP_CJK) -> tuple[str, list[int]]:
    """Hard-wrap CJK text by inserting a line break every ``width`` characters."""
    out: list[str] = []
    mapping: list[int] = []
    column = 0
    for ch in text:
        if column == width and ch != "\n":
            out.append("\n")
            column = 0
        mapping.append(len(out))
        out.append(ch)
        column = 0 if ch == "\n" else column + 1
    mapping.append(len(out))
    return "".join(out), mapping


def _ocr(text: str, rng: random.Random, width: int = 72) -> tuple[str, list[int]]:
    """OCR-ish: some spaces doubled, lines wrapped at ``width`` with line-end hyphenation of long words."""
    out: list[str] = []
    mapping = [0] * (len(text) + 1)
    column = 0
    for token in re.finditer(r"\S+|\s", text):
        word, i = token.group(), token.start()
        if word.isspace():
            mapping[i] = len(out)
            out.append(word)
            column = 0 if word == "\n" else column + 1
            if word == " " and rng.random() < 0.15:
                out.append(" ")  # a doubled space
                column += 1
            continue
        cut = -1
        if column + len(word) > width:
            if len(word) >= 6 and word.isalpha():
                cut = max(3, min(len(word) - 3, width - column))  # "wo-\nrd"
            elif out and out[-1] == " ":
                out[-1] = "\n"
                column = 0
        for j, ch in enumerate(word):
            if j == cut:
                out.extend("-\n")
                column = 0
            mapping[i + j] = len(out)
            out.append(ch)
            column += 1
    mapping[len(text)] = len(out)
    return "".join(out), mapping


SentenceRewrite = Callable[[str, random.Random], str]
TextRewrite = Callable[[str, random.Random], tuple[str, list[int]]]


def variants(script: str) -> dict[str, tuple[SentenceRewrite | None, TextRewrite | None]]:
    if script == "cjk":
        return {
            "clean": (None, None),
            "nostop": (_drop_stop, None),
            "wrap": (None, _wrap_cjk),
            "chat": (_chat(script), None),
        }
    return {
        "clean": (None, None),
        "lower": (_lower, None),
        "nostop": (_drop_stop, None),
        "wrap80": (None, _wrap_latin),
        "chat": (_chat(script), None),
        "ocr": (None, _ocr),
    }


def build_sample(paragraph: Paragraph, variant: str, seed: int) -> Sample:
    lang, script = LANGUAGES[paragraph.corpus]
    sentence_rewrite, text_rewrite = variants(script)[variant]
    rng = random.Random(f"{seed}:{paragraph.corpus}:{variant}:{paragraph.sentences[0]}")
    parts: list[str] = []
    starts: list[int] = []
    cursor = 0
    for joiner, sentence in zip(paragraph.joiners, paragraph.sentences, strict=True):
        s = sentence_rewrite(sentence, rng) if sentence_rewrite else sentence
        cursor += len(joiner)
        starts.append(cursor)
        parts.extend((joiner, s))
        cursor += len(s)
    text = "".join(parts)
    if text_rewrite is not None:
        text, mapping = text_rewrite(text, rng)
        starts = [mapping[s] for s in starts]
    return Sample(paragraph.corpus, lang, variant, text, frozenset(starts[1:]))


def build_samples(seed: int = 0) -> list[Sample]:
    samples: list[Sample] = []
    for corpus, (_, script) in LANGUAGES.items():
        for paragraph in load_paragraphs(corpus):
            for variant in variants(script):
                samples.append(build_sample(paragraph, variant, seed))
    return samples
