"""Text normalization for the text we build from PDFium's glyphs.

NFC, not NFKC: NFKC also folds what the source means (™ → TM glued to the word, superscript
footnote digits → plain digits, Hangul compatibility jamo, full-width forms). Only the
presentation ligatures are expanded, by an explicit map."""

from __future__ import annotations

import functools
import re
import unicodedata

_LIGATURES = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"}
)
# Line-end hyphens PDFium reports as U+FFFE (and soft hyphens) never stay in the text.
HYPHEN_MARKS = ("\ufffe", "\u00ad")
BULLETS = frozenset("•◦▪▫‣⁃∙·●○■□►▸▹➢➤✓✔❖◆◇–-*")
_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
_LTR = re.compile(r"[A-Za-z0-9\u00c0-\u024f]")
_LTR_LETTERS = re.compile(r"[A-Za-z\u00c0-\u024f\u0370-\u052f]")
_ALEFS = frozenset("\u0627\u0623\u0625\u0622")
_LAM = "\u0644"


def normalize(text: str) -> str:
    """NFC, ligatures expanded, every run of whitespace one space, no line-end hyphen marks."""
    for mark in HYPHEN_MARKS:
        text = text.replace(mark, "")
    return " ".join(unicodedata.normalize("NFC", text.translate(_LIGATURES)).split())


def is_hyphen_mark(text: str) -> bool:
    return text in HYPHEN_MARKS


_GARBAGE = re.compile("[\x00-\x1f\x7f-\x9f\ue000-\uf8ff\ufffd]")


def has_garbage(text: str) -> bool:
    return _GARBAGE.search(text) is not None


@functools.lru_cache(maxsize=1 << 16)  # asked of every glyph; a document has few distinct ones
def is_mark(text: str) -> bool:
    """A combining mark (a vowel sign, tanween, an accent drawn as its own glyph)."""
    return unicodedata.combining(text[0]) != 0


def is_garbage(text: str) -> bool:
    """A glyph with no real character behind it: a control code (C0 or C1, what fonts without a
    ToUnicode map give for bullets and check boxes), a private-use code or U+FFFD."""
    code = ord(text[0])
    return code < 0x20 or 0x7F <= code <= 0x9F or 0xE000 <= code <= 0xF8FF or code == 0xFFFD


def has_rtl(text: str) -> bool:
    return _RTL.search(text) is not None


def mostly_rtl(texts: list[str]) -> bool:
    """More right-to-left letters than left-to-right ones (digits, weak in the bidi algorithm,
    count for neither): text read from the right."""
    joined = "".join(texts)
    return len(_RTL.findall(joined)) > len(_LTR_LETTERS.findall(joined))


@functools.lru_cache(maxsize=1 << 16)  # asked of every glyph: each character matched once
def script(text: str) -> str:
    """'rtl', 'ltr' or '' (punctuation, symbols) for one character."""
    if _RTL.match(text):
        return "rtl"
    return "ltr" if _LTR.match(text) else ""


def swapped_lam_alef(first: str, second: str) -> bool:
    """PDFium expands a lam-alef ligature glyph into two chars in visual order (alef, lam)."""
    return first in _ALEFS and second == _LAM
