"""Typography: the body style, page furniture, headings and their levels.

Body style is the (font, size, weight, slant) most characters are set in. A heading is a short
block set wholly in another style (larger by at least ~0.75 pt, or bold, italic or another family
at body size) or starting with a section number, never smaller than the body, and in a style
that is not common on its page (a bold form or table is not a column of headings). Levels come
from the outline where it names the heading, else from section-number depth, else from style
clusters ranked by size and weight. The section number right after a heading's weighs for a
block, and makes a bold line alone that style leaves out (in the body's style, one common on its
page as in a form whose bold labels outnumber its text, or bold over a bold label) a candidate
(``_continued``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from parsegate.parsers.pdf.confidence import THRESHOLD, Weighing, next_block, weigh
from parsegate.parsers.pdf.layout import Bookmark, Line, Page, Style
from parsegate.parsers.pdf.lines import join_lines
from parsegate.parsers.pdf.order import Block
from parsegate.parsers.pdf.outline import Outline, tree_levels

_BAND = 0.08  # outer share of the page where anything may be furniture
_WIDE_BAND = 0.15  # outer share where an isolated line may be furniture
_MAX_LEVEL = 4
_ROMAN = r"[ivxlcdm]{1,7}"
_FOLIO = re.compile(
    rf"^(page\s*)?(\d{{1,4}}|{_ROMAN})(\s*(of|/)\s*\d{{1,4}})?$|^[-–—]\s*\d{{1,4}}\s*[-–—]$|^\d{{1,3}}[-–.]\d{{1,4}}$",
    re.I,
)
_ENDS_IN_FOLIO = re.compile(rf"^\D.{{1,80}}\s(\d{{1,4}}|{_ROMAN}|\d{{1,3}}[-–]\d{{1,4}})$", re.I)
_STARTS_WITH_FOLIO = re.compile(rf"^(\d{{1,4}}|{_ROMAN})\s+\D.{{1,80}}$", re.I)


_NUMBERED = re.compile(
    r"^((?P<dec>\d{1,2}(\.\d{1,2}){0,4})\.?|[IVX]{1,5}\.|[A-H]\.|(chapter|section|part|appendix|annex)\s+[\dIVXA-H]+[.:]?)\s+\S",
    re.I,
)


def is_folio(text: str) -> bool:
    """A line that is a page number alone ("12", "iv", "Page 3 of 9", "- 7 -")."""
    return bool(_FOLIO.match(text))


def folio_in_band(line: Line, height: float) -> bool:
    """A page number alone in the page's outer band (its top or foot)."""
    return is_folio(line.text) and (line.bottom < height * _BAND or line.top > height * (1 - _BAND))


# -- body style ----------------------------------------------------------------------------------


def body_style(pages: Iterable[Page]) -> Style:
    """The style most characters are set in."""
    chars: Counter[Style] = Counter()
    for page in pages:
        for line in [*page.lines, *(ln for t in page.tables for ln in t.lines)]:
            chars[line.style] += len(line.text)
    return chars.most_common(1)[0][0] if chars else Style()


# -- furniture -----------------------------------------------------------------------------------


def _key(text: str) -> str:
    text = re.sub(rf"\b({_ROMAN})\b", "#", text.lower())
    return " ".join(re.sub(r"\d+", "#", text).split())


def furniture_lines(pages: Sequence[Page], body: Style) -> set[Line]:
    """Running headers and footers (the same text, or text at the same place, on several
    pages, never set larger than the body: that is a heading at the top of each page), page
    numbers, a folio line on a page of its own, and watermarks."""
    edge = {page.number: _edge_lines(page) for page in pages}
    # Counted by page, and on a landscape sheet by half: a two-page spread on one sheet repeats
    # its head on each half.
    by_text: dict[str, set[tuple[int, int]]] = defaultdict(set)
    by_place: dict[tuple[int, int], set[int]] = defaultdict(set)
    for page in pages:
        for line, isolated in edge[page.number]:
            half = int((line.x0 + line.x1) / 2 > page.width / 2) if isolated and page.width > page.height else 0
            by_text[_key(line.text)].add((page.number, half))
            if isolated:  # every page's first line of body text stands at the same height too
                by_place[(round(line.top / 3), round(line.size))].add(page.number)
    enough = max(2.0, min(3.0, 0.4 * len(pages)))
    out: set[Line] = set()
    for page in pages:
        for line, isolated in edge[page.number]:
            small = line.size <= body.size + 1.0
            repeated = small and len(by_text[_key(line.text)]) >= enough
            placed = (
                small
                and isolated
                and len(line.text) <= 80
                # found by its place alone: a head opens with a capital or a number, never with
                # the lower-case rest of the sentence the page before left unfinished
                and not line.text[:1].islower()
                and len(by_place[(round(line.top / 3), round(line.size))]) >= max(3, 0.4 * len(pages))
            )
            if repeated or placed or (isolated and _folio(line, page) and not _table_cell(line, page)):
                out.add(line)
        out.update(_last_folio(page))
    return out | _watermarks(pages, body)


