"""Context prefixes, within a budget: what a chunk needs from elsewhere in its document.

A chunk's ``embed_text`` is its prefix, a blank line, and its text. The prefix holds the
breadcrumb (title and section path, less the headings the chunk's own text states) and
the context of the unit the chunk starts with: a list's lead-in and parent items, a table
header, a speaker, a code definition's enclosing headers and the imports it uses.

Context is paid for out of the chunk's token budget, so it gets a budget of its own: a
share of ``max_tokens``. It is filled by priority — the nearest heading, then what the
first unit cannot be read without (table header, speaker, enclosing class), the lead-in,
parent items, outer headings from the inside out, the title, and imports last — and an
item that does not fit whole is cut at a word with a visible ellipsis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from parsegate.chunkers.tokens.counter import Counter

CRUMB_SEP = " > "
ELLIPSIS = "…"
_MIN_CAP = 8  # tokens: a small budget still names the section and the table header
_MIN_PART = 2  # tokens: a cut item shorter than this is left out instead
_WORD_END = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class Context:
    """What a chunk that starts with a unit needs to be read: typed, one field per kind of
    context, so that each can be given its own priority."""

    lead_in: str | None = None  # the sentence that introduces a list
    parents: tuple[str, ...] = ()  # first lines of the list items around an item
    header: str | None = None  # a table's header line
    label: str | None = None  # a speaker ("Bob:"), repeated by later pieces of a turn
    enclosing: tuple[str, ...] = ()  # code: headers of the definitions around it, outer first
    imports: tuple[str, ...] = ()  # code: imports and module lines it uses
    # Contexts key every room and prefix lookup (tens of thousands per document): the hash of
    # their tuples is worked out once, not on every lookup.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fields = (self.lead_in, self.parents, self.header, self.label, self.enclosing, self.imports)
        object.__setattr__(self, "_hash", hash(fields))

    def __hash__(self) -> int:
        return self._hash

    def named_lines(self) -> list[tuple[str, str | None]]:
        """Every line with the kind of context it is, in the order a prefix states them."""
        return [
            ("lead_in", self.lead_in),
            *(("parent", p) for p in self.parents),
            ("header", self.header),
            ("label", self.label),
            *(("import", i) for i in self.imports),
            *(("enclosing", e) for e in self.enclosing),
        ]

    def lines(self) -> list[str]:
        """The texts of named_lines(), in its order, the empty ones left out (written out without
        the names: asked for every prefix rendered, an EMPTY context most often)."""
        texts = [self.lead_in, *self.parents, self.header, self.label, *self.imports, *self.enclosing]
        return [text for text in texts if text]


EMPTY = Context()


def breadcrumb_parts(title: str | None, section_path: tuple[str, ...], own_headings: int = 0) -> list[str]:
    """Title and section path, without the headings the chunk's own text opens with."""
    kept = section_path[: max(0, len(section_path) - own_headings)]
    crumbs: list[str] = []
    for part in ([title] if title else []) + list(kept):
        if part and (not crumbs or crumbs[-1] != part):
            crumbs.append(part)
    if own_headings and crumbs and len(kept) < len(section_path) and crumbs[-1] == section_path[len(kept)]:
        crumbs.pop()  # the title is the first heading the chunk states
    return crumbs


def breadcrumb(title: str | None, section_path: tuple[str, ...], own_headings: int = 0) -> str:
    return CRUMB_SEP.join(breadcrumb_parts(title, section_path, own_headings))


@dataclass
class _Item:
    text: str
    slot: str  # "crumb" (position in the crumb list is ``order``) or "line"
    order: int
    keep_end: bool = False  # a lead-in keeps its last words (they lead into the list)
    cuttable: bool = False  # prose may be cut at a word; a code line is whole or left out


