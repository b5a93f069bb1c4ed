"""How sure a heading candidate is to start a section (pure geometry and text, no PDFium).

A heading's text becomes the section path of every chunk under it, so a false one misfiles a
whole section: precision matters more than recall here. typography.py finds candidates by
style; this module weighs each one on what a section heading is and what it is not:

* for it: the outline names it; it is set larger than the body; it carries a section number,
  more so the number right after a heading's ("4." between the headings "3." and "5."); body
  text follows it; it stands on a line of its own;
* against it: a figure or table label ("Figure 3:", "Table 2.", "[표 1]"), a bold lead-in that
  shares its baseline with the sentence it opens, one of several labels side by side (a
  diagram's boxes, a form's column heads), one of a run of labels with no body between them, a
  heading as large right after it (its section would be empty: an author under a title, a
  figure's labels, a letter's address lines), a lower-case start, a sentence's length.

A candidate below ``THRESHOLD`` is read as text, with a ``suspect_heading`` warning.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from parsegate.parsers.pdf.layout import Line, Style
from parsegate.parsers.pdf.order import Block

THRESHOLD = 0.5
# Labels of figures and tables, in the languages the test sets have met and their neighbours:
# "Figure 3:", "Fig. 2", "Table 2.", "Tabelle 1", "Abb. 4", "[표 1]", "그림 2", "表 3", "図 1",
# "شکل ۲", "جدول 1".
CAPTION = re.compile(
    r"^[\[(【]?\s*(table|tab\.|figure|fig\.|chart|exhibit|listing|plate|graph|diagram|map|scheme|"
    r"tabelle|abbildung|abb\.|tableau|figura|tabla|tabella|gráfico|grafico|tabel|gambar|"
    r"표|그림|도표|表|图|圖|図|شکل|جدول|نمودار|الشكل|شكل)\s*[\dIVX٠-٩۰-۹]+[a-z]?(?![\w])",
    re.IGNORECASE,
)
_NUMBER = re.compile(
    r"^((\d{1,2}(\.\d{1,2}){0,4})\.?|\(\d{1,2}\)|[IVX]{1,5}\.|[A-H]\.|-?(\d{1,2}-)+\d{0,2}|(-\d{1,2})+|"
    r"(chapter|section|part|appendix|annex)\s+[\dIVXA-H]+[.:]?)\s+\S",
    re.IGNORECASE,
)

_IDENTIFIER = re.compile(r"^\S*[\d_.\[(]")  # a function's or a variable's name: "asn1_parser2tree"


@dataclass
class Weighing:
    score: float
    against: list[str] = field(default_factory=list)  # the reasons that weighed against it


def weigh(
    block: Block,
    blocks: Sequence[Block],
    n: int,
    page_lines: Sequence[Line],
    body: Style,
    named: bool,
    candidates: Collection[Block] = (),
    continues: bool = False,
    kept: Collection[Block] = (),
) -> Weighing:
    """The confidence that ``block`` (the ``n``-th of its page, in reading order) is a section
    heading, in [0, 1]; ``candidates`` are the document's other heading candidates, ``kept`` those
    a first weighing kept; ``continues``: its section number comes right after a heading's."""
    if named:
        return Weighing(1.0)
    lines = block.lines
    first = lines[0]
    text = " ".join(ln.text for ln in lines)
    ratio = first.size / body.size if body.size else 1.0
    out = Weighing(0.5 if ratio >= 1.1 else 0.4)
    if ratio >= 1.4:
        out.score += 0.35
    elif ratio >= 1.1:
        out.score += 0.25
    elif len(text.split()) <= 10:
        out.score += 0.15  # a few words in the body's size, set apart by weight or slant
    if _NUMBER.match(text):
        out.score += 0.3 if continues else 0.2
    following = next_block(blocks, n)
    if _body_follows(following, body):
        out.score += 0.1
    elif following not in candidates:
        _against(out, 0.2, "no body text follows it")
    elif following is not None and following in kept and not _below(following, block):
        # (a heading over a subheading, set smaller, starts a section: the subheading's)
        _against(out, 0.3, "a heading as large follows it at once (an empty section)")
    if CAPTION.match(text):
        _against(out, 0.6, "a figure or table label")
    if _run_in(block, page_lines):
        _against(out, 0.4, "it shares its line with other text (a bold lead-in)")
    if _side_by_side(block, blocks):
        _against(out, 0.4, "one of several labels side by side")
    if text[:1].islower() and not _IDENTIFIER.match(text):
        _against(out, 0.15, "it starts in lower case")
    if len(text.split()) > 12:
        _against(out, 0.15, f"{len(text.split())} words")
    out.score = round(min(1.0, max(0.0, out.score)), 2)
    return out


def next_block(blocks: Sequence[Block], n: int) -> Block | None:
    """What follows the ``n``-th block, past a number or a bullet set apart in its own column
    ("2." left of its item)."""
    return next((b for b in blocks[n + 1 :] if b.item is not None or not _marker(b)), None)


def _against(out: Weighing, by: float, reason: str) -> None:
    out.score -= by
    out.against.append(reason)


def _body_follows(following: Block | None, body: Style) -> bool:
    """Text in the body's size (or a table or a figure, or the page's end) comes next."""
    if following is None or following.item is not None or not following.lines:
        return True
    line = following.lines[0]
    if all(ln.listing for ln in following.lines):
        return True  # a listing (a function's synopsis under its name)
    if abs(line.size - body.size) > 0.75 or (line.style.bold and not body.bold):
        return False
    return len(following.lines) > 1 or len(line.text.split()) >= 4


def _below(following: Block, block: Block) -> bool:
    """``following`` ranks below ``block``: set smaller, or as large but not bold where it is."""
    first, next_ = block.lines[0].style, following.lines[0].style
    if next_.size < first.size - 0.25:
        return True
    return abs(next_.size - first.size) <= 0.25 and first.bold and not next_.bold


def _marker(block: Block) -> bool:
    """A block that is only a number or a bullet ("2.", "(iv)", "•")."""
    text = " ".join(ln.text for ln in block.lines).strip()
    return bool(block.lines) and len(text) <= 5 and sum(c.isalpha() for c in text) <= 2 and not text.isalpha()


def _run_in(block: Block, page_lines: Sequence[Line]) -> bool:
    """Another line on the page sits on the block's first baseline, touching it: the block is
    the bold start of a sentence the line goes on with, not a line of its own."""
    first = block.lines[0]
    for other in page_lines:
        if other is first or other in block.lines:
            continue
        level = abs(other.bottom - first.bottom) < 0.3 * first.size
        gap = max(other.x0 - first.x1, first.x0 - other.x1)
        if level and -1.0 < gap < 0.8 * first.size:
            return True
    return False


def _side_by_side(block: Block, blocks: Sequence[Block]) -> bool:
    """Another short block in the same type stands at the same height beside it (a diagram's
    labels, a form's column heads): labels, not the start of a section."""
    first = block.lines[0]
    for other in blocks:
        if other is block or other.item is not None or not other.lines:
            continue
        line = other.lines[0]
        if _marker(other):
            continue
        same = line.style.size == first.style.size and line.style.bold == first.style.bold
        level = abs(line.top - first.top) < 0.5 * first.size
        gap = max(other.x0 - block.x1, block.x0 - other.x1)
        if same and level and 0 <= gap < 4 * first.size and len(other.lines) <= 3:
            return True
    return False
