"""One pass over a page's tree (lxml's ``iterwalk``: start and end events, no recursion) that
emits our elements: headings, paragraphs with their inline spans, nested lists with their
lead-in, tables, code, block quotes and captions from the main content; every chrome region and
all text outside the content as furniture with its reason.

A block's text is gathered across inline tags (``<b>``, ``<a>``, ``<code>``…) and emitted when
the next block starts or this one ends, so a sentence with a link in it is one paragraph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lxml import etree

from parsegate.parsers.build.data import code_data, list_data
from parsegate.parsers.build.document import DocBuilder
from parsegate.parsers.model import Element, ImageData, ItemData, ParseWarning
from parsegate.parsers.signals.headings import suspect_heading
from parsegate.parsers.web.inline import InlineText
from parsegate.parsers.web.regions import Regions
from parsegate.parsers.web.tables import TableFrame, layout_tables, span

# What each tag does; any other tag is inline text.
_BLOCKS = frozenset(
    "address article aside body center details dialog dir div fieldset figure footer form frameset header "
    "hgroup hr html iframe legend listing main menu nav noframes optgroup option output p plaintext search "
    "section select summary textarea video audio canvas object tbody tfoot colgroup xmp "
    "h1 h2 h3 h4 h5 h6 ul ol dl li dt dd table thead tr td th caption figcaption pre blockquote".split()
)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_LISTS = frozenset({"ul", "ol", "dl"})
_ITEMS = frozenset({"li", "dt", "dd"})
_STYLES = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "cite": "italic", "dfn": "italic",
    "code": "code", "kbd": "code", "samp": "code", "tt": "code", "u": "underline", "ins": "underline",
    "s": "strikethrough", "del": "strikethrough", "strike": "strikethrough", "sub": "sub", "sup": "super",
}  # fmt: skip


def _all_bold(text: str, spans: list[dict[str, Any]]) -> bool:
    """Every visible character of a cell's text lies in a bold span."""
    covered = [False] * len(text)
    for marked in spans:
        if marked.get("style") == "bold":
            start, end = marked["start"], min(marked["end"], len(text))
            covered[start:end] = [True] * (end - start)
    return all(covered[i] or ch.isspace() for i, ch in enumerate(text))


_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#.-]+)")
_PERMALINK = re.compile(r"^\W*$")  # "¶", "#", "§": a heading's link to itself


@dataclass
class _Frame:
    tag: str
    role: str  # what its end undoes: "skip", "path", "mark", "block", "heading", "item", "list",
    # "table", "row", "cell", "pre", "quote", "caption", "flat"
    element: Element | None = None
    table: TableFrame | None = None
    level: int = 0  # a heading's level; a cell's colspan * 100_000 + rowspan
    language: str | None = None  # <pre>
    first_text: str = ""  # an item's: the text its element was made with (a <dt>'s term)


