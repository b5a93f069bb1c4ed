"""The default strategy: pack atomic units under the token budget, section by section.

Rules (ARCHITECTURE.md, "Chunking rules"): a unit is split only when it is alone
over budget (units.py does that); a chunk never crosses into another section; a
heading and a list's or table's lead-in stay with the block that follows them; a
chunk that starts inside a table, list or turn carries the header, lead-in or
speaker in its embed_text. Token counts are summed per unit — each unit is
tokenized once — and finalize() measures the real embed_text afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from chunkers.budget import Counter, SpanCounts
from chunkers.finalize import Draft, Prefixer
from chunkers.sentences import sentence_spans
from chunkers.units import CODE_KINDS, Unit, fit_units, leaf_units
from parsers.model import Document


@dataclass
class Options:
    max_tokens: int
    min_tokens: int = 0  # merge neighbouring chunks under this size within the same parent section
    overlap: int = 0  # sentences of the previous chunk repeated at the start of the next (a quarter
    # of the budget is kept free for them)


class _Packer:
    def __init__(self, doc: Document, counter: Counter, prefixer: Prefixer, opts: Options) -> None:
        self.doc = doc
        self.counter = counter
        self.prefixer = prefixer
        self.opts = opts

    def room(self, first: Unit, section: tuple[str, ...] | None = None, reserve: bool = True) -> int:
        """Content tokens left for a chunk that starts with ``first`` (less the share that
        --overlap keeps free for repeated sentences, unless ``reserve`` is off)."""
        prefix = self.prefixer.prefix(
            first.section if section is None else section, first.context, int(first.kind == "heading")
        )
        content = self.opts.max_tokens - self.counter.specials
        kept = content // 4 if reserve and self.opts.overlap > 0 else 0
        return content - kept - self.prefixer.tokens(prefix)

    def pack(self, units: list[Unit]) -> list[list[Unit]]:
        chunks: list[list[Unit]] = []
        for run in self.runs(units):
            chunks.extend(self.pack_run(run))
        return chunks

    def runs(self, units: list[Unit]) -> list[list[Unit]]:
        """Maximal sequences a chunk may range over: one section (with bare headings above it)."""
        runs: list[list[Unit]] = []
        for unit in units:
            if runs and self._continues(runs[-1], unit):
                runs[-1].append(unit)
            else:
                runs.append([unit])
        return runs

    def pack_run(self, run: list[Unit]) -> list[list[Unit]]:
        """Greedy packing, balanced: a run that needs k chunks is cut into k of similar size,
        rather than k-1 full ones and a scrap."""
        room = self.room(run[0])
        total = _tokens(run)
        if total <= room:
            return [run]
        k = -(-total // room)
        target = min(room, int(-(-total // k) * 1.1))
        balanced = self.greedy(run, target)
        return balanced if len(balanced) <= k else self.greedy(run, None)

    def greedy(self, run: list[Unit], target: int | None) -> list[list[Unit]]:
        chunks: list[list[Unit]] = []
        current: list[Unit] = []
        context = _Context(self, [run[0]])
        total = limit = 0
        for unit in run:
            if current:
                extra = context.extra_for(unit)
                # A closing brace may use the whole room, not just the balanced target.
                bound = self.room(current[0]) if unit.glue_prev else limit
                if total + unit.tokens + extra <= bound:
                    context.add(unit)
                    current.append(unit)
                    total += unit.tokens + extra
                    continue
            carried = self._carry(current, unit) if current else []
            if current:
                chunks.append(current)
            current = [*carried, unit]
            limit = self.room(current[0]) if target is None else min(target, self.room(current[0]))
            context = _Context(self, current)
            total = _tokens(current) + context.extra
        if current:
            chunks.append(current)
        return chunks

    def cost(self, units: list[Unit]) -> int:
        """Content tokens of a chunk of ``units``: their own, and the context lines that code
        units after the first add to the prefix (their imports, the headers around them)."""
        return _tokens(units) + _Context(self, units).extra

    def line_tokens(self, line: str) -> int:
        # A context line costs its tokens, and (for counters that count it) its line break.
        return self.prefixer.tokens(line) + (0 if self.counter.additive else 1)

    @staticmethod
    def _continues(current: list[Unit], unit: Unit) -> bool:
        """May ``unit`` join the chunk being built? Not across sections — except that a chunk
        of bare headings takes the subsection that opens under them (its first block)."""
        if unit.kind != "heading" and unit.section == current[-1].section:
            return True
        last = current[-1]
        bare = all(u.kind == "heading" for u in current)
        return bare and unit.section[: len(last.section)] == last.section and len(unit.section) > len(last.section)

    def _carry(self, current: list[Unit], unit: Unit) -> list[Unit]:
        """Trailing units glued to what follows (a heading, a lead-in, a table header) move
        with ``unit`` into the next chunk: as many of them as fit there together."""
        k = len(current)
        while k > 0 and current[k - 1].glue_next:
            k -= 1
        while k < len(current) and self.cost([*current[k:], unit]) > self.room(current[k]):
            k += 1
        carried = current[k:]
        del current[k:]
        return carried

    def merge_small(self, chunks: list[list[Unit]]) -> list[list[Unit]]:
        """--min-tokens: fold a chunk under the minimum into a neighbour of the same parent section."""
        out: list[list[Unit]] = []
        for chunk in chunks:
            prev = out[-1] if out else None
            if prev is not None and (_tokens(chunk) < self.opts.min_tokens or _tokens(prev) < self.opts.min_tokens):
                common = _common(prev[0].section, chunk[0].section)
                related = len(common) >= max(len(prev[0].section), len(chunk[0].section)) - 1
                if related and self.cost(prev + chunk) <= self.room(prev[0], common):
                    out[-1] = prev + chunk
                    continue
            out.append(chunk)
        return out

    def drafts(self, chunks: list[list[Unit]]) -> list[Draft]:
        drafts = []
        for units in chunks:
            first = units[0]
            own = 0
            while own < len(units) and units[own].kind == "heading":
                own += 1
            # A chunk's section is its content's; bare headings above it are stated in its text.
            body = units[own:] or units
            section = body[0].section
            for u in body[1:]:
                section = _common(section, u.section)
            languages = {u.language for u in units}
            symbols = {u.symbol for u in units if u.symbol}
            context = tuple(_Context(self, units).lines)
            drafts.append(
                Draft(
                    start=first.start,
                    end=units[-1].end,
                    section_path=section,
                    kinds=list(dict.fromkeys(u.kind for u in units)),
                    context=context,
                    own_headings=own if units[own:] else min(own, len(section)),
                    language=languages.pop() if len(languages) == 1 else None,
                    symbol=_common_symbol(symbols),
                    # finalize adds the prefix's own count: the text's is exact when every unit's is.
                    tokens=_tokens(units) if all(u.exact for u in units) else None,
                )
            )
        return drafts

    def add_overlap(self, drafts: list[Draft], chunks: list[list[Unit]]) -> None:
        """--overlap N: start each chunk N sentences early, inside its own section, within budget."""
        text = self.doc.text
        for i in range(1, len(drafts)):
            prev, draft = drafts[i - 1], drafts[i]
            if prev.section_path != draft.section_path or draft.own_headings:
                continue
            tail = sentence_spans(text, prev.start, prev.end)[-self.opts.overlap :]
            room = self.room(chunks[i][0], reserve=False) - _tokens(chunks[i])
            for start, _ in tail:
                cost = self.counter.count_many([text[start : prev.end]])[0]
                if cost <= room:
                    draft.start, draft.tokens = start, None  # measured again by finalize
                    break


class _Context:
    """The context lines of a chunk being built: its first unit's, plus what later code units
    need that the chunk's own text (an import statement, a signature piece) does not hold."""

    def __init__(self, packer: _Packer, units: list[Unit]) -> None:
        self.packer = packer
        self.first = units[0]
        self.lines = list(units[0].context)
        self.provided: set[str] = set()
        self.extra = 0
        for unit in units[1:]:
            self.add(unit)

    def _new(self, unit: Unit) -> list[str]:
        if unit.kind not in CODE_KINDS or not unit.context:
            return []
        provided = self.provided | {unit.provides} if unit.provides else self.provided
        text = self.packer.doc.text[self.first.start : unit.end]
        return [c for c in unit.context if c not in self.lines and c not in provided and c not in text]

    def extra_for(self, unit: Unit) -> int:
        return sum(self.packer.line_tokens(c) for c in self._new(unit))

    def add(self, unit: Unit) -> None:
        new = self._new(unit)
        self.extra += sum(self.packer.line_tokens(c) for c in new)
        self.lines.extend(new)
        if unit.provides:
            self.provided.add(unit.provides)


def _common_symbol(symbols: set[str]) -> str | None:
    """One definition's symbol, or the class all of a chunk's definitions belong to."""
    paths = [tuple(s.split(".")) for s in sorted(symbols)]
    if not paths:
        return None
    common = paths[0]
    for path in paths[1:]:
        common = _common(common, path)
    return ".".join(common) or None


def _tokens(units: list[Unit]) -> int:
    return sum(u.tokens for u in units)


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def structural(doc: Document, counter: Counter, prefixer: Prefixer, opts: Options) -> list[Draft]:
    packer = _Packer(doc, counter, prefixer, opts)
    # Code documents split deeply and often: one pass with offsets answers every count.
    counts = SpanCounts(counter, doc.text, index_first=doc.format == "code")
    units = leaf_units(doc, counts)
    prefixer.warm((u.section, u.context, int(u.kind == "heading")) for u in units)
    chunks = packer.pack(fit_units(doc, units, counts, packer.room))
    if opts.min_tokens > 0:
        chunks = packer.merge_small(chunks)
    drafts = packer.drafts(chunks)
    if opts.overlap > 0:
        packer.add_overlap(drafts, chunks)
    return drafts
