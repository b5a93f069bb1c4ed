"""AsciiDoc lists: ``*``/``-`` (unordered, ``**`` a level deeper), ``.``/``1.`` (ordered),
``<1>`` (callouts) and description lists (``term:: description``, ``term::`` with its description
on the lines under it, ``question;;``). A description item is one element, its term with its
description (``ItemData.term``), so no chunk holds a term without what it says; terms stacked on
lines of their own (``-v::`` ``--verbose::``) are one item's. A marker not seen above opens a
nested list under the last item; one seen above closes the lists below it. A ``+`` line attaches
the next block to the last item: a paragraph becomes part of the item's own span (a term with all
of its description), another block a child of the item (its span starting at the ``+``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parsegate.parsers.asciidoc import lines as L
from parsegate.parsers.model import CodeData, Element, FurnitureData, ItemData, ListData

if TYPE_CHECKING:
    from parsegate.parsers.asciidoc.blocks import Scanner

_DESCRIPTION = ("::", ":::", "::::", ";;")


def read_list(s: Scanner, i: int, hi: int, parent: str | None, start: int) -> int:
    """Reads the list starting at line ``i`` (its span from ``start``); the line after it."""
    from parsegate.parsers.asciidoc.blocks import Pending

    stack: list[tuple[str, Element]] = []  # (marker form, list element)
    last_item: Element | None = None
    first = True
    above: int | None = None  # an attribute line above the next item (``[upperalpha]``)
    while i < hi:
        line = s.lines[i]
        found = L.item_marker(line)
        if found is None and not first and _attributes_above_item(s, i, hi):
            above, i = s.begin(i), i + 1
            continue
        if found is not None:
            kind, marker, text = found
            key = L.list_key(kind, marker)
            if key in [k for k, _ in stack]:
                while stack[-1][0] != key:
                    _close(s, stack.pop()[1])
            else:
                owner = last_item.id if last_item is not None else parent
                data = ListData(ordered=kind == "ordered")
                begin = start if first else s.begin(i) if above is None else above
                stack.append((key, s.emit("list", begin, s.begin(i), owner, data=data)))
            j, terms = _item_end(s, i, hi, kind, marker, text)
            term = ", ".join(terms) if kind in _DESCRIPTION else None
            item_data = ItemData(marker=None if term else marker, term=term)
            begin = start if first else s.begin(i) if above is None else above
            last_item = s.emit("list_item", begin, s.end(j - 1), stack[-1][1].id, data=item_data)
            first, above = False, None
            i = j
            continue
        if line.strip() == L.CONTINUATION and last_item is not None:
            if i + 1 < hi and L.item_marker(s.lines[i + 1]) is not None:
                i += 1  # an item attached to an item: the list's own next item (no recursion)
                continue
            s.lead = s.begin(i)
            s.pending = Pending()
            count = len(s.elements)
            k = i + 1
            while k < hi and L.is_blank(s.lines[k]):
                k += 1  # (blank lines between the + and its block)
            while k < hi and not L.is_blank(s.lines[k]):
                k = s.step(k, hi, last_item.id, False)
                if any(e.kind not in L.NON_BODY for e in s.elements[count:]):
                    break
            s.lead = None
            s.orphans(last_item.id)
            if len(s.elements) == count:  # a + that attaches nothing
                s.emit("furniture", s.begin(i), s.end(i), None, data=FurnitureData(reason="list continuation"))
            _attach(s, last_item, count)
            i = max(k, i + 1)
            continue
        if L.is_blank(line):
            k = i
            while k < hi and L.is_blank(s.lines[k]):
                k += 1
            if k < hi and L.item_marker(s.lines[k]) is not None:
                i = k
                continue
            if k < hi and last_item is not None and s.lines[k][0] in " \t" and s.continues(s.lines[k]):
                # an indented literal paragraph under an item is attached to it
                i = s.step(k, hi, last_item.id, False)
                s.pending = Pending()
                continue
        break
    while stack:
        _close(s, stack.pop()[1])
    return i


def _attach(s: Scanner, item: Element, count: int) -> None:
    """A paragraph attached to an item (``+``) is the item's own text: its span grows over it, so
    a term stays with all of its description. A code block attached to it names it as its lead-in."""
    attached = s.elements[count:]
    if len(attached) == 1 and attached[0].kind == "paragraph" and s.elements[count - 1] is item:
        # (only right under the item's own text: after an attached code block it stays a child)
        s.elements.pop()
        item.end = attached[0].end
        item.lines = (item.lines or (1, 1))[0], (attached[0].lines or (1, 1))[1]
        return
    for e in attached:
        if e.parent == item.id and isinstance(e.data, CodeData):
            e.data.lead_in = item.id


def _attributes_above_item(s: Scanner, i: int, hi: int) -> bool:
    line = s.lines[i]
    return (
        line[:1] == "["
        and L.BLOCK_ATTRIBUTES.match(line.strip()) is not None
        and i + 1 < hi
        and L.item_marker(s.lines[i + 1]) is not None
    )


def _close(s: Scanner, lst: Element) -> None:
    lst.end = max(lst.start, s.elements[-1].end)
    lst.lines = (lst.lines or (1, 1))[0], (s.elements[-1].lines or (1, 1))[1]


def _item_end(s: Scanner, i: int, hi: int, kind: str, marker: str, text: str) -> tuple[int, list[str]]:
    """The line after an item's last, and its terms (a description item's)."""
    j = i + 1
    terms = [marker]
    if kind in _DESCRIPTION and not text:
        while j < hi and (more := L.item_marker(s.lines[j])) is not None and more[0] == kind and not more[2]:
            terms.append(more[1])  # stacked terms: one item
            j += 1
        k = j
        while k < hi and L.is_blank(s.lines[k]):
            k += 1
        if k > j and k < hi and L.item_marker(s.lines[k]) is None and s.continues(s.lines[k]):
            j = k  # the description, a blank line under its term
    while j < hi and L.item_marker(s.lines[j]) is None and s.continues(s.lines[j]):
        j += 1
    return j, terms
