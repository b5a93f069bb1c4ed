"""Where a web page's content is, and what is site chrome around it.

The main content is the page's ``<main>`` (or ``role=main``), else its one ``<article>`` (the
largest, when blog comments are articles too), else the block that holds most of the page's
prose: paragraphs score their parent (and half their grandparent) as readability does, the best
block wins, and it grows to its parent as long as what the parent adds is not mostly links.

Chrome is kept out as furniture, each region with its reason: landmarks (``<nav>``, ``<aside>``,
``<header>``/``<footer>`` outside the content, dialogs, ARIA roles), blocks whose class or id
names chrome (sidebar, breadcrumbs, cookie banner, table of contents…), "skip to content" links,
hidden blocks, lists of links to this page's own headings, and everything outside the content.
A block that holds the content itself is never chrome.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

Node = etree._Element

_LANDMARKS = {
    "nav": "navigation (<nav>)",
    "aside": "sidebar (<aside>)",
    "dialog": "dialog (<dialog>)",
    "menu": "menu (<menu>)",
}
_OUTER_LANDMARKS = {"header": "page header (<header>)", "footer": "page footer (<footer>)"}
_ROLES = {
    "navigation": "navigation (role=navigation)",
    "banner": "page header (role=banner)",
    "contentinfo": "page footer (role=contentinfo)",
    "complementary": "sidebar (role=complementary)",
    "dialog": "dialog (role=dialog)",
    "alertdialog": "dialog (role=alertdialog)",
    "search": "search (role=search)",
    "menu": "menu (role=menu)",
    "menubar": "menu (role=menubar)",
    "toolbar": "toolbar (role=toolbar)",
}
# Words in a class or id that name chrome (matched as whole words of "md-sidebar__inner" etc.).
_CHROME_WORDS = {
    "sidebar": "sidebar", "sidenav": "sidebar", "navbar": "navigation", "nav": "navigation",
    "navigation": "navigation", "menu": "menu", "menubar": "menu", "breadcrumb": "breadcrumbs",
    "breadcrumbs": "breadcrumbs", "toc": "table of contents", "cookie": "cookie banner",
    "cookies": "cookie banner", "consent": "cookie banner", "gdpr": "cookie banner", "modal": "dialog",
    "popup": "dialog", "dialog": "dialog", "skip": "skip link", "share": "share buttons",
    "social": "share buttons", "comments": "comments", "comment": "comments", "respond": "comments",
    "newsletter": "newsletter sign-up", "subscribe": "newsletter sign-up", "pagination": "pagination",
    "pager": "pagination", "footer": "page footer", "masthead": "page header", "banner": "banner",
    "advert": "advertising", "ads": "advertising", "sponsored": "advertising", "related": "related links",
    "navheader": "navigation", "navfooter": "navigation",  # DocBook's Prev | Up | Home | Next tables
}  # fmt: skip
_WORD = re.compile(r"[a-z]+")
_SKIP_LINK = re.compile(r"^\s*(skip|jump)\s+(to|over)\b", re.IGNORECASE)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_PROSE_TAGS = ("p", "pre", "td", "blockquote")  # as readability scores
_TOC_MIN_LINKS = 3
# Lists not inside another list (a nested list is weighed with the list around it).
# (``descendant::`` rather than ``.//``: libxml2 evaluates ``.//*[@class]`` in quadratic time.)
_TOC_LISTS = "descendant::*[(self::ul or self::ol) and not(ancestor::ul or ancestor::ol)]"
_ANY_LANDMARK = frozenset({*_LANDMARKS, *_OUTER_LANDMARKS})
_TOP_BLOCKS = 5  # blocks by score whose link density is measured (each is one text scan)
_MAX_CLIMB = 12  # levels the densest block may grow upwards


_MAX_CANDIDATES = 16  # <main>/<article> elements weighed against each other (each is one text scan)
# The densest block is the content unless it is both short and a small part of the page.
_MIN_CONTENT_CHARS = 200
_MIN_CONTENT_SHARE = 0.25
WHOLE_PAGE_FALLBACK = "the whole page (its densest prose block was too small a part of it)"


@dataclass
class Regions:
    main: Node
    how: str  # "<main>", "<article>", "text density", "the whole page", WHOLE_PAGE_FALLBACK
    chrome: dict[Node, str] = field(default_factory=dict)  # region root → reason
    main_path: set[Node] = field(default_factory=set)  # the main content's ancestors


def find_regions(body: Node, whole: str | None = None) -> Regions:
    """``whole``: the body is the content, so named (an EPUB's chapter); its chrome is still found."""
    main, how = (body, whole) if whole else _main_content(body)
    regions = Regions(main, how, main_path=set(main.iterancestors()))
    inside = set(main.iter())
    holds_title = _ancestors_of(body.iter("h1"))
    for el, reason in _chrome(body, inside):
        if el is main or el in regions.main_path:
            continue  # a block that holds the content is never chrome
        if reason.endswith("')") and el in holds_title:
            continue  # named like chrome ("has-sidebar"), but it holds the page's title
        if el in inside and _doubtful(reason) and _prose(el):
            # Inside the content, a name, an <aside>, a dialog role or a hidden tab panel is no proof
            # of chrome: a warning box, an article's footnote, a tab's text (issue 39). Prose stays.
            continue
        regions.chrome[el] = reason
    return regions


# Inside the content these are chrome only when the block is no prose: a class or id name, an
# <aside> or a complementary role (a callout), a dialog, a hidden block (a tab panel), its footer.
# Navigation, skip links, contents lists, search, menus and toolbars are chrome wherever they stand.
_DOUBTFUL = ("sidebar (<aside>)", "sidebar (role=complementary)", "dialog (", "hidden (", "footer of the content")


# Names that say navigation (or readers' comments: talk about the page, not the page) are chrome
# inside the content too; a name like "cookie", "footer" or "sidebar" on prose is no proof.
_NAVIGATION_NAMES = ("navigation", "menu", "breadcrumbs", "table of contents", "pagination", "skip link", "comments")


def _doubtful(reason: str) -> bool:
    return (reason.endswith("')") and not reason.startswith(_NAVIGATION_NAMES)) or reason.startswith(_DOUBTFUL)


_PROSE_CHARS = 80  # text a block inside the content needs to count as prose, not a widget


def _prose(el: Node) -> bool:
    """Whether a block holds text of its own, not mostly links."""
    size = _size(el)
    return size >= _PROSE_CHARS and _link_size(el) < 0.5 * size


# -- the main content ------------------------------------------------------------------


def _main_content(body: Node) -> tuple[Node, str]:
    mains = [el for el in body.iter("main") if not _hidden(el)][:_MAX_CANDIDATES]
    if not mains:
        mains = [el for el in body.xpath("descendant::*[@role='main']") if not _hidden(el)][:_MAX_CANDIDATES]
    if mains:
        main = max(mains, key=_size)
        if not _too_small(main, body):
            return main, "<main>"
        # A <main> that holds the title alone, its article a sibling (issue 39): the densest prose
        # block joins it, under the nearest block that holds both.
        densest, how = _densest(body)
        if how == "text density" and densest is not main and main not in densest.iterancestors():
            return _common_ancestor(main, densest), "<main> and the text beside it"
        return main, "<main>"
    articles = [el for el in body.iter("article") if not _hidden(el)][:_MAX_CANDIDATES]
    if articles:
        sizes = {a: _size(a) for a in articles}
        largest = max(articles, key=sizes.__getitem__)
        nested = set(largest.iter("article"))
        others = sum(n for a, n in sizes.items() if a not in nested)
        if sizes[largest] >= 2 * others:
            return largest, "<article>"
    return _densest(body)


def _densest(body: Node) -> tuple[Node, str]:
    scores: dict[Node, float] = {}
    for el in body.iter(*_PROSE_TAGS):
        text = _own_text(el)
        if len(text) < 25:
            continue
        score = 1 + text.count(",") + min(len(text) // 100, 3)
        parent = el.getparent()
        if parent is not None:
            scores[parent] = scores.get(parent, 0.0) + score
            grand = parent.getparent()
            if grand is not None:
                scores[grand] = scores.get(grand, 0.0) + score / 2
    if not scores:
        return body, "the whole page"
    top = sorted(scores, key=scores.__getitem__, reverse=True)[:_TOP_BLOCKS]
    best = max(top, key=lambda el: scores[el] * (1 - _link_density(el)))
    main = _grown(best, body)
    if _too_small(main, body):
        return body, WHOLE_PAGE_FALLBACK
    return main, "text density"


def _common_ancestor(a: Node, b: Node) -> Node:
    above_a = {a, *a.iterancestors()}
    node = b
    while node not in above_a:
        parent = node.getparent()
        assert parent is not None  # both lie under the body
        node = parent
    return node


def _too_small(main: Node, body: Node) -> bool:
    """Whether the densest block is too little of the page to be its content: a title block of
    64 characters on an API index of 9,500, whose content is lists of links (read as prose
    density, links are chrome). Such a page is its whole self, less the chrome it names."""
    size = _size(main)
    return size < _MIN_CONTENT_CHARS and size < _MIN_CONTENT_SHARE * _size(body)


def _grown(best: Node, body: Node) -> Node:
    """Up from the densest block while what each parent adds is mostly text, not links. Each
    step reads only what the parent adds (its other children): the whole climb is one scan."""
    node = best
    for _ in range(_MAX_CLIMB):
        parent = node.getparent()
        if node is body or parent is None:
            break
        size = len(" ".join((parent.text or "").split()))
        links = 0
        for child in parent:
            size += len(" ".join((child.tail or "").split()))
            if child is not node:
                size += _size(child)
                links += _link_size(child)
        if size and links / size >= 0.5:
            break
        node = parent
    return node


# -- chrome -----------------------------------------------------------------------------


def _chrome(body: Node, inside: set[Node]) -> Iterator[tuple[Node, str]]:
    """Chrome by kind, weakest first: a later kind overrides an earlier reason for the same
    block. One pass over the elements; an element without attributes is looked at only when
    its tag is a landmark."""
    found: dict[Node, str] = {}
    for el in body.xpath(_TOC_LISTS):
        if _table_of_contents(el):
            found[el] = "table of contents (links to this page's own headings)"
    for el in body.iter("table"):
        nav = _navigation_table(el)
        if nav is not None:
            found[el] = nav
    names: dict[str, str | None] = {}  # class and id strings repeat: each is read once
    for el in body.iter():
        tag = el.tag
        keys = el.keys()
        if not keys and tag not in _ANY_LANDMARK:
            continue
        reason = None
        local = tag == "a" and (el.get("href") or "").lstrip().startswith("#")
        if local and _SKIP_LINK.match(" ".join(el.itertext())):
            reason = "skip link"
        if "class" in keys or "id" in keys:
            key = f"{el.get('class') or ''} {el.get('id') or ''}"
            if key not in names:
                names[key] = _by_name(key)
            if names[key] is not None and not _in_text(el):
                reason = names[key]
        if tag in _OUTER_LANDMARKS:
            if el not in inside:
                reason = _OUTER_LANDMARKS[str(tag)]
            elif tag == "footer":
                reason = "footer of the content (<footer>)"
        if "role" in keys:
            reason = _ROLES.get((el.get("role") or "").strip().lower()) or reason
        reason = _LANDMARKS.get(str(tag)) or reason
        if "hidden" in keys or "aria-hidden" in keys or "style" in keys:
            reason = _hidden(el) or reason
        if reason is not None:
            found[el] = reason
    return iter(found.items())


# Inline tags: a run of words named like chrome ("hljs-comment", a highlighter's comment in a code
# block) is part of the text around it, not a region.
_INLINE = frozenset({"span", "em", "strong", "b", "i", "u", "code", "kbd", "samp", "var", "tt", "small", "mark"})


def _in_text(el: Node) -> bool:
    """Whether an element is inline text or lies inside a code block (never chrome by its name)."""
    return el.tag in _INLINE or any(a.tag in ("pre", "code") for a in el.iterancestors())


def _hidden(el: Node) -> str | None:
    if el.get("hidden") is not None:
        return "hidden (hidden attribute)"
    if (el.get("aria-hidden") or "").strip().lower() == "true":
        return "hidden (aria-hidden)"
    style = el.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return "hidden (style)"
    return None


def _by_name(names: str) -> str | None:
    for word in _WORD.findall(names.lower()):
        reason = _CHROME_WORDS.get(word)
        if reason is not None:
            return f"{reason} (class or id '{word}')"
    return None


def _table_of_contents(el: Node) -> bool:
    """A list whose text is (almost) all links, most of them to anchors on this page."""
    links = list(el.iter("a"))
    if len(links) < _TOC_MIN_LINKS:
        return False
    local = sum(1 for a in links if (a.get("href") or "").startswith("#"))
    size = _size(el)
    return local >= 0.6 * len(links) and size > 0 and _link_size(el) >= 0.8 * size


_NAV_SUMMARY = re.compile(r"\bnavigation\b", re.IGNORECASE)
_NAV_LINKS = 2  # links a table of links only needs to be navigation


def _navigation_table(table: Node) -> str | None:
    """A table that is navigation: one that says so (``summary`` or ``aria-label``: DocBook's
    "Navigation header"), or one of links only: every cell a link, empty, or the link's own page
    title repeated as a header ("Prev | Up | Home | Next"), with no cell of prose."""
    label = f"{table.get('summary') or ''} {table.get('aria-label') or ''}"
    if _NAV_SUMMARY.search(label):
        return "navigation (a table that says so)"
    if table.find(".//table") is not None:
        return None  # a layout table around content
    links = cells = 0
    for cell in table.iter("td"):
        text = " ".join(" ".join(cell.itertext()).split())
        if not text:
            continue
        cells += 1
        if _link_size(cell) < 0.9 * len(text):
            return None  # a cell with text of its own beside or instead of its link
        links += 1
    return "navigation (a table of links only)" if links >= _NAV_LINKS and links == cells else None


# -- measures ---------------------------------------------------------------------------


def _size(el: Node) -> int:
    """Characters of text, whitespace collapsed (counted by libxml2, no Python string made)."""
    return int(el.xpath("string-length(normalize-space(.))"))


def _link_size(el: Node) -> int:
    links = [el] if el.tag == "a" else el.iter("a")
    return sum(len(" ".join(" ".join(a.itertext()).split())) for a in links)


def _link_density(el: Node) -> float:
    size = _size(el)
    return _link_size(el) / size if size else 0.0


def _own_text(el: Node) -> str:
    """The text directly in an element and in its children (not in nested lists or tables)."""
    parts = [el.text or ""]
    for child in el:
        if child.tag not in ("ul", "ol", "table"):
            parts.append(child.text or "")
        parts.append(child.tail or "")
    return " ".join(parts)


def _ancestors_of(nodes: Iterator[Node]) -> set[Node]:
    """Every ancestor of the given nodes, each path walked only up to a node already marked."""
    marked: set[Node] = set()
    for node in nodes:
        parent = node.getparent()
        while parent is not None and parent not in marked:
            marked.add(parent)
            parent = parent.getparent()
    return marked