@dataclass
class ContextBuilder:
    """Builds budgeted prefixes and remembers them and their token counts (they repeat)."""

    counter: Counter
    title: str | None
    max_tokens: int
    share: float
    cap: int = 0
    _prefixes: dict[tuple[tuple[str, ...], Context, int, int | None], str] = field(default_factory=dict)
    _tokens: dict[str, int] = field(default_factory=dict)
    # Each key's unbudgeted prefix: warm() makes them, _build() reuses them.
    _whole: dict[tuple[tuple[str, ...], Context, int], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        content = self.max_tokens - self.counter.specials
        self.cap = max(1, min(content // 2, max(_MIN_CAP, int(content * self.share))))

    def prefix(self, section_path: tuple[str, ...], context: Context, own_headings: int, cap: int | None = None) -> str:
        """The prefix within ``cap`` tokens (default: the context's share of the budget; a
        chunk whose own text leaves less gets a smaller cap, see packing.Packer.drafts)."""
        key = (section_path, context, own_headings, cap)
        found = self._prefixes.get(key)
        if found is None:
            cap = self.cap if cap is None else min(cap, self.cap)
            found = self._prefixes[key] = self._build(section_path, context, own_headings, cap)
        return found

    def tokens(self, prefix: str) -> int:
        """What a prefix costs in an embed_text: its tokens and the blank line after it."""
        if not prefix:
            return 0
        n = self._tokens.get(prefix)
        if n is None:
            n = self._tokens[prefix] = self.counter.count_many([prefix + "\n\n"])[0]
        return n

    def least(self, line: str) -> int:
        """The fewest tokens a line cut short still costs in a prefix: its first word and an
        ellipsis (a table header cut before its row is, packing.Packer.whole_room)."""
        word = _WORD_END.search(line)
        return max(_MIN_PART, self.tokens(f"{word.group()} {ELLIPSIS}")) if word else 0

    def warm(self, keys: list[tuple[tuple[str, ...], Context, int]]) -> None:
        """Count the unbudgeted prefixes of many chunk starts in one batch (most fit whole)."""
        todo = sorted({self._rendered(key) for key in set(keys)} - self._tokens.keys() - {""})
        for text, n in zip(todo, self.counter.count_many([t + "\n\n" for t in todo]), strict=True):
            self._tokens[text] = n

    # -- building -----------------------------------------------------------
    def _items(self, section_path: tuple[str, ...], context: Context, own_headings: int) -> list[_Item]:
        """Every context item, in priority order; ``order`` keeps the reading order."""
        crumbs = breadcrumb_parts(self.title, section_path, own_headings)
        ranked: list[tuple[int, _Item]] = []
        for n, crumb in enumerate(crumbs):
            # The nearest heading first; outer ones later, the inner ones before the outer.
            rank = 100 if n == len(crumbs) - 1 else 500 + len(crumbs) - n
            ranked.append((rank, _Item(crumb, "crumb", n, cuttable=True)))
        lines = context.named_lines()
        # A row without its header, or a turn without its speaker, is not evidence: they rank
        # above the nearest heading.
        # For code, the imports and constants a definition uses come right after its class header:
        # they are what its body refers to (the file's name, its title, comes after them).
        rank_of = {"header": 50, "label": 50, "import": 80, "lead_in": 200, "parent": 300}
        for n, (name, text) in enumerate(lines):
            if not text:
                continue
            # A method is not evidence without its class: the enclosing headers come first, the
            # class's (short) before the method's own signature, which is cut to what is left.
            innermost = name == "enclosing" and n == len(lines) - 1
            rank = (1 if innermost else 0) if name == "enclosing" else rank_of[name]
            cuttable = name in ("lead_in", "parent", "header", "enclosing")
            ranked.append((rank, _Item(text, "line", n, keep_end=name == "lead_in", cuttable=cuttable)))
        ranked.sort(key=lambda pair: pair[0])
        return [item for _, item in ranked]

    def _rendered(self, key: tuple[tuple[str, ...], Context, int]) -> str:
        """Every item in reading order, as ``_render(self._items(*key))`` gives it, written out:
        most prefixes fit whole, and only those that do not need their items ranked."""
        found = self._whole.get(key)
        if found is None:
            section_path, context, own_headings = key
            crumb = CRUMB_SEP.join(breadcrumb_parts(self.title, section_path, own_headings))
            found = self._whole[key] = "\n".join([crumb, *context.lines()] if crumb else context.lines())
        return found

    def _build(self, section_path: tuple[str, ...], context: Context, own_headings: int, cap: int) -> str:
        whole = self._rendered((section_path, context, own_headings))
        if self.tokens(whole) <= cap:
            return whole
        chosen: list[_Item] = []
        for item in self._items(section_path, context, own_headings):
            trial = _render([*chosen, item])
            if self.tokens(trial) <= cap:
                chosen.append(item)
                continue
            cut = self._shortened(chosen, item, cap) if item.cuttable else None
            if cut is not None:
                chosen.append(cut)
        return _render(chosen)

    def _shortened(self, chosen: list[_Item], item: _Item, cap: int) -> _Item | None:
        """The longest word-boundary cut of ``item`` (with an ellipsis) that still fits."""
        ends = [m.end() for m in _WORD_END.finditer(item.text)]
        starts = [m.start() for m in _WORD_END.finditer(item.text)]

        def version(k: int) -> _Item:
            if item.keep_end:
                text = ELLIPSIS + " " + item.text[starts[len(starts) - k] :]
            else:
                text = item.text[: ends[k - 1]] + " " + ELLIPSIS
            return _Item(text, item.slot, item.order, item.keep_end, item.cuttable)

        lo, hi = 0, len(ends) - 1  # k words kept; the whole item is known not to fit
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.tokens(_render([*chosen, version(mid)])) <= cap:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            return None
        shortened = version(lo)
        added = self.tokens(_render([*chosen, shortened])) - self.tokens(_render(chosen))
        return shortened if added >= _MIN_PART else None


def _render(items: list[_Item]) -> str:
    crumbs = sorted((i for i in items if i.slot == "crumb"), key=lambda i: i.order)
    lines = sorted((i for i in items if i.slot == "line"), key=lambda i: i.order)
    crumb = CRUMB_SEP.join(i.text for i in crumbs)
    return "\n".join(([crumb] if crumb else []) + [i.text for i in lines])
