"""Accents set as glyphs of their own, composed with the letters they sit on (pure geometry on
glyphs, no PDFium).

TeX's Computer Modern fonts (OT1) have no accented letters: ``\\'e`` is the accent glyph ´ set
over an e, and the content stream has the accent first. Left as they are, the accent is a loose
character ("M´etro") and, standing right of the letter's left edge, it looks to the line step
like the end of one line and the letter like the start of the next. Here an accent becomes the
combining mark of the letter its box sits over (or, for a cedilla or an ogonek, under), and the
pair is NFC-normalised: "é", and "í" from a dotless ı under an acute.
"""

from __future__ import annotations

import operator
import unicodedata

from parsegate.parsers.pdf.layout import Glyph

# Spacing accents (and combining marks a font maps its accent glyphs to) → the combining mark.
_ABOVE = {
    "\u00b4": "\u0301", "\u02ca": "\u0301", "\u0301": "\u0301",  # acute
    "`": "\u0300", "\u02cb": "\u0300", "\u0300": "\u0300",  # grave
    "\u00a8": "\u0308", "\u0308": "\u0308",  # diaeresis
    "\u02c6": "\u0302", "^": "\u0302", "\u0302": "\u0302",  # circumflex
    "\u02dc": "\u0303", "~": "\u0303", "\u0303": "\u0303",  # tilde
    "\u00af": "\u0304", "\u02c9": "\u0304", "\u0304": "\u0304",  # macron
    "\u02d8": "\u0306", "\u0306": "\u0306",  # breve
    "\u02d9": "\u0307", "\u0307": "\u0307",  # dot above
    "\u02da": "\u030a", "\u030a": "\u030a",  # ring
    "\u02dd": "\u030b", "\u030b": "\u030b",  # double acute
    "\u02c7": "\u030c", "\u030c": "\u030c",  # caron
}  # fmt: skip
_BELOW = {"\u00b8": "\u0327", "\u0327": "\u0327", "\u02db": "\u0328", "\u0328": "\u0328"}  # cedilla, ogonek
_ACCENTS = frozenset((*_ABOVE, *_BELOW))
_TEXT = operator.attrgetter("text")
_ASCII = frozenset("`^~")  # also quotes and operators: composed only in a text font, over a letter
_DOTLESS = {"\u0131": "i", "\u0237": "j"}  # TeX's \i and \j take the accent in place of the dot
_REACH = 0.2  # of the letter's width: how far past its sides an accent's centre may stand


def compose_accents(run: list[Glyph]) -> list[Glyph]:
    """The run with each accent glyph merged into the letter it sits on (the letter's box and
    style, the accent's place in the stream)."""
    if _ACCENTS.isdisjoint(map(_TEXT, run)):
        return run  # most runs: no accent glyph
    out: list[Glyph] = []
    taken: set[int] = set()
    for n, g in enumerate(run):
        if n in taken:
            continue
        mark = _ABOVE.get(g.text) or _BELOW.get(g.text)
        if mark is None:
            out.append(g)
            continue
        # TeX sets the accent first; other producers after the letter.
        for m in (n + 1, n - 1):
            if 0 <= m < len(run) and m not in taken and _sits_on(g, run[m]):
                letter = run[m]
                if m < n:
                    out.pop()  # the letter, already copied
                out.append(_composed(g, letter, mark))
                taken.add(m)
                break
        else:
            out.append(g)
    return out


def _sits_on(accent: Glyph, letter: Glyph) -> bool:
    if not letter.text.isalpha() or letter.x1 <= letter.x0 or letter.bottom <= letter.top:
        return False
    if accent.text in _ASCII and (accent.style.mono or letter.style.mono):
        return False  # code: "a^b", "~/.Rprofile", a backquote
    centre = (accent.x0 + accent.x1) / 2
    reach = _REACH * (letter.x1 - letter.x0)
    if not letter.x0 - reach <= centre <= letter.x1 + reach:
        return False
    middle = (letter.top + letter.bottom) / 2
    if accent.text in _BELOW:
        return accent.top >= middle and accent.top <= letter.bottom + (letter.bottom - letter.top)
    return accent.bottom <= middle and accent.bottom >= letter.top - (letter.bottom - letter.top)


def _composed(accent: Glyph, letter: Glyph, mark: str) -> Glyph:
    base = letter.text
    if mark not in _BELOW.values():
        base = _DOTLESS.get(base, base)
    text = unicodedata.normalize("NFC", base + mark)
    index = min(accent.index, letter.index)
    return Glyph(text, letter.x0, letter.top, letter.x1, letter.bottom, letter.style, index)
