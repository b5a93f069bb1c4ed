"""What a TeX-made manual's text gets wrong, counted the same way in any text (pure functions).

* Dot-leader listings: runs of five dots or more (". . . . ." or ".....") ending in a page number, and
  tables whose cells are single dots ("| . | . | . |"): a table of contents or an index.
* Loose accents: a spacing accent (´ ¨ ˆ ˜ ¸ ¯ ˇ ˘ ˙ ˚ ˝ ˛) anywhere, or a combining mark that
  follows no letter: TeX's accent glyphs not put back on their letters.
* Split words: words hyphenated at a line end in the PDF's text layer (PDFium marks such a
  hyphen U+FFFE), within a page or across a page break, that pdftotext joins somewhere ("con-" /
  "taining" → "containing"), found still apart in a text (a space, a paragraph break or other
  elements between the halves). Left out: compounds (the hyphenated form, "command-line", stands
  in pdftotext's text or in the layer's lines) and pairs pdftotext also writes as two words
  ("line color" beside "linecolor").
* Outline headings: bookmarks (title, page, parent title) against a document's headings, each
  title compared by its letters and digits only, the heading's text ending with the bookmark's
  ("Appendix B Configuration" holds "B Configuration").
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

LEADER = re.compile(r"(?:\.{5,}|(?:\. ){4,}\.?)[ \t|]*(?:\d{1,4}|[ivxlc]{1,6})\b|(?:\|[ \t]*\.[ \t]*){3,}\|")
SPACING_ACCENTS = re.compile("[\u00b4\u00a8\u02c6\u02dc\u00b8\u00af\u02c7\u02d8\u02d9\u02da\u02dd\u02db]")
_HYPHENATED = re.compile(r"(\w+)(?:\ufffe|\u00ad|-\r?\n)\s*([a-z]\w*)")
_WORD = re.compile(r"\w+")


def leader_runs(text: str) -> int:
    return len(LEADER.findall(text))


def loose_accent_contexts(text: str) -> list[str]:
    return [text[max(0, m.start() - 12) : m.end() + 12] for m in _LOOSE.finditer(text)]


_LOOSE = re.compile(f"{SPACING_ACCENTS.pattern}|(?<![^\\W\\d_])[\u0300-\u036f]")


def loose_accents(text: str) -> int:
    """Spacing accents, and combining marks after no letter."""
    return len(_LOOSE.findall(text))


# -- split words ---------------------------------------------------------------------------------


@dataclass
class Hyphenated:
    """Words the text layer hyphenates at a line end, as (first half, rest): within a page (which
    pdftotext joins), and across a page break (which it never does)."""

    within: Counter[tuple[str, str]] = field(default_factory=Counter)
    across: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def pairs(self) -> set[tuple[str, str]]:
        return set(self.within) | set(self.across)

    def __len__(self) -> int:
        return self.within.total() + self.across.total()


def hyphenated(layer_pages: Sequence[str], pdftotext: str) -> Hyphenated:
    """The words the text layer hyphenates at a line end that pdftotext has joined somewhere,
    never writes with their hyphen (a compound's) and never writes as two words."""
    joined = set(_WORD.findall(pdftotext))
    layer = "\n".join(layer_pages)

    def word(pair: tuple[str, str]) -> bool:
        a, b = (re.escape(p) for p in pair)
        return (
            pair[0] + pair[1] in joined
            and not (pair[0].isdigit() or pair[1].isdigit())
            and f"{pair[0]}-{pair[1]}" not in pdftotext
            and not re.search(rf"\b{a}-{b}\b", layer)
            and not re.search(rf"\b{a}\s+{b}\b", pdftotext)
        )

    out = Hyphenated()
    for page in layer_pages:
        out.within.update((m.group(1), m.group(2)) for m in _HYPHENATED.finditer(page))
    for before, after in itertools.pairwise(layer_pages):
        pair = _across(before, after)
        if pair is not None:
            out.across[pair] += 1
    out.within = Counter({p: n for p, n in out.within.items() if word(p)})
    out.across = Counter({p: n for p, n in out.across.items() if word(p)})
    return out


def split_by_pdftotext(text: str, pairs: Counter[tuple[str, str]]) -> list[str]:
    """pdftotext joins a word hyphenated within a page; across a page break it keeps the first
    half, its hyphen at the end of the page's text, the rest on the next page."""
    kept = [
        f"{a}- | {b}"
        for (a, b), n in pairs.items()
        for _ in range(n)
        if re.search(rf"\b{re.escape(a)}-\s*$", text, re.M)
    ]
    return split_in_text(text, pairs) + kept


def _across(before: str, after: str) -> tuple[str, str] | None:
    """A word hyphenated on a page's last line of text, and its rest at the start of the next
    page's first line that starts in lower case (a running head and a folio before it)."""
    lines = [ln.strip() for ln in before.splitlines() if ln.strip()]
    while lines and re.fullmatch(r"\d+|[ivxlc]+", lines[-1]):
        lines.pop()
    end = re.search(r"(\w+)[\ufffe\u00ad-]$", lines[-1]) if lines else None
    if end is None:
        return None
    for line in (ln.strip() for ln in after.splitlines()):
        if line[:1].islower():
            start = re.match(r"[a-z]\w*", line)
            return (end.group(1), start.group(0)) if start else None
        if len(line) > 60:
            return None
    return None


def split_in_text(text: str, pairs: Iterable[tuple[str, str]]) -> list[str]:
    """Halves of a pair still apart in a text (a space, a hyphen and line breaks between), as
    they stand there."""
    found: list[str] = []
    for a, b in pairs:
        found += re.findall(rf"\b{re.escape(a)}-?\s+{re.escape(b)}\b", text)
    return found


def split_across(pieces: Sequence[str], pairs: Iterable[tuple[str, str]]) -> list[str]:
    """Halves at the end of one piece (an element) and the start of the next."""
    wanted = set(pairs)
    found: list[str] = []
    for a, b in itertools.pairwise(pieces):
        end, start = re.search(r"(\w+)\W*$", a), re.match(r"\W*(\w+)", b)
        if end and start and (end.group(1), start.group(1)) in wanted:
            found.append(f"{end.group(1)} | {start.group(1)}")
    return found


# -- outline -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bookmark:
    title: str
    page: int | None
    parent: str | None  # the title of the bookmark it is nested in


@dataclass
class OutlineCheck:
    bookmarks: int = 0
    headings: int = 0  # bookmarks that are a heading on their page
    nested: int = 0  # and whose heading's section parent is the outline's parent
    missing: list[str] = field(default_factory=list)
    misplaced: list[str] = field(default_factory=list)


def squeeze(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _names(heading: str, title: str) -> bool:
    h, t = squeeze(heading), squeeze(title)
    return bool(t) and h.endswith(t)


Heading = tuple[str, int | None, tuple[str, ...]]  # text, page, section path


def check_outline(bookmarks: Sequence[Bookmark], headings: Sequence[Heading]) -> OutlineCheck:
    """``headings``: (text, page, section_path) of a document's headings."""
    out = OutlineCheck(bookmarks=len(bookmarks))
    titles = [b.title for b in bookmarks]
    for b in bookmarks:
        mine = [h for h in headings if h[1] == b.page and _names(h[0], b.title)]
        if not mine:
            out.missing.append(f"{b.title} (p. {b.page})")
            continue
        out.headings += 1
        # the heading whose text holds least besides the title ("String constants, string
        # variables, and string functions" also ends with "String functions")
        path = min(mine, key=lambda h: len(squeeze(h[0])))[2]
        above = path[-2] if len(path) >= 2 else None
        if b.parent is not None:
            good = above is not None and _names(above, b.parent)
        else:  # a top-level entry: nothing above, or the document's title (no bookmark)
            good = above is None or not any(_names(above, t) for t in titles)
        if good:
            out.nested += 1
        else:
            out.misplaced.append(f"{b.title} under {above!r}, not {b.parent!r}")
    return out
