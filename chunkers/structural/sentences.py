"""Sentence boundaries as integer offsets, in two strengths.

A boundary is terminal punctuation (with any closing quotes or brackets) followed by
whitespace, or a CJK full stop (。！？), which needs no space after it. It is *strong*
when what follows can open a sentence in cased text (a capital, a digit, an opening
quote or bracket, a CJK character) and *weak* when a lower-case letter follows: lower-cased
exports, OCR and chat still have sentences, only weaker evidence of them.

Abbreviations (English, German, French, Spanish), initials, decimals, URLs and ordinal
dates ("am 3. Mai") do not end a sentence: the first ones are listed or recognised, the
next two never have whitespace right after their inner dots, the last is recognised.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from parsegate.parsers.model import trim_span

STRONG = 0
WEAK = 1

_ABBREVIATIONS = frozenset(
    # English
    "mr mrs ms dr prof sr jr st mt vs etc e.g i.e cf al approx dept est fig figs no nos vol p pp ed eds rev "
    "gen col lt sgt capt cmdr gov sen rep inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec "
    "mon tue wed thu fri sat sun u.s u.k a.m p.m ph.d art sec ch para min max ref resp incl excl viz "
    "ca esp ave blvd rd mgmt e.v nr tel ext"
    # German
    " z.b d.h u.a usw bzw vgl evtl ggf inkl bspw sog str abs jh jhd z.t o.ä dgl u.ä s.o s.u i.d.r "
    "z.zt hr fr dipl ing mio mrd geb gest insb v.a ggü std med gr mo di mi sa"
    # French, Spanish
    " p.ex ex mme mlle env av sra srta ud uds p.ej ej dra avda núm ee uu".split()
)
# Abbreviations that often end a sentence too: a boundary only when a capital follows.
_AMBIGUOUS = frozenset({"etc", "inc", "ltd", "co", "corp", "a.m", "p.m", "usw", "al", "esp", "mo", "di", "mi", "sa"})
# A German ordinal follows these ("am 3. Mai", "im 2. Stock", "in der 89. Minute").
_BEFORE_ORDINAL = frozenset("am im vom zum zur der die das den dem des ab bis seit ins beim".split())
_MONTHS = frozenset(
    "januar februar märz april mai juni juli august september oktober november dezember "
    "jan feb mär apr jun jul aug sep sept okt nov dez "
    "janvier février mars avril juin juillet août septembre octobre novembre décembre "
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split()
)

_CLOSERS = "\"'”’“»)\\]」』】〕）"
_ANY = re.compile(
    rf"[.!?…‼⁇⁈⁉]+[{_CLOSERS}]*(?=\s|$)|[。！？｡]+[{_CLOSERS}]*|[!?]+[{_CLOSERS}]*(?=[\u3040-\u30ff\u4e00-\u9fff])"
)

# Sentences that open with these lean on the one before (an exception, a consequence,
# a pronoun): a cut before them is avoided where another boundary exists.
_CONTINUES = re.compile(
    r"(?:however|but|except|unless|otherwise|this|that|these|those|such|it|its|they|them|their|"
    r"he|she|his|her|therefore|thus|hence|also|in that case|in this case|if so|then|instead|"
    r"nevertheless|notwithstanding|exceptions?|note|moreover|furthermore|likewise|similarly|additionally|"
    r"in addition|alternatively|consequently|accordingly|nonetheless|conversely|in contrast|for example|"
    r"for instance|as a result|jedoch|aber|außer|ausgenommen|dies|diese|dieser|"
    r"dieses|daher|deshalb|sie|er|es|cependant|mais|sauf|sin embargo|pero|excepto)\b",
    re.IGNORECASE,
)
# Japanese and Chinese write no spaces, so no word boundary follows: demonstratives ("これらの
# 証明書は": these certificates) and connectives of contrast or consequence.
_CONTINUES_CJK = re.compile(
    r"これ|それ|この|その|そこで|しかし|ただし|したがって|なお|"
    r"这|這|此|它|但|然而|因此|所以"
)


_EXCEPTION = re.compile(
    r"\b(?:except|exceptions?|unless|excluding|does not apply|do not apply|not applicable|"
    r"ausgenommen|ausnahmen?|sauf|excepto|salvo)\b",
    re.IGNORECASE,
)
_EXCEPTION_REACH = 300  # characters of the next sentence looked at
_ALSO = re.compile(r"\b(?:also|auch|aussi|también)\b", re.IGNORECASE)
_ALSO_REACH = 80  # characters: the first clause or so (later, "also" belongs to a clause of its own)


class Boundary(NamedTuple):
    end: int  # where the sentence before it ends (after its punctuation)
    start: int  # where the next one starts (after the whitespace)
    strength: int  # STRONG or WEAK


def boundaries(text: str, start: int = 0, end: int | None = None) -> list[Boundary]:
    """Sentence boundaries inside ``text[start:end]``, in order; none at the range's ends."""
    end = len(text) if end is None else end
    out: list[Boundary] = []
    floor = start
    for match in _ANY.finditer(text, start, end):
        stop = match.end()
        nxt = stop
        while nxt < end and text[nxt].isspace():
            nxt += 1
        if nxt >= end:
            break
        strength = _strength(text, floor, match.start(), stop, nxt, end)
        if strength is None:
            continue
        out.append(Boundary(stop, nxt, strength))
        floor = nxt
    return out


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Spans of the sentences in ``text[start:end]`` (weak boundaries included), whitespace
    trimmed, covering every non-whitespace character of the range."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    cursor = start
    for b in boundaries(text, start, end):
        _append(text, spans, cursor, b.end)
        cursor = b.start
    _append(text, spans, cursor, end)
    return spans


