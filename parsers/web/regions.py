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
}  # fmt: skip
_WORD = re.compile(r"[a-z]+")
_SKIP_LINK = re.compile(r"^\s*(skip|jump)\s+(to|over)\b", re.IGNORECASE)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_PROSE_TAGS = frozenset({"p", "pre", "td", "dd", "blockquote", "li"})
_TOC_MIN_LINKS = 3


_MAX_CANDIDATES = 16  # <main>/<article> elements weighed against each other (each is one text scan)


@dataclass
class Regions:
    main: Node
    how: str  # "<main>", "<article>", "text density", "the whole page"
    chrome: dict[Node, str] = field(default_factory=dict)  # region root → reason
    main_path: set[Node] = field(default_factory=set)  # the main content's ancestors


def find_regions(body: Node) -> Regions:
    main, how = _main_content(body)
    regions = Regions(main, how, main_path=set(main.iterancestors()))
    inside = set(main.iter())
    holds_title = _ancestors_of(body.iter("h1"))
    for el, reason in _chrome(body, inside):
        if el is main or el in regions.main_path:
            continue  # a block that holds the content is never chrome
        if reason.endswith("')") and el in holds_title:
            continue  # named like chrome ("has-sidebar"), but it holds the page's title
        regions.chrome[el] = reason
    return regions


# -- the main content ------------------------------------------------------------------


def _main_content(body: Node) -> tuple[Node, str]:
    mains = [el for el in body.iter("main") if not _hidden(el)][:_MAX_CANDIDATES]
    if not mains:
        mains = [el for el in body.xpath(".//*[@role='main']") if not _hidden(el)][:_MAX_CANDIDATES]
    if mains:
        return max(mains, key=_words), "<main>"
    articles = [el for el in body.iter("article") if not _hidden(el)][:_MAX_CANDIDATES]
    if articles:
        sizes = {a: _words(a) for a in articles}
        largest = max(articles, key=sizes.__getitem__)
        others = sum(n for a, n in sizes.items() if a is not largest and a not in set(largest.iter("article")))
        if sizes[largest] >= 2 * others:
            return largest, "<article>"
    return _densest(body)


def _densest(body: Node) -> tuple[Node, str]:
    stats = _Stats(body)
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
    best = max(scores, key=lambda el: scores[el] * (1 - stats.link_density(el)))
    return _grown(best, body, stats), "text density"


def _grown(best: Node, body: Node, stats: _Stats) -> Node:
    """Up from the densest block while what each parent adds is mostly text, not links."""
    node = best
    while node is not body:
        parent = node.getparent()
        if parent is None:
            break
        words = stats.words[parent] - stats.words[node]
        links = stats.links[parent] - stats.links[node]
        if words and links / words >= 0.5:
            break
        node = parent
    return node


class _Stats:
    """Words and words inside links under every element, in one pass (deepest first)."""

    def __init__(self, body: Node) -> None:
        self.words: dict[Node, int] = {}
        self.links: dict[Node, int] = {}
        order = list(body.iter())
        for el in order:
            own = len((el.text or "").split()) + sum(len((c.tail or "").split()) for c in el)
            self.words[el] = own
            self.links[el] = 0
        for el in reversed(order):
            if el.tag == "a":
                self.links[el] = self.words[el]
            parent = el.getparent()
            if parent is not None and parent in self.words:
                self.words[parent] += self.words[el]
                self.links[parent] += self.links[el]

    def link_density(self, el: Node) -> float:
        words = self.words.get(el, 0)
        return self.links.get(el, 0) / words if words else 0.0


# -- chrome -----------------------------------------------------------------------------


def _chrome(body: Node, inside: set[Node]) -> Iterator[tuple[Node, str]]:
    in_list: set[Node] = set()  # lists inside a list already weighed as a table of contents
    for el in body.iter():
        tag = el.tag if isinstance(el.tag, str) else ""
        reason = _hidden(el) or _LANDMARKS.get(tag) or _ROLES.get((el.get("role") or "").strip().lower())
        if reason is None and tag in _OUTER_LANDMARKS:
            reason = _OUTER_LANDMARKS[tag] if el not in inside else None
            if reason is None and tag == "footer":
                reason = "footer of the content (<footer>)"
        if reason is None:
            reason = _by_name(el)
        if reason is None and tag == "a" and _SKIP_LINK.match(" ".join(el.itertext())):
            reason = "skip link"
        if reason is None and tag in ("ul", "ol") and el not in in_list:
            in_list.update(el.iter("ul", "ol"))
            if _table_of_contents(el):
                reason = "table of contents (links to this page's own headings)"
        if reason is not None:
            yield el, reason


def _hidden(el: Node) -> str | None:
    if el.get("hidden") is not None:
        return "hidden (hidden attribute)"
    if (el.get("aria-hidden") or "").strip().lower() == "true":
        return "hidden (aria-hidden)"
    style = el.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return "hidden (style)"
    return None


def _by_name(el: Node) -> str | None:
    names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
    if not names.strip():
        return None
    for word in _WORD.findall(names):
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
    words = _words(el)
    linked = sum(len(" ".join(a.itertext()).split()) for a in links)
    return local >= 0.6 * len(links) and words > 0 and linked >= 0.8 * words


# -- measures ---------------------------------------------------------------------------


def _words(el: Node) -> int:
    return len(" ".join(el.itertext()).split())


def _own_text(el: Node) -> str:
    """The text directly in an element and in its inline children (not in nested blocks)."""
    return " ".join(t for t in el.xpath("text()|*[not(self::ul or self::ol or self::table)]/text()") if t)


def _ancestors_of(nodes: Iterator[Node]) -> set[Node]:
    """Every ancestor of the given nodes, each path walked only up to a node already marked."""
    marked: set[Node] = set()
    for node in nodes:
        parent = node.getparent()
        while parent is not None and parent not in marked:
            marked.add(parent)
            parent = parent.getparent()
    return marked
