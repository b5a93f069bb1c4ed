"""Typography: the body's type size, heading sizes and levels, page furniture, the outline."""

from __future__ import annotations

import re

from parsers.pdf.layout import Line, Page
from parsers.pdf.text import normalize

_MARGIN = 0.08  # top and bottom share of a page where running headers and footers live
_PAGE_NUMBER = re.compile(r"^(page\s*)?\d{1,4}(\s*(of|/)\s*\d{1,4})?$", re.IGNORECASE)


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", text.lower())


def furniture_lines(pages: list[Page]) -> set[tuple[int, str]]:
    """Lines in the top or bottom margin that repeat (digits aside) on many pages, and page numbers."""
    seen: dict[str, set[int]] = {}
    for page in pages:
        for line in page.lines:
            if _in_margin(line, page):
                seen.setdefault(_key(line.text), set()).add(page.number)
    repeated = {k for k, on in seen.items() if len(on) >= 2 and len(on) >= 0.4 * len(pages)}
    out = set()
    for page in pages:
        for line in page.lines:
            if _in_margin(line, page) and (_key(line.text) in repeated or _PAGE_NUMBER.match(line.text)):
                out.add((page.number, line.text))
    return out


def _in_margin(line: Line, page: Page) -> bool:
    return line.top < page.height * _MARGIN or line.bottom > page.height * (1 - _MARGIN)


def body_height(pages: list[Page]) -> float:
    heights: dict[float, int] = {}
    for page in pages:
        for line in page.lines:
            size = round(line.height, 1)
            heights[size] = heights.get(size, 0) + len(line.text)
    return max(heights, key=lambda h: heights[h]) if heights else 0.0


def heading_levels(pages: list[Page], body: float, furniture: set[tuple[int, str]]) -> dict[float, int]:
    """Type sizes clearly above the body's, largest first, as heading levels 1-3."""
    sizes = sorted(
        {
            round(line.height, 1)
            for page in pages
            for line in page.lines
            if body
            and line.height >= body * 1.15
            and len(line.text) <= 120
            and (page.number, line.text) not in furniture
        },
        reverse=True,
    )
    return {size: min(n + 1, 3) for n, size in enumerate(sizes)}


_NUMBERING = re.compile(r"^\s*((\d+|[ivxlc]+|[a-z])([.)]\d+)*[.)]?\s+)", re.IGNORECASE)


def outline_key(text: str) -> str:
    """Outline titles and heading lines compared without numbering, case or spacing."""
    return " ".join(_NUMBERING.sub("", normalize(text)).lower().split())


def outline_level(outline: dict[tuple[str, int | None], int], line: Line) -> int | None:
    key = outline_key(line.text)
    return outline.get((key, line.page)) or outline.get((key, None))


def wordy(text: str) -> bool:
    """Headings are a few words: not a sentence, a URL, a number or a code set large."""
    letters = sum(c.isalpha() for c in text)
    words = len(text.split())
    return letters >= 3 and letters >= 0.6 * len(text.replace(" ", "")) and words <= 14 and text[-1] not in ".,;"


def label(text: str) -> bool:
    """A short run of words, perhaps after a section number ("2.1 Scope"), not a value."""
    words = re.sub(r"^\d+(\.\d+)*\.?\s+", "", text)
    letters = sum(c.isalpha() for c in words)
    compact = words.replace(" ", "")
    return letters >= 4 and letters >= 0.85 * len(compact) and len(words.split()) <= 8 and text[-1] not in ":.,;"