def continues_previous(text: str, start: int) -> bool:
    if _CONTINUES.match(text, start) is not None or _CONTINUES_CJK.match(text, start) is not None:
        return True
    # "Static methods are also transformed": an additive particle early in a sentence presupposes
    # what the sentence before said.
    return _ALSO.search(text, start, start + _ALSO_REACH) is not None


def mentions_exception(text: str, start: int, end: int) -> bool:
    """Does the sentence at ``start`` speak of an exception ("… approves exceptions", "… does not
    apply to …")? It then belongs with the rule before it, wherever the word falls."""
    stop = min(end, start + _EXCEPTION_REACH)
    return _EXCEPTION.search(text, start, stop) is not None


def _strength(text: str, floor: int, dot: int, stop: int, nxt: int, end: int) -> int | None:
    """STRONG, WEAK, or None where the punctuation does not end a sentence."""
    follower = text[nxt]
    if text[dot] in "。！？｡":
        # 「…。」と言った: a quotation closed and then followed by more of the same sentence.
        quoted = text[stop - 1] in _CLOSERS and stop == nxt
        return None if quoted and not _is_opening(follower) else STRONG
    if stop == nxt:
        # Western punctuation needs whitespace after it (3.5, a.b.c, URLs), except before CJK.
        return STRONG if text[dot] in "!?" and _is_cjk(follower) else None
    closed = stop - dot > 1 and all(ch in _CLOSERS for ch in text[dot + 1 : stop])
    if text[dot] == "." and (stop - dot == 1 or closed) and _not_a_stop(text, floor, dot, nxt, end, closed):
        return None
    if follower.islower():
        # '"Why?" she asked.': a quoted question or exclamation goes on after its closing quote.
        return None if text[stop - 1] in _CLOSERS and text[dot] in "?!" else WEAK
    return STRONG


def _is_cjk(ch: str) -> bool:
    return "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff"


def _is_opening(ch: str) -> bool:
    return ch in "「『【〔（(\"'“‘«"


def _not_a_stop(text: str, floor: int, dot: int, nxt: int, end: int, closed: bool = False) -> bool:
    """An abbreviation, an initial, or an ordinal day before a month name. One that closes a
    bracket or a quote ends its sentence unless a lower-case word goes on ("dem Host usw.)
    laufen", "pears, etc.) and"; but "see Fig.) The", "env.] [what's")."""
    begin = dot
    while begin > floor and (text[begin - 1].isalnum() or text[begin - 1] in "._"):
        if _escape_before(text, begin):
            break  # "…\\n3.": an escaped line break ends the word before the number
        begin -= 1
    word = text[begin:dot].lower()
    if not word:
        return False
    if closed:
        known = (len(word) == 1 and word.isalpha()) or word in _ABBREVIATIONS
        return known and text[nxt].islower()
    if len(word) == 1 and word.isalpha():
        return True  # an initial: "J. Smith"
    if word.isdigit() and len(word) <= 2:
        if _opens_item(text, begin):
            return True  # "1. Install the package": a numbered list item, not a sentence
        if _previous_word(text, begin).lower() in _BEFORE_ORDINAL:
            return True  # "am 3. Mai", "im 2. Stock"
        return _next_word(text, nxt, end).lower().rstrip(".") in _MONTHS
    if word not in _ABBREVIATIONS:
        return False
    if word in _AMBIGUOUS:
        return not text[nxt].isupper()
    return True


def _opens_item(text: str, begin: int) -> bool:
    """Whether the number at ``begin`` opens a list item: it starts a line (after a real line
    break or an escaped one, a chat export's "\\n"), or it follows the end of the sentence before
    it (a list run together on one line: "Open the store. 2. Click Customize."). An enumerator is
    never a sentence's end."""
    if _line_start(text, begin) or _escape_before(text, begin):
        return True
    before = begin  # (the sentence before ends at or before ``floor``: look past it)
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    return before > 0 and before < begin and text[before - 1] in ".!?:;" + _CLOSERS


def _escape_before(text: str, offset: int) -> bool:
    """Whether an escaped line break ("\\n", "\\r": backslash and letter) ends right before ``offset``."""
    return (
        offset >= 2
        and text[offset - 1] in "nr"
        and text[offset - 2] == "\\"
        and (offset < 3 or text[offset - 3] != "\\")
    )


def _line_start(text: str, offset: int) -> bool:
    while offset > 0 and text[offset - 1] in " \t":
        offset -= 1
    return offset == 0 or text[offset - 1] in "\r\n"


def _previous_word(text: str, offset: int) -> str:
    stop = offset
    while stop > 0 and text[stop - 1].isspace():
        stop -= 1
    begin = stop
    while begin > 0 and text[begin - 1].isalpha():
        begin -= 1
    return text[begin:stop]


def _next_word(text: str, start: int, end: int) -> str:
    stop = start
    while stop < end and not text[stop].isspace():
        stop += 1
    return text[start:stop]


def _append(text: str, spans: list[tuple[int, int]], start: int, end: int) -> None:
    start, end = trim_span(text, start, end)
    if start < end:
        spans.append((start, end))