class Walker:
    def __init__(self, regions: Regions, images: bool = False) -> None:
        self.regions = regions
        self.images = images  # an image standing alone: its alt text at its place (``image_text``), not furniture
        self.b = DocBuilder()
        self.inline = InlineText()
        self.frames: list[_Frame] = []
        self.outside: list[str] = []  # text directly in the blocks around the main content
        self.flat = 0  # inside a heading, a table cell, a caption or <pre>: blocks only separate words
        self.verbatim = 0  # inside <pre>
        self.in_heading = 0
        self.term: Element | None = None  # a definition list's term just read: its description joins it
        self.layout: set[etree._Element] = set()
        self.tables: list[TableFrame] = []

    # -- the pass -------------------------------------------------------------------------
    def walk(self, body: etree._Element) -> None:
        """The pass. Inline tags (most of a page) take the short path here; blocks, chrome and
        the blocks around the main content go through ``start_block`` and ``close``."""
        self.layout = layout_tables(body)
        special = {*self.regions.chrome, *self.regions.main_path}  # one lookup per element
        frames, inline = self.frames, self.inline
        events = etree.iterwalk(body, events=("start", "end"))
        for event, el in events:
            if event == "start":
                tag = el.tag if isinstance(el.tag, str) else ""
                if el in special or (frames and frames[-1] is _PATH):
                    if self.start_region(el, tag):
                        events.skip_subtree()
                    continue
                style = _STYLES.get(tag)
                if style is not None or (tag == "a" and not self.in_heading):
                    href = el.get("href") if tag == "a" else None
                    if href is None and style is None:
                        frames.append(_INLINE)
                    else:
                        inline.open(style or "link", href)
                        frames.append(_MARK)
                elif tag not in _BLOCKS and tag not in _SPECIAL_INLINE:
                    frames.append(_INLINE)
                elif self.open(el, tag):
                    events.skip_subtree()
                    continue
                text = el.text
                if not text:
                    continue
                if self.verbatim:
                    inline.add_verbatim(text)
                elif text.isspace():
                    inline.pending_space = True  # indentation between tags: at most one space
                else:
                    inline.add(text)
            else:
                frame = frames[-1]
                if frame is _MARK:
                    inline.close()
                elif frame is not _INLINE and frame.role not in ("skip", "path"):
                    self.close(frame)  # still on the stack: a list item's text knows its item
                frames.pop()
                tail = el.tail
                if not tail:
                    continue
                if frames and frames[-1] is _PATH:
                    self.outside.append(tail)
                elif self.verbatim:
                    inline.add_verbatim(tail)
                elif tail.isspace():
                    inline.pending_space = True
                else:
                    inline.add(tail)
        self.flush()

    def start_region(self, el: etree._Element, tag: str) -> bool:
        """Chrome, the blocks around the main content, and what lies outside it; True when
        its subtree was read whole (as furniture)."""
        regions = self.regions
        reason = regions.chrome.get(el)
        outside = self.frames and self.frames[-1] is _PATH and el is not regions.main
        if reason is not None or (outside and el not in regions.main_path):
            self.b.add_furniture(region_text(el), reason or f"outside the main content ({regions.how})")
            self.frames.append(_Frame(tag, "skip"))
            return True
        if el in regions.main_path:
            self.frames.append(_PATH)
            self.outside.append(el.text or "")
            return False
        if self.open(el, tag):
            return True
        self.text(el.text)
        return False

    def alone(self, img: etree._Element) -> bool:
        """An image with no text beside it in its block (a figure, ``<p><img></p>``), outside
        lists, tables, headings and code: its alt text can stand at its place as its own element."""
        if self.flat or not self.inline.empty() or self.item_frame() is not None:
            return False
        node: etree._Element | None = img
        while node is not None:
            if (node.tail or "").strip():
                return False
            for sibling in node.itersiblings():
                if sibling.tag in _BLOCKS:
                    break  # the block ends here
                if "".join(sibling.itertext()).strip() or (sibling.tail or "").strip():
                    return False
            node = node.getparent()
            if node is None or node.tag in _BLOCKS:
                return True
        return True

    def text(self, text: str | None) -> None:
        if self.verbatim:
            self.inline.add_verbatim(text)
        else:
            self.inline.add(text)

    # -- opening --------------------------------------------------------------------------
    def open(self, el: etree._Element, tag: str) -> bool:
        """Open an element of the content; True when its text is not to be read."""
        style = _STYLES.get(tag)
        if tag == "a" and self.in_heading and _PERMALINK.match("".join(el.itertext())):
            self.frames.append(_Frame(tag, "skip"))  # "¶": a heading's link to itself, not its text
            return True
        if style is not None or tag == "a":
            href = el.get("href") if tag == "a" else None
            if href is not None or style is not None:
                self.inline.open(style or "link", href)
                self.frames.append(_Frame(tag, "mark"))
            else:
                self.frames.append(_Frame(tag, "inline"))
        elif tag == "input" and (el.get("type") or "").lower() in ("checkbox", "radio"):
            # A task list's state is what the item says ("[x] Design" done, "[ ] Build" not).
            self.text("[x] " if el.get("checked") is not None else "[ ] ")
            self.frames.append(_INLINE)
        elif tag in _SPECIAL_INLINE and tag != "a" and tag != "br":
            label = control_label(el)
            if label and tag == "img" and self.images and self.alone(el) and not _icon(el):
                # A picture that stands as a block of its own: its alt text is what it says, there
                self.b.emit("image_text", label, data=ImageData(source="alt"))
            elif label:  # a picture or a form control is not text; what it says is kept, out of the body
                self.b.add_furniture(label, "image (its alt text)" if tag == "img" else "form control (its label)")
            self.frames.append(_INLINE)
        elif tag == "br":
            if self.flat and not self.verbatim:
                self.space()
            else:
                self.inline.line_break()
            self.frames.append(_Frame(tag, "inline"))
        elif tag not in _BLOCKS:
            self.frames.append(_Frame(tag, "inline"))
        elif self.flat:
            self.space()
            self.frames.append(_Frame(tag, "flat"))
        else:
            self.open_block(el, tag)
        return False

    def open_block(self, el: etree._Element, tag: str) -> None:
        if tag in _HEADINGS:
            self.flush()
            self.flat += 1
            self.in_heading += 1
            self.frames.append(_Frame(tag, "heading", level=_HEADINGS[tag]))
        elif tag in _LISTS:
            self.flush()
            self.frames.append(_Frame(tag, "list", element=self.open_list(tag)))
        elif tag in _ITEMS:
            self.flush()
            frame = _Frame(tag, "item")
            if tag == "dd" and self.term is not None and self.term is self.b.last():
                frame.element = self.term  # a description is read with its term: one item
            self.frames.append(frame)
        elif tag in _TABLE_PARTS and self.flat and any(f.role == "cell" for f in self.frames):
            # A table inside a data table's cell is that cell's text, its cells run together
            # ("A B C Cell 1 Cell 2"): the outer row stays a row under its header.
            self.space()
            self.frames.append(_Frame(tag, "flat"))
        elif tag == "table" and el not in self.layout:
            self.flush()
            table = TableFrame()
            self.tables.append(table)
            self.frames.append(_Frame(tag, "table", table=table))
        elif tag == "thead" and self.tables and el not in self.layout:
            self.tables[-1].in_head = True
            self.frames.append(_Frame(tag, "thead"))
        elif tag == "tr" and self.in_data_table():
            self.flush()  # text before the row: see the cells below
            self.tables[-1].new_row()
            self.frames.append(_Frame(tag, "row"))
        elif tag in ("td", "th") and self.in_data_table():
            # Text between cells (sloppy pages write "<tr>Note <td>…") belongs to no cell; a
            # browser shows it before the table, so it is a paragraph there, not dropped.
            self.flush()
            self.inline.take()
            self.flat += 1
            self.frames.append(_Frame(tag, "cell", level=span(el.get("colspan")) * 100_000 + span(el.get("rowspan"))))
        elif tag in ("caption", "figcaption"):
            self.flush()
            self.flat += 1
            self.frames.append(_Frame(tag, "caption"))
        elif tag == "pre":
            self.flush()
            self.flat += 1
            self.verbatim += 1
            self.frames.append(_Frame(tag, "pre", language=_language(el)))
        elif tag == "blockquote":
            self.flush()
            self.frames.append(_Frame(tag, "quote", element=self.b.open("blockquote")))
        else:
            # Every other block (and table parts of layout tables) separates paragraphs.
            self.flush()
            self.frames.append(_Frame(tag, "block"))

    def in_data_table(self) -> bool:
        return bool(self.tables)  # a data table holds no other table: its rows and cells are its own

    def open_list(self, tag: str) -> Element:
        item = self.item_frame()
        if item is not None:
            self.emit_item(item)
        last = self.b.last()
        lead_in = None
        if item is None and last is not None and last.kind == "paragraph" and last.parent == self.b.parent():
            lead_in = last.id
        parent = item.element.id if item is not None and item.element is not None else None
        level = self.b.depth("list") + 1
        return self.b.open("list", level=level, parent=parent or self.b.parent(), data=list_data(tag == "ol", lead_in))

    def item_frame(self) -> _Frame | None:
        """The list item the current position is in, if no other container is nearer."""
        for frame in reversed(self.frames):
            if frame.role == "item":
                return frame
            if frame.role in ("list", "table", "quote"):
                return None
        return None

    # -- closing --------------------------------------------------------------------------
    def close(self, frame: _Frame) -> None:
        role = frame.role
        if role == "mark":
            self.inline.close()
        elif role in ("inline", "flat"):
            if role == "flat":
                self.space()
        elif role == "heading":
            self.flat -= 1
            self.in_heading -= 1
            self.heading(frame.level)
        elif role == "item":
            self.flush()
            self.emit_item(frame)
            if frame.tag == "dt" and frame.element is not None:
                self.term = frame.element
                assert isinstance(frame.element.data, ItemData)
                frame.element.data.term = " ".join(frame.first_text.split())
            elif frame.tag != "dd":
                self.term = None
        elif role == "list":
            self.flush()
            assert frame.element is not None
            self.b.close(frame.element)
            self.term = None
        elif role == "table":
            self.close_table(frame)
        elif role == "thead":
            self.tables[-1].in_head = False
        elif role == "cell":
            self.flat -= 1
            text, spans = self.inline.take()
            bold = bool(text) and _all_bold(text, spans)
            self.tables[-1].add_cell(text, frame.tag == "th", frame.level // 100_000, frame.level % 100_000, bold)
        elif role == "caption":
            self.flat -= 1
            self.caption(frame.tag)
        elif role == "pre":
            self.flat -= 1
            self.verbatim -= 1
            self.code(frame)
        elif role == "quote":
            self.flush()
            assert frame.element is not None
            self.b.close(frame.element)
        else:
            self.flush()

    def space(self) -> None:
        self.inline.pending_space = True

    # -- emitting -------------------------------------------------------------------------
    def flush(self) -> None:
        """The text gathered since the last block boundary, as a paragraph (or a list item's text)."""
        if self.flat or not self.inline.size:
            return
        text, spans = self.inline.take()
        item = self.item_frame()
        if item is not None and item.element is None:
            item.element = self.emit("list_item", text, spans, level=self.b.depth("list") or 1)
            item.first_text = text
        elif item is not None and item.element is not None and item.element is self.b.last():
            self.extend(item.element, text, spans)
        else:
            self.emit("paragraph", text, spans)

    def emit(self, kind: str, text: str, spans: list[dict[str, Any]], **fields: Any) -> Element:
        el = self.b.emit(kind, text, **fields)
        el.data.inline = [{**s, "start": s["start"] + el.start, "end": s["end"] + el.start} for s in spans]
        return el

    def extend(self, el: Element, text: str, spans: list[dict[str, Any]]) -> None:
        """More paragraphs of a list item that nothing else has followed yet: the same item."""
        start, end = self.b.text.add(text)
        el.end = end
        more = [{**s, "start": s["start"] + start, "end": s["end"] + start} for s in spans]
        if more:
            el.data.inline = [*el.data.inline, *more]

    def emit_item(self, frame: _Frame) -> None:
        if frame.element is None and not self.inline.empty():
            text, spans = self.inline.take()
            frame.element = self.emit("list_item", text, spans, level=self.b.depth("list") or 1)
            frame.first_text = text

    def heading(self, level: int) -> None:
        text, _ = self.inline.take()
        text = " ".join(text.split())
        if not text:
            return
        reason = suspect_heading(text)
        if reason is not None:
            self.b.warnings.append(ParseWarning("suspect_heading", f"not a heading, read as a paragraph: {reason}"))
            self.b.emit("paragraph", text)
            return
        self.b.heading(level, text)

    def caption(self, tag: str) -> None:
        text, spans = self.inline.take()
        if not text:
            return
        if tag == "caption" and self.tables:
            self.tables[-1].caption = text
        else:
            self.emit("caption", text, spans)

    def code(self, frame: _Frame) -> None:
        text, _ = self.inline.take()
        text = text.lstrip("\r\n")
        if text.strip():
            self.b.emit("code", text, data=code_data(frame.language))

    def close_table(self, frame: _Frame) -> None:
        table = self.tables.pop()
        assert frame.table is table
        grid, headers = table.grid()
        caption = self.b.emit("caption", table.caption) if table.caption else None
        last = self.b.last()
        lead_in = caption or (last if last is not None and last.kind in ("paragraph", "caption") else None)
        self.b.table(grid, headers, lead_in.id if lead_in is not None else None, caption=table.caption or None)

    def next_page(self, regions: Regions) -> None:
        """Another page of the same file (pages run together): its own main content."""
        self.regions, self.outside = regions, []

    def finish(self) -> None:
        outside = " ".join(" ".join(self.outside).split())
        if outside:
            self.b.add_furniture(outside, f"outside the main content ({self.regions.how})")


_PATH = _Frame("", "path")  # shared: a block around the main content (its own text is outside it)
_INLINE = _Frame("", "inline")  # shared: an inline tag's end undoes nothing
_MARK = _Frame("", "mark")  # shared: an inline tag's end closes its formatting span
_TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption"})
_SPECIAL_INLINE = frozenset({"br", "img", "input", "textarea", "a"})  # ("a" only reaches here in a heading)
_BUTTONS = frozenset({"submit", "button", "reset"})


def control_label(el: etree._Element) -> str:
    """What an image or a form control shows in words: alt text, a button's value, a placeholder."""
    if el.tag == "img":
        words = el.get("alt") or ""
    elif el.tag == "input" and (el.get("type") or "").lower() in _BUTTONS:
        words = el.get("value") or ""
    elif (el.get("type") or "").lower() == "hidden":
        words = ""
    else:
        words = el.get("placeholder") or ""
    return " ".join(words.split())


def region_text(el: etree._Element) -> str:
    """A chrome region's text, with the labels of its images and form controls."""
    labels = [control_label(c) for c in el.iter("img", "input", "textarea")]
    return " ".join(" ".join([*el.itertext(), *labels]).split())


def _language(pre: etree._Element) -> str | None:
    """The language a ``<pre>`` names in its class or its ``<code>``'s ("language-python")."""
    classes = " ".join(filter(None, [pre.get("class"), *(c.get("class") for c in pre.iterchildren("code"))]))
    found = _LANGUAGE.search(classes)
    return found.group(1).lower() if found else None


_ICON_PX = 32  # an image drawn smaller than this on either side is an icon, not a picture


def _icon(el: Any) -> bool:
    """An ``<img>`` whose width or height attribute is under 32 px (a padlock beside a title)."""
    for name in ("width", "height"):
        value = (el.get(name) or "").strip().removesuffix("px")
        if value.isdigit() and int(value) < _ICON_PX:
            return True
    return False