def _watermarks(pages: Sequence[Page], body: Style) -> set[Line]:
    """Lines set at twice the body's size or more whose text stands at the same place on at least
    three pages and two in five: a stamp over the page ("DRAFT" at 90 pt across each page of an
    exam's copies), wherever on the page. (Text of the body size that repeats there, as each copy
    of an exam repeats its questions, is the document's.)"""
    large = [(page.number, line) for page in pages for line in page.lines if line.size >= 2 * body.size]
    places: dict[tuple[str, int, int], set[int]] = defaultdict(set)
    for number, line in large:
        places[_place(line)].add(number)
    enough = max(3.0, 0.4 * len(pages))
    return {line for _, line in large if len(places[_place(line)]) >= enough}


def _place(line: Line) -> tuple[str, int, int]:
    """A line's text and where it stands, to 3 pt."""
    return line.text, round(line.x0 / 3), round(line.top / 3)


def _last_folio(page: Page) -> list[Line]:
    """A bare page number as the page's last line, set well apart from the text above it, however
    high it stands: a document set for one paper size and printed on a taller one (US letter on
    A4) puts its folio above the page's outer band."""
    if not page.lines:
        return []
    last = max(page.lines, key=lambda ln: ln.bottom)
    if not is_folio(last.text) or last.bottom < page.height * (1 - 2 * _WIDE_BAND):
        return []
    above = [o.bottom for o in page.lines if o.row != last.row and o.top < last.top]
    alone = all(o.row == last.row for o in page.lines if abs(o.top - last.top) < last.size)
    apart = not above or last.top - max(above) >= 2 * last.size
    return [last] if alone and apart and not _table_cell(last, page) else []


def _table_cell(line: Line, page: Page) -> bool:
    """A fragment of a line cut at wide gaps, next to another such line (just above or below)
    that starts two or more of its fragments where this one's start: a row of a table (a table
    cut by a page break leaves rows at the top of the next page: "Files  8058  benefit"), not
    a page number at the end of a running head."""
    rows: dict[int, list[Line]] = defaultdict(list)
    for ln in page.lines:
        rows[ln.row].append(ln)
    mine = rows[line.row]
    if len(mine) < 2:
        return False
    reach = 2.5 * line.size
    return any(
        row != line.row
        and len(pieces) >= 2
        and abs(pieces[0].top - line.top) <= reach
        and sum(any(abs(p.x0 - q.x0) <= 2.0 for q in mine) for p in pieces) >= 2
        for row, pieces in rows.items()
    )


def _edge_lines(page: Page) -> list[tuple[Line, bool]]:
    """Lines in the page's outer bands, and whether each is set apart from the text block."""
    out: list[tuple[Line, bool]] = []
    for line in page.lines:
        top_band = line.bottom < page.height * _WIDE_BAND
        bottom_band = line.top > page.height * (1 - _WIDE_BAND)
        if line.sideways and (line.x1 < page.width * _WIDE_BAND or line.x0 > page.width * (1 - _WIDE_BAND)):
            out.append((line, True))  # a margin note set sideways, as printers stamp them
            continue
        if not (top_band or bottom_band):
            continue
        reach = 2 * line.size  # the text block under (or over) it, not the column beside it
        near = [
            o for o in page.lines
            if o is not line and o.row != line.row and o.x1 > line.x0 - reach and o.x0 < line.x1 + reach
        ]  # fmt: skip
        below = min((o.top - line.bottom for o in near if o.top > line.top), default=999.0)
        above = min((line.top - o.bottom for o in near if o.top < line.top), default=999.0)
        inner, outer = (below, above) if top_band else (above, below)
        # Set apart from the text block, and not the last line of a paragraph that ends there.
        isolated = inner >= 1.0 * line.size and outer >= 1.0 * line.size
        in_band = line.top < page.height * _BAND or line.bottom > page.height * (1 - _BAND)
        if isolated or in_band:
            out.append((line, isolated))
    return out


