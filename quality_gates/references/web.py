"""An HTML file's own text as libxml2 reads it (through lxml), for the gate.

The gate's reference for a web page was docling's export alone. What docling's HTML backend drops
was then not in the reference, and when our parser (its own walk over libxml2's tree) dropped it
too, the loss passed recall: a sentence a browser shows but that sits where HTML allows no text
(directly inside ``<table>`` or ``<tr>``, as sloppy pages write it). And words our parser kept from
such places were reported as not in the file. Every text node libxml2 finds is read here, by a
walk of its own (the parser's walk decides structure and what to keep; this one keeps all but
what a browser never shows), and the nodes docling's export lacks are checked on their own. A
misreading of libxml2 itself would be shared with the parser: docling's export stays the other,
independent reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from parsegate.quality_gates.words import words

# Text a browser does not show as the page's text (the <title> is the tab's).
_HIDDEN = frozenset({"head", "title", "script", "style", "template", "noscript", "svg", "math"})
_LEAST = 8  # letters and digits: a shorter node ("1.", "|", "»") says too little to be looked for


def text_nodes(data: bytes) -> list[str] | None:
    """The file's visible text nodes in document order, or None when libxml2 cannot read it."""
    import lxml.html

    # Decoded as docling's backend decodes it (BeautifulSoup's guess: a declared charset, else
    # what the bytes look like): libxml2 alone reads an undeclared file as Latin-1, and every
    # non-ASCII word would then be "in the file, not in the export".
    from bs4.dammit import UnicodeDammit
    from lxml import etree

    text = UnicodeDammit(data, is_html=True).unicode_markup
    if text is None:
        return None
    # huge_tree: without it libxml2 stops reading at 256 levels of nesting (with it, ~2,000;
    # text deeper than that is only left unchecked here, never reported lost).
    parser = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8", "surrogatepass"), parser=parser)
    except (etree.ParserError, ValueError):
        return None
    nodes: list[str] = []
    # What follows </html> is another root element to libxml2 (a browser shows it in the body).
    tops = [root, *(e for e in root.itersiblings() if isinstance(e.tag, str))]
    stack: list[tuple[etree._Element, bool]] = [(top, False) for top in reversed(tops)]
    while stack:  # not recursive: a page can nest deeper than Python's stack
        element, done = stack.pop()
        if done:
            _add(nodes, element.tail)
            continue
        stack.append((element, True))  # its tail follows its children
        tag = element.tag
        if not isinstance(tag, str) or tag.lower() in _HIDDEN:  # comments, processing instructions
            continue
        _add(nodes, element.text)
        stack.extend((child, False) for child in reversed(element))
    return nodes


def _add(nodes: list[str], text: str | None) -> None:
    if text and not text.isspace():
        nodes.append(text.strip())


def squeezed(texts: Iterable[str]) -> str:
    """Letters and digits only, folded as the gate folds words: two extractions agree on it
    whatever spaces and punctuation each puts between inline items ("Wiktionary" "Media")."""
    return "".join("".join(words(t)) for t in texts)


def missing(nodes: list[str], stream: str) -> Iterator[str]:
    """The nodes (long enough to look for) whose letters and digits do not occur in ``stream``.
    Nodes come in reading order: each is looked for after the last one found first, then
    anywhere, so that a long page is read about once instead of once per node."""
    at = 0
    for node in nodes:
        key = squeezed([node])
        if len(key) < _LEAST:
            continue
        found = stream.find(key, at)
        if found < 0:
            found = stream.find(key)
        if found < 0:
            yield node
        else:
            at = found + len(key)


# docling's HTML backend costs, for each element, a search of everything under it (whether it
# holds a block, a form field, a checkbox) and of everything above it (its implied end tags): the
# depth of the tree per element, quadratic in the nesting (issue 39: an <ul> 5,000 deep, 36 s;
# 100k unclosed <nav>, minutes), and it walks the tree recursively, so a page much deeper than
# this fails on Python's stack anyway.
DOCLING_DEPTH = 256
# The end tags a page may leave out, as docling closes them (the HTML standard's): a start tag
# closes the nearest open one of the first set, unless one of the second is nearer.
_IMPLIED_END = {
    "li": ({"li"}, {"ul", "ol", "menu"}),
    "dt": ({"dt", "dd"}, {"dl"}),
    "dd": ({"dt", "dd"}, {"dl"}),
    "td": ({"td", "th"}, {"tr", "table"}),
    "th": ({"td", "th"}, {"tr", "table"}),
    "tr": ({"tr", "td", "th"}, {"table", "thead", "tbody", "tfoot"}),
}


def nests_deeper(data: bytes, limit: int = DOCLING_DEPTH) -> bool:
    """Whether the page nests elements ``limit`` deep once its left-out end tags are closed
    (libxml2's reading of the tags, with docling's implied end tags): one pass over the tags,
    stopped there, each looking at most ``limit`` elements up, so linear in the page."""
    import io

    from lxml import etree

    stack: list[etree._Element] = []
    events = etree.iterparse(io.BytesIO(data), events=("start", "end"), html=True, huge_tree=True, recover=True)
    try:
        for event, element in events:
            tag = element.tag if isinstance(element.tag, str) else ""
            if event == "end":
                if any(e is element for e in stack):
                    while stack.pop() is not element:
                        pass
                continue
            if tag in _IMPLIED_END:
                closes, stops = _IMPLIED_END[tag]
                at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i].tag in closes | stops), None)
                while at is not None and stack[at].tag in closes:
                    del stack[at:]
                    at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i].tag in closes | stops), None)
            stack.append(element)
            if len(stack) >= limit:
                return True
    except etree.LxmlError:
        return False
    return False
