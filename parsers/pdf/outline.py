"""The outline (the PDF's bookmarks) as the section tree (pure text and data, no PDFium).

Where a PDF has an outline, its author said what the sections are and how they nest:

* a bookmark names one heading, the first on the page it points to that reads as its title, and
  nowhere else: a contents entry or a running head with the same title is no heading;
* titles are compared without their numbering, a label such as "Appendix A" or "Chapter 3"
  included, case, punctuation or spacing; a leading letter may be an appendix's number or a
  word ("B Configuration" is the page's "Appendix B Configuration", "R and statistics" its
  "1.3 R and statistics"): both readings are tried; numbers must not disagree, and a text in
  lower case is no title with a capital;
* a label set on a line of its own over the title the outline names ("Part II" over "Plotting
  styles", LaTeX's chapters and parts) is part of that heading;
* a run-in heading (set bold or italic at the start of its paragraph's first line, LaTeX's
  \\paragraph) that the outline names is cut from that line and made a line of its own;
* a heading the outline names takes the outline's level (shifted under a title the outline
  leaves out); a heading it does not name is one under the outline's last heading, ranked
  among such headings by its style; before the outline's first heading only the document's
  title is a heading (a title page's subtitle and authors are not sections).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from parsegate.parsers.pdf.layout import Bookmark, Line, Style
from parsegate.parsers.pdf.lines import cut_line
from parsegate.parsers.pdf.order import Block
from parsegate.parsers.pdf.text import normalize

_LABELS = r"(appendix|chapter|part|section|annex|anhang|kapitel|annexe|chapitre|apéndice|capítulo)"
_LABEL = re.compile(rf"^{_LABELS}\s+(?P<number>\S+)\s+", re.IGNORECASE)
_NUMBER = re.compile(r"^((\d+|[ivxlc]+)([.)]\d+)*[.):]?|[a-z]([.)]\d+)+[.):]?|[a-z][.):])\s+", re.IGNORECASE)
_LETTER = re.compile(r"^[a-z]\s+", re.IGNORECASE)
_BULLETS = "•◦▪▫‣⁃∙·●○■□►▸▹➢➤✓✔❖◆◇"
_BARE_LABEL = re.compile(rf"^{_LABELS}\s+\S+$", re.IGNORECASE)
_PUNCTUATION = re.compile(r"[^\w\s]|_")
MAX_LEVEL = 6  # an outline's depth is kept to this level
_RUN_IN_WORDS = 8
_SLACK = 24  # characters a heading may hold besides its bookmark's title ("Appendix B ", "5.1.2 ")
B = TypeVar("B")
# A title's words, its number ("1.3", "b", "ii") if it has one, and whether it starts in lower case.
Reading = tuple[str, str | None, bool]


def readings(text: str) -> tuple[Reading, ...]:
    """How a title or a heading line reads without its numbering or label ("Appendix B"), case,
    punctuation or spacing; a leading letter read both ways (an appendix's "B" or a word, "R and
    statistics"). None for a list's item ("• LaTeX" is no section "2.3 LaTeX")."""
    text = " ".join(normalize(text).split())
    if not text or text[0] in _BULLETS:
        return ()
    out: list[tuple[str, str | None]] = []
    label = _LABEL.match(text)
    numbered = None if label else _NUMBER.match(text)
    if label is not None:
        out.append((text[label.end() :], label.group("number").rstrip(".):")))
    elif numbered is not None:
        out.append((text[numbered.end() :], numbered.group(0).strip().rstrip(".):")))
    if label is None and (numbered is None or numbered.group(0).strip().isalpha()):
        out.append((text, None))  # "I installed a package": a roman one, or a word
        letter = _LETTER.match(text)
        if letter is not None:
            out.append((text[letter.end() :], text[0]))
    return tuple(dict.fromkeys((_words(t), n.lower() if n else None, t[:1].islower()) for t, n in out))


def same_title(text: Sequence[Reading], title: Sequence[Reading]) -> bool:
    """A text reads as a title: the same words, numbers that do not disagree ("5 R Add-On
    Packages" is not "5.1.2 Add-on packages", "B Configuration" not "Appendix C Configuration";
    a section number against a letter or a roman one, "7.31 I installed" and the bookmark "I
    installed", says nothing), and no lower-case start where the title has a capital (the end
    of a sentence, "... are binary files.", is no heading "Binary files")."""
    return any(ka == kb and _agree(na, nb) and not (la and not lb) for ka, na, la in text for kb, nb, lb in title)


def _agree(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b or a[:1].isdigit() != b[:1].isdigit()


def _words(text: str) -> str:
    # "Using_examples" in a bookmark is "Using examples" on the page; "Non-regular" is "Nonregular".
    return " ".join(_PUNCTUATION.sub("", text.lower().replace("_", " ")).split())


@dataclass
class Outline:
    """The bookmarks (level, readings of the title), and which of them point to each page (None:
    those that name no page)."""

    bookmarks: list[tuple[int, tuple[Reading, ...]]] = field(default_factory=list)
    pages: dict[int | None, list[int]] = field(default_factory=dict)
    longest: dict[int | None, int] = field(default_factory=dict)  # the longest title on each page

    @classmethod
    def of(cls, bookmarks: Sequence[Bookmark]) -> Outline:
        out = cls()
        for n, b in enumerate(bookmarks):
            out.bookmarks.append((b.level, readings(b.title)))
            out.pages.setdefault(b.page, []).append(n)
            out.longest[b.page] = max(out.longest.get(b.page, 0), len(b.title))
        return out

    def match(self, text: str, page: int) -> int | None:
        """The bookmark that names a heading with this text on this page, if one does."""
        # A line far longer than every title on the page (a line of its text) is none of them.
        if len(text) > max(self.longest.get(page, -_SLACK), self.longest.get(None, -_SLACK)) + _SLACK:
            return None
        mine = readings(text)
        if not mine:
            return None
        for n in [*self.pages.get(page, []), *self.pages.get(None, [])]:
            if same_title(mine, self.bookmarks[n][1]):
                return n
        return None

    def level(self, bookmark: int) -> int:
        return self.bookmarks[bookmark][0]

    def names(self, line: Line) -> bool:
        """Whether the line is one the outline names, on the page it points to."""
        return self.match(line.text, line.page) is not None

    def cut_run_ins(self, lines: list[Line]) -> list[Line]:
        """The lines, each one that opens with a run-in heading the outline names cut in two."""
        if not self.pages:
            return lines
        # A bookmark a line names whole names no run-in heading ("Gnuplot is a portable ...",
        # its first word bold, on the page of the part "Gnuplot").
        whole = {self.match(line.text, line.page) for line in lines}
        out: list[Line] = []
        for line in lines:
            at = self._run_in(line, whole)
            parts = cut_line(line, at) if at is not None else None
            out.extend(parts if parts is not None else [line])
        return out

    def _run_in(self, line: Line, whole: set[int | None]) -> int | None:
        """Where the paragraph starts after a run-in heading: leading words set bold or italic,
        as the words before them are, that the outline names on this page."""
        words = line.words()
        if len(words) < 2 or not _set_off(words[0][0].style):
            return None
        style = words[0][0].style
        n = next((n for n, word in enumerate(words) if any(g.style != style for g in word)), len(words))
        if n == len(words) or n > _RUN_IN_WORDS:
            return None
        for k in range(n, 0, -1):  # the paragraph may open with a word in the heading's type
            title = " ".join("".join(g.text for g in word) for word in words[:k])
            hit = self.match(title, line.page)
            if hit is not None and hit not in whole:
                return line.glyphs.index(words[k][0])
        return None


def tree_levels(order: Sequence[B], marked: dict[B, int], styled: dict[B, int]) -> tuple[dict[B, int], list[B]]:
    """The level of each heading of ``order`` (document order) where the outline names some
    (``marked``: their outline levels, already shifted under a title), from ``styled`` (each
    heading's level by its style); and the headings before the outline's first that are no
    document title, which are no headings."""
    after_first = False
    unnamed: list[int] = []
    for block in order:
        after_first = after_first or block in marked
        if after_first and block not in marked:
            unnamed.append(styled[block])
    least = min(unnamed, default=1)
    levels: dict[B, int] = {}
    dropped: list[B] = []
    base: int | None = None
    for block in order:
        if block in marked:
            base = marked[block]
            levels[block] = min(base, MAX_LEVEL)
        elif base is not None:
            levels[block] = min(base + 1 + styled[block] - least, MAX_LEVEL)
        elif styled[block] == 1:
            levels[block] = 1  # the document's title, over the outline's sections
        else:
            dropped.append(block)
    return levels, dropped


def _set_off(style: Style) -> bool:
    return style.bold or style.italic


def join_labels(blocks: list[Block], named: Callable[[Line], bool]) -> list[Block]:
    """Blocks in reading order, a bare label ("Part II", "Chapter 3") joined to the heading the
    outline names right under it."""
    out: list[Block] = []
    for block in blocks:
        label = out[-1] if out else None
        if (
            label is not None
            and label.item is None
            and block.item is None
            and len(label.lines) == 1
            and block.lines
            and _BARE_LABEL.match(label.lines[0].text.strip())
            and named(block.lines[0])
            and 0 <= block.top - label.bottom < 3 * block.lines[0].size
        ):
            for line in label.lines[::-1]:
                block.lines.insert(0, line)
            block.x0, block.top = min(block.x0, label.x0), label.top
            block.x1, block.index = max(block.x1, label.x1), min(block.index, label.index)
            out[-1] = block
            continue
        out.append(block)
    return out