def _folio(line: Line, page: Page) -> bool:
    if is_folio(line.text):
        return True
    top = line.bottom < page.height * _BAND
    bottom = line.top > page.height * (1 - _BAND)
    # "Annual report 2024 12" at the foot; "12 Annual report" only at the head (at the foot
    # a number first is a footnote).
    return (
        (top or bottom)
        and len(line.text.split()) <= 12
        and bool(_ENDS_IN_FOLIO.match(line.text) or (top and _STARTS_WITH_FOLIO.match(line.text)))
    )


# -- headings ------------------------------------------------------------------------------------


@dataclass
class Heading:
    text: str
    level: int
    confidence: float = 1.0  # confidence.py: how sure it is to start a section


def heading_text(block: Block) -> str:
    return join_lines(block.lines)


def find_headings(
    pages: Sequence[tuple[Page, list[Block]]], body: Style, outline: Sequence[Bookmark]
) -> tuple[dict[Block, Heading], list[tuple[Block, Weighing]]]:
    """The heading blocks of the document, with their levels and confidence, and the candidates
    too doubtful to keep (read as text), with why."""
    found, marked, weighed = _candidates(pages, body, outline)
    continued = {} if outline else _continued(pages, body, found, weighed)
    doubtful = [(b, w) for b, w in weighed.items() if w.score < THRESHOLD]
    for block, _ in doubtful:
        del found[block]
        marked.pop(block, None)
    headings, front = _levels(found, marked)
    for block in front:
        weighed[block].against.append("not in the outline, and before its first heading")
        doubtful.append((block, weighed[block]))
    for block, heading in headings.items():
        heading.confidence = weighed[block].score
    for block, before in continued.items():
        if block in headings and before in headings:
            step = _parts(block) - _parts(before)
            headings[block].level = max(1, min(headings[before].level + step, _MAX_LEVEL))
    return headings, doubtful


def _candidates(
    pages: Sequence[tuple[Page, list[Block]]], body: Style, outline: Sequence[Bookmark]
) -> tuple[dict[Block, Style], dict[Block, int], dict[Block, Weighing]]:
    """Heading blocks with their style, the outline's level for those it names, and how sure
    each is."""
    index = Outline.of(outline)
    used: set[int] = set()  # a bookmark names one heading: the first that reads as its title
    found: dict[Block, Style] = {}
    marked: dict[Block, int] = {}
    weighed: dict[Block, Weighing] = {}
    where: dict[Block, tuple[Page, list[Block], int]] = {}
    for page, blocks in pages:
        common = _common_styles(page)
        for n, block in enumerate(blocks):
            if block.item is not None or not block.lines:
                continue
            hit = index.match(heading_text(block), page.number)
            level = index.level(hit) if hit is not None and hit not in used else None
            if hit is not None:
                used.add(hit)
            if level:
                marked[block] = level
            following = blocks[n + 1] if n + 1 < len(blocks) else None
            if level or _heading_like(block, body, common, _leads(following, body)):
                found[block] = block.lines[0].style
                where[block] = (page, blocks, n)
    for block, (page, blocks, n) in where.items():
        weighed[block] = weigh(block, blocks, n, page.lines, body, named=block in marked, candidates=found)
    # Again, knowing which candidates the first weighing kept, those a kept one follows: one
    # followed at once by a kept heading as large opens an empty section (a letterhead's lines,
    # a figure's labels). The others weigh as they did.
    kept = {block for block, weighing in weighed.items() if weighing.score >= THRESHOLD}
    for block, (page, blocks, n) in where.items():
        if next_block(blocks, n) in kept:
            named = block in marked
            weighed[block] = weigh(block, blocks, n, page.lines, body, named=named, candidates=found, kept=kept)
    return found, marked, weighed


