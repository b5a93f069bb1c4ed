"""Units → chunks: pack units under the token budget, section by section.

A chunk never crosses into another section (a chunk of bare headings takes the first
block under them). Inside a section, each chunk takes as many units as fit; where it
must end, it ends at the strongest boundary within reach — between elements before a
blank line, before a line break, before a sentence end, and so on (boundaries.Level) —
and among equally strong ones at the one that makes the pieces of the stretch even. A
heading, a lead-in or a table header never ends a chunk when it need not. Counts come
from the document's one tokenizer pass (tokens/index.py), over the whole span of a chunk.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace

from parsegate.chunkers.structural.boundaries import PROSE, Level, is_label, line_before
from parsegate.chunkers.structural.context import EMPTY, Context, ContextBuilder
from parsegate.chunkers.structural.finalize import Draft
from parsegate.chunkers.structural.kinds import CODE_KINDS, DEFINITION_KINDS, rule
from parsegate.chunkers.structural.sentences import sentence_spans
from parsegate.chunkers.structural.units import Unit
from parsegate.chunkers.tokens.index import SpanIndex
from parsegate.parsers.model import Document

_MIN_CHUNK_TOKENS = 8  # the gate's "abnormally short" chunk


@dataclass
class Options:
    max_tokens: int
    min_tokens: int = 0  # merge neighbouring chunks under this size within the same parent section
    overlap: int = 0  # sentences of the previous chunk repeated at the start of the next (a quarter
    # of the budget is kept free for them)
    context_share: float = 0.2  # of max_tokens, at most, for a chunk's context prefix


class Packer:
    def __init__(self, doc: Document, index: SpanIndex, builder: ContextBuilder, specials: int, opts: Options) -> None:
        self.doc = doc
        self.index = index
        self.builder = builder
        self.specials = specials
        self.opts = opts
        self._rooms: dict[tuple[tuple[str, ...], Context, bool, bool], int] = {}
        # Without --overlap nothing is kept free: a room with and without the reserve is the same,
        # and one key serves both (drafts() asks again, without it, for the rooms packing asked).
        self._reserves = opts.overlap > 0

    def room(self, first: Unit, section: tuple[str, ...] | None = None, reserve: bool = True) -> int:
        """Content tokens left for a chunk that starts with ``first`` (less the share that
        --overlap keeps free for repeated sentences, unless ``reserve`` is off)."""
        reserve = reserve and self._reserves
        key = (first.section if section is None else section, first.context, first.kind == "heading", reserve)
        room = self._rooms.get(key)
        if room is None:
            prefix = self.builder.prefix(key[0], first.context, int(key[2]))
            room = self._rooms[key] = self._content(reserve) - self.builder.tokens(prefix)
        return room

    def least_room(self) -> int:
        """A room no chunk has less of: a prefix never costs more than the builder's cap. A unit
        that fits in it needs no room looked up (a key and a prefix per unit, most of them small)."""
        return self._content(reserve=True) - self.builder.cap

    def _content(self, reserve: bool) -> int:
        """Content tokens of any chunk (less the quarter --overlap keeps free, if ``reserve``)."""
        content = self.opts.max_tokens - self.specials
        return content - (content // 4 if reserve and self.opts.overlap > 0 else 0)

    def bare_room(self, first: Unit, reserve: bool = True) -> int:
        """The room of a chunk if its context gave way: a whole paragraph is worth more than the
        headings above it, and a whole definition more than its class header and the imports it
        uses (the chunk's prefix then gets what its text leaves, see drafts()). Any other context
        (a table's header, a list's lead-in, a speaker) keeps its share."""
        if first.kind in DEFINITION_KINDS:
            return self._content(reserve)
        # (``is not`` first: most units carry EMPTY itself, and a Context's == is a Python call.)
        if (first.context is not EMPTY and first.context != EMPTY) or first.kind in CODE_KINDS:
            return self.room(first, reserve=reserve)
        return self._content(reserve)

    def whole_room(self, first: Unit, reserve: bool = True) -> int:
        """The room within which a unit stays whole (units.fit_units' ``whole``): prose's bare room,
        and for a table row all of the chunk's content but the least of its header (a word and an
        ellipsis). A row is atomic: while it fits alone with a header cut short, the header gives
        way, not the row (drafts() then gives the prefix what the row leaves)."""
        header = first.context.header if first.kind == "table_row" else None
        if header:
            return max(self.room(first, reserve=reserve), self._content(reserve) - self.builder.least(header))
        return self.bare_room(first, reserve)

    def tokens(self, units: list[Unit]) -> int:
        return self.index.count(units[0].start, units[-1].end)

    def cost(self, units: list[Unit]) -> int:
        """Content tokens of a chunk of ``units``: their span's, and the context lines that code
        units after the first add to the prefix (their imports, the headers around them)."""
        tokens = self.tokens(units)
        if all(u.kind not in CODE_KINDS for u in units[1:]):
            return tokens  # only code units after the first add context lines
        return tokens + _CodeContext(self, units).extra

    # -- packing ---------------------------------------------------------------
    def pack(self, units: list[Unit]) -> list[list[Unit]]:
        chunks: list[list[Unit]] = []
        for run in self.runs(units):
            chunks.extend(self.pack_run(run))
        return chunks

    def runs(self, units: list[Unit]) -> list[list[Unit]]:
        """Maximal sequences a chunk may range over: one section (with bare headings above it)."""
        runs: list[list[Unit]] = []
        for unit in units:
            if runs and _continues(runs[-1], unit):
                runs[-1].append(unit)
            else:
                runs.append([unit])
        return runs

    def pack_run(self, run: list[Unit]) -> list[list[Unit]]:
        chunks: list[list[Unit]] = []
        stretch_ends: dict[Level, list[int]] = {}  # by level, built as _cut asks (see _stretch_ends)
        prose = all(u.kind not in CODE_KINDS for u in run)
        # Tokens from the text's start to each unit's end: a span's count is the difference of
        # its ends' (tokens/index.py), so the reach of every chunk of the run is one bisection of these.
        count = self.index.count
        ends = [count(0, u.end) for u in run] if prose else []
        i = 0
        while i < len(run):
            reach, room = self._reach_and_room(run, i, prose, ends)
            if reach == len(run):
                chunks.append(run[i:])
                break
            cut = self._cut(run, i, reach, stretch_ends, room)
            chunks.append(run[i:cut])
            i = cut
        return chunks

    def _reach_and_room(self, run: list[Unit], i: int, prose: bool, ends: list[int]) -> tuple[int, int]:
        """How far a chunk starting at ``i`` reaches, and the room it has: its context's share
        taken out — unless, with its breadcrumb given up, it would reach a stronger boundary (the
        end of the paragraph instead of a sentence inside it). (``ends``: see pack_run.)"""
        room = self.room(run[i])
        reach = self._reach(run, i, prose, room, ends)
        if reach == len(run) or not prose:
            return reach, room
        bare = self.bare_room(run[i])
        if bare <= room:
            return reach, room
        further = self._reach(run, i, prose, bare, ends)
        if further == len(run) or _strongest(run, i, further) < _strongest(run, i, reach):
            return further, bare
        return reach, room

    def _reach(self, run: list[Unit], i: int, prose: bool, room: int, ends: list[int]) -> int:
        """One past the last unit a chunk starting at ``i`` can hold in ``room`` (at least one)."""
        if prose:
            # Prose adds no context lines as it grows: the last unit that fits is found by bisection,
            # the first after ``i`` whose end is more than ``room`` tokens past the chunk's start.
            return bisect_right(ends, self.index.count(0, run[i].start) + room, i + 1, len(run))
        context = _CodeContext(self, [run[i]])
        j = i + 1
        while j < len(run):
            extra = context.extra_for(run[j])
            if self.index.count(run[i].start, run[j].end) + context.extra + extra > room:
                break
            context.add(run[j])
            j += 1
        return j

    def _cut(self, run: list[Unit], i: int, reach: int, stretch_ends: dict[Level, list[int]], room: int) -> int:
        """Where the chunk from ``i`` ends (exclusive): the strongest boundary in reach that does
        not leave a glued unit behind, and among those the one that makes the stretch even."""
        # (A cut can be glued or strand a chain only next to a unit that glues to what follows:
        # most units glue to nothing, and the chain is looked at only beside one that does.)
        allowed = [
            k
            for k in range(i + 1, reach + 1)
            if not (run[k - 1].glue_next and self._glued(run, i, k))
            and not (run[k].glue_next and self._stranded(run, k))
            and not run[k].glue_prev
        ]
        if not allowed:
            allowed = [k for k in range(i + 1, reach + 1) if not self._glued(run, i, k)] or [reach]
        room = max(1, room)
        # The tokens of the chunk cut before run[k], for each k: asked by _not_scraps and again
        # for the candidates among them below, counted once.
        count, start = self.index.count, run[i].start
        before = {k: count(start, run[k - 1].end) for k in allowed}
        allowed = self._not_scraps(run, allowed, before, room)
        strongest = min(run[k].level for k in allowed)
        candidates = [k for k in allowed if run[k].level == strongest]
        if strongest == Level.LINE:
            candidates = [k for k in candidates if not self._after_label(run, k)] or candidates
        # The stretch to even out ends at the next boundary stronger than the one chosen.
        ends = stretch_ends.get(strongest)
        if ends is None:
            ends = stretch_ends[strongest] = _stretch_ends(run, strongest)
        end = ends[reach]
        total = count(start, run[end - 1].end)
        target = total / -(-total // room)
        return min(candidates, key=lambda k: (abs(before[k] - target), -k))

    def _after_label(self, run: list[Unit], k: int) -> bool:
        """Whether the line before ``run[k]``, inside prose, is a label for what follows: short,
        and ending in no stop ("OPTIONS", "-c, --config=FILE", a file's name). Among line breaks,
        a cut after a sentence's end is taken before one after a label (text from a PDF has lost
        the indentation that would tell a term from its description). Code and markup lines
        end in no stop as a rule: there every line break stays as good as any other."""
        if rule(run[k].kind).plan is not PROSE or rule(run[k - 1].kind).plan is not PROSE:
            return False
        text = self.doc.text
        line_end = run[k].start
        while line_end > 0 and text[line_end - 1].isspace():  # back over the gap, not a copy of all before
            line_end -= 1
        return is_label(line_before(text, line_end))

    def _not_scraps(self, run: list[Unit], allowed: list[int], before: dict[int, int], room: int) -> list[int]:
        """Leave out cuts that would make a scrap of a chunk (an import line alone, "Yes."), unless
        the cuts left would fall inside a sentence that a scrap-making cut would not (``before``:
        the chunk's tokens, cut before each allowed unit)."""
        floor = min(max(_MIN_CHUNK_TOKENS, room // 8), room // 3)
        big = [k for k in allowed if before[k] >= floor]
        if not big:
            return allowed
        strongest_big = min(run[k].level for k in big)
        if strongest_big <= Level.BONDED or strongest_big == min(run[k].level for k in allowed):
            return big
        return allowed

    def _glued(self, run: list[Unit], i: int, k: int) -> bool:
        """Would a cut before ``run[k]`` break a heading, lead-in or header from what it
        introduces, when some tail of their chain could go on with it into the next chunk?
        (The cut before that tail is the one to take; a chain that cannot go on stays.)"""
        if not run[k - 1].glue_next:
            return False
        first = k - 1
        while first > i + 1 and run[first - 1].glue_next:
            first -= 1
        last = k - 1
        while last + 1 < len(run) and run[last + 1].glue_next:
            last += 1
        follower = last + 1
        if follower == len(run):
            return False
        # What follows is the follower with the sentences bonded to it ("Yes." and its reason).
        group = follower
        while group + 1 < len(run) and run[group + 1].level == Level.BONDED:
            group += 1
        for start in range(first, last + 1):
            if self.cost(run[start : group + 1]) <= self.room(run[start]):
                return k != start  # the longest tail that fits moves: cut before it, nowhere else
        return False

    def _stranded(self, run: list[Unit], k: int) -> bool:
        """Would a chunk starting at ``run[k]`` hold nothing but headings and lead-ins, because
        what they introduce does not fit with them? Then they stay with what comes before."""
        c = k
        while c < len(run) and run[c].glue_next:
            c += 1
        return k < c < len(run) and self.cost(run[k : c + 1]) > self.room(run[k])

    def merge_small(self, chunks: list[list[Unit]]) -> list[list[Unit]]:
        """--min-tokens: fold a chunk under the minimum into a neighbour of the same parent section."""
        out: list[list[Unit]] = []
        for chunk in chunks:
            prev = out[-1] if out else None
            small = self.opts.min_tokens
            if prev is not None and (self.tokens(chunk) < small or self.tokens(prev) < small):
                common = _common(prev[0].section, chunk[0].section)
                related = len(common) >= max(len(prev[0].section), len(chunk[0].section)) - 1
                if (
                    related
                    and prev[0].block == chunk[0].block
                    and self.cost(prev + chunk) <= self.room(prev[0], common)
                ):
                    out[-1] = prev + chunk
                    continue
            out.append(chunk)
        return out

    # -- drafts ----------------------------------------------------------------
    def drafts(self, chunks: list[list[Unit]]) -> list[Draft]:
        drafts = []
        for units in chunks:
            own = 0
            while own < len(units) and units[own].kind == "heading":
                own += 1
            # A chunk's section is its content's; bare headings above it are stated in its text.
            # A chunk of headings alone (sections with no text of their own, a contents list set
            # as headings) is in the section common to them all: in its first heading's own when
            # the others are under it, else in their parent's, whose breadcrumb room() priced.
            body = units[own:] or units
            section = body[0].section
            for u in body[1:]:
                if u.section != section:  # (most often the same path: no common part to look for)
                    section = _common(section, u.section)
            kinds = list(dict.fromkeys([u.kind for u in units]))
            languages = {u.language for u in units}
            code = not CODE_KINDS.isdisjoint(kinds)
            symbols = {u.symbol for u in units if u.symbol}
            drafts.append(
                Draft(
                    start=units[0].start,
                    end=units[-1].end,
                    section_path=section,
                    kinds=kinds,
                    context=_CodeContext(self, units).context() if code else units[0].context,
                    # (Most chunks open with no heading and hold no definition: nothing to ask.)
                    own_headings=_stated(units[:own], section) if own else 0,
                    context_cap=self._context_cap(units),
                    language=languages.pop() if len(languages) == 1 else None,
                    symbol=_common_symbol(symbols) if symbols else None,
                )
            )
        return drafts

    def _context_cap(self, units: list[Unit]) -> int | None:
        """A chunk packed in its bare room (its text leaves less than its context's share: a long
        paragraph, a long definition kept whole): the prefix gets what is left; None for every
        other chunk (the usual share)."""
        tokens = self.tokens(units)
        if tokens <= self.room(units[0], reserve=False):
            return None
        return max(0, self._content(reserve=False) - tokens)

    def add_overlap(self, drafts: list[Draft], chunks: list[list[Unit]]) -> None:
        """--overlap N: start each chunk N sentences early, inside its own section, within budget."""
        text = self.doc.text
        for i in range(1, len(drafts)):
            prev, draft = drafts[i - 1], drafts[i]
            if prev.section_path != draft.section_path or draft.own_headings:
                continue
            if chunks[i - 1][-1].block != chunks[i][0].block:
                continue  # never into another notebook cell
            if any(u.kind == "table_row" for u in chunks[i - 1][-1:]):
                continue  # a row is repeated whole or not at all; its header is context already
            tail = sentence_spans(text, prev.start, prev.end)[-self.opts.overlap :]
            room = self.room(chunks[i][0], reserve=False) - self.tokens(chunks[i])
            for start, _ in tail:
                if self.index.count(start, prev.end) <= room:
                    draft.start = start
                    break


def _stated(headings: list[Unit], section: tuple[str, ...]) -> int:
    """How many of the headings a chunk opens with stand on its section's path: its text states
    them, so its breadcrumb leaves them out. A sibling that only opens the chunk ("## 10." above
    "## 11." and its text) is no part of that path, and the breadcrumb above them stays whole."""
    return sum(1 for h in headings if h.section == section[: len(h.section)])


class _CodeContext:
    """The context of a chunk being built: its first unit's, plus the lines later code units
    need that the chunk's own text (an import statement, a signature piece) does not hold."""

    def __init__(self, packer: Packer, units: list[Unit]) -> None:
        self.packer = packer
        self.first = units[0]
        self.have = set(units[0].context.lines())
        self.added: list[str] = []
        self.provided: set[str] = set()
        self.extra = 0
        for unit in units[1:]:
            self.add(unit)

    def _new(self, unit: Unit) -> list[str]:
        if unit.kind not in CODE_KINDS:
            return []
        lines = [*unit.context.enclosing, *unit.context.imports]
        if not lines:
            return []
        provided = self.provided | {unit.provides} if unit.provides else self.provided
        text = self.packer.doc.text[self.first.start : unit.end]
        return [c for c in lines if c not in self.have and c not in provided and c not in text]

    def extra_for(self, unit: Unit) -> int:
        return sum(self._line_tokens(c) for c in self._new(unit))

    def add(self, unit: Unit) -> None:
        new = self._new(unit)
        self.extra += sum(self._line_tokens(c) for c in new)
        self.added.extend(new)
        self.have.update(new)
        if unit.provides:
            self.provided.add(unit.provides)

    def context(self) -> Context:
        base = self.first.context
        return replace(base, imports=(*base.imports, *self.added)) if self.added else base

    def _line_tokens(self, line: str) -> int:
        # A context line costs its tokens and (for counters that count it) its line break.
        return self.packer.builder.tokens(line)


def _stretch_ends(run: list[Unit], level: Level) -> list[int]:
    """``ends[i]``: the first unit from ``i`` on whose boundary is stronger than ``level`` (or the
    run's length). Built for the levels a run's cuts are made at (one or two of the ten, as a rule)."""
    n = len(run)
    ends = [n] * (n + 1)
    for k in range(n - 1, -1, -1):
        ends[k] = k if run[k].level < level else ends[k + 1]
    return ends


def _strongest(run: list[Unit], i: int, reach: int) -> Level:
    """The strongest boundary a chunk from ``run[i]`` could end at, within ``reach``."""
    return min(run[k].level for k in range(i + 1, reach + 1))


def _continues(current: list[Unit], unit: Unit) -> bool:
    """May ``unit`` join the chunk being built? Not across sections — except that a chunk
    of bare headings takes the subsection that opens under them (its first block), and an
    empty section (a heading with nothing under it) goes on into the sibling that follows it
    rather than stand alone as a scrap. Never from one notebook cell or output into another."""
    if unit.block != current[-1].block:
        return False
    if unit.kind != "heading" and unit.section == current[-1].section:
        return True
    last = current[-1]
    bare = all(u.kind == "heading" for u in current)
    under = unit.section[: len(last.section)] == last.section and len(unit.section) > len(last.section)
    sibling = len(unit.section) == len(last.section) and unit.section[:-1] == last.section[:-1]
    return bare and (under or sibling)


def _common_symbol(symbols: set[str]) -> str | None:
    """One definition's symbol, or the class all of a chunk's definitions belong to."""
    paths = [tuple(s.split(".")) for s in sorted(symbols)]
    if not paths:
        return None
    common = paths[0]
    for path in paths[1:]:
        common = _common(common, path)
    return ".".join(common) or None


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    if a == b:  # most often the same tuple: the units of one section share their path
        return a
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


__all__ = ["Level", "Options", "Packer"]