def _continued(
    pages: Sequence[tuple[Page, list[Block]]],
    body: Style,
    found: dict[Block, Style],
    weighed: dict[Block, Weighing],
) -> dict[Block, Block]:
    """Blocks that carry the next section number after a heading's ("3 Scope" after "2.5
    Terms"), weighed again with that in their favour: a candidate found doubtful, and a line alone
    in a heavy type that style leaves out (the body's own, where a form's bold label cells
    outnumber its text, or one common on its page, or bold over a bold label). Those the weighing
    keeps are candidates; the result maps each to the heading it continues. The number must
    follow that heading's, with no other numbered block between them: "3." after list items "1."
    and "2." is an item, not a section."""
    out: dict[Block, Block] = {}
    last: Block | None = None
    for page, blocks in pages:
        for n, block in enumerate(blocks):
            if block.item is not None or not block.lines:
                continue
            number = _section_number(heading_text(block))
            if number is None:
                continue
            before, last = last, block
            if before is None or before not in weighed or weighed[before].score < THRESHOLD:
                continue
            if not _next_number(_section_number(heading_text(before)), number):
                continue
            candidate = block in found
            if candidate and weighed[block].score >= THRESHOLD:
                continue  # a heading already, its level from its style
            if not candidate and not _standalone(block, body):
                continue
            weighing = weigh(block, blocks, n, page.lines, body, named=False, candidates=found, continues=True)
            if weighing.score >= THRESHOLD:
                found[block], weighed[block], out[block] = block.lines[0].style, weighing, before
            elif candidate:
                weighed[block] = weighing  # still doubtful; a line that was no candidate stays unremarked
    return out


_SECTION = re.compile(r"^(-?)(\d{1,2}(?:[.-]\d{1,2}){0,4})[.-]?\s+\S")


def _section_number(text: str) -> tuple[str, tuple[int, ...]] | None:
    """A section number's scheme (a leading dash, as right-to-left forms set "-2-5") and its
    parts: "2.5 Terms" → ("", (2, 5)), "-3 Scope" → ("-", (3,))."""
    m = _SECTION.match(text)
    if m is None:
        return None
    return m.group(1), tuple(int(p) for p in re.split(r"[.-]", m.group(2)))


def _parts(block: Block) -> int:
    number = _section_number(heading_text(block))
    return len(number[1]) if number else 0


def _next_number(before: tuple[str, tuple[int, ...]] | None, number: tuple[str, tuple[int, ...]]) -> bool:
    """``number`` comes right after ``before``: its first child, its next sibling, or the next
    sibling of one of its parents ("2.5" → "2.5.1", "2.6", "3")."""
    if before is None or before[0] != number[0]:
        return False
    parts, new = before[1], number[1]
    if new == (*parts, 1):
        return True
    return any(new == (*parts[: k - 1], parts[k - 1] + 1) for k in range(1, len(parts) + 1))


def _standalone(block: Block, body: Style) -> bool:
    """One short line of words in a heavy type, not smaller than the body."""
    lines = block.lines
    if len(lines) != 1 or not lines[0].uniform:
        return False
    style, text = lines[0].style, heading_text(block)
    heavy = style.bold or style.size >= body.size + 0.75
    return heavy and not style.mono and style.size >= body.size - 0.25 and _wordy(text) and _label(text)


def _leads(following: Block | None, body: Style) -> bool:
    """What follows is text in the body's size (or a table, a figure, the next page): a label
    over another label, a form field over its value, is no heading."""
    if following is None or following.item is not None or not following.lines:
        return True
    return abs(following.lines[0].size - body.size) <= 0.75 and not (
        following.lines[0].style.bold and not body.bold and len(following.lines) == 1
    )


def _levels(found: dict[Block, Style], marked: dict[Block, int]) -> tuple[dict[Block, Heading], list[Block]]:
    """Levels by style rank; within one style deeper section numbers go deeper ("1.2.3" set
    like "1.2"). Where an outline names headings it is the section tree (outline.py): its
    levels keep their steps but start where the style ranks put those headings (a title the
    outline leaves out stays above them). Also the candidates the outline rules out."""
    ranks = _style_ranks(found)
    depths: dict[tuple[float, bool, bool], int] = {}
    for block, style in found.items():
        depth = _numbering_depth(heading_text(block))
        if depth is not None:
            depths[_rank_key(style)] = min(depth, depths.get(_rank_key(style), depth))
    shift = max(0, min((ranks[_rank_key(found[b])] - level for b, level in marked.items()), default=0))
    styled = {}
    for block, style in found.items():
        style_key = _rank_key(style)
        depth = _numbering_depth(heading_text(block))
        styled[block] = ranks[style_key] + (depth - depths[style_key] if depth is not None else 0)
    if not marked:
        return {block: Heading(heading_text(block), min(level, _MAX_LEVEL)) for block, level in styled.items()}, []
    levels, front = tree_levels(list(found), {b: level + shift for b, level in marked.items()}, styled)
    return {block: Heading(heading_text(block), level) for block, level in levels.items()}, front


def _common_styles(page: Page) -> set[tuple[float, bool, bool]]:
    """Styles that cover over a third of the page's lines: not headings there."""
    counts = Counter(_rank_key(ln.style) for ln in page.lines)
    return {k for k, n in counts.items() if n >= 4 and n > len(page.lines) / 3}


def _heading_like(block: Block, body: Style, common: set[tuple[float, bool, bool]], leads: bool) -> bool:
    """A short block wholly in a non-body style. Set larger than the body is enough; bold,
    italic or another family at body size also needs body text to follow it."""
    lines = block.lines
    if len(lines) > 3 or not all(ln.uniform for ln in lines):
        return False
    text = heading_text(block)
    if not _wordy(text):
        return False
    style = lines[0].style
    if style.size < body.size - 0.25 or style.mono or _rank_key(style) in common:
        return False
    if style.size >= body.size + 0.75:
        return True
    distinct = (style.bold and not body.bold) or (style.italic and not body.italic and len(lines) == 1)
    # Another family alone is a weak sign (a quotation, a passage in another script): one
    # short line only.
    other_family = (
        _family(style.font) != _family(body.font) and style.size >= body.size
        and len(lines) == 1 and len(text.split()) <= 10
    )  # fmt: skip
    if not leads:
        return False
    if (distinct or other_family) and _label(text):
        return True
    return bool(_NUMBERED.match(text)) and len(lines) == 1 and _label(text) and style.key != body.key


def _wordy(text: str) -> bool:
    """A few words, one of three letters at least: not a sentence, a URL, a number, a code
    ("N/A") or a formula set large."""
    compact = text.replace(" ", "")
    letters = sum(c.isalpha() for c in compact)
    word = any(sum(c.isalpha() for c in w) >= 3 for w in text.split())
    return word and letters >= 0.5 * len(compact) and len(text.split()) <= 20 and text[-1] not in ".,;:"


def _label(text: str) -> bool:
    """A short run of words, perhaps after a section number ("2.1 Scope (1980-1990)")."""
    words = _NUMBERED.sub(lambda m: m.group(0)[-1], text, count=1)
    compact = words.replace(" ", "")
    letters = sum(c.isalpha() for c in compact)
    return letters >= 2 and letters >= 0.6 * len(compact) and len(words.split()) <= 14


def _family(font: str) -> str:
    return re.split(r"[-,]", font.lower(), maxsplit=1)[0].rstrip("0123456789")[:6]


def _rank_key(style: Style) -> tuple[float, bool, bool]:
    return (style.size, style.bold, style.italic)


def _style_ranks(found: dict[Block, Style]) -> dict[tuple[float, bool, bool], int]:
    """Heading styles ranked by size, then weight, then upright. Styles seen once and larger
    than every recurring one (a title, a cover's display type) share the first rank, so that a
    cover with many display sizes does not use up the levels."""
    seen = Counter(_rank_key(s) for s in found.values())
    recurring = [k for k, n in seen.items() if n >= 2]
    top = max((k[0] for k in recurring), default=0.0)
    display = {k for k, n in seen.items() if n == 1 and k[0] > top} if recurring else set()
    rest = sorted((k for k in seen if k not in display), key=lambda k: (-k[0], not k[1], k[2]))
    first = 2 if display else 1
    return {**{k: 1 for k in display}, **{k: n + first for n, k in enumerate(rest)}}


def _numbering_depth(text: str) -> int | None:
    m = _NUMBERED.match(text)
    if m is None or m.group("dec") is None:
        return None
    return m.group("dec").count(".") + 1
