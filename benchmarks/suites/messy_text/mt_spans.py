"""Evidence spans, their retrieval queries, and where they land in each variant.

A span is one to three consecutive sentences of one block of the clean source, or one table
row together with its table's header. Its query is made of content words sampled from the
span *spread over its whole length*: the span's content words are cut into three equal runs
(``--query-terms``) and one word is drawn from each run (for a row: words of the row label, of two other
cells, and of the header above two of them). A chunk that answers every query term therefore
tends to need the whole span, which is what "complete evidence" measures.

Everything is seeded from ``--seed`` and the source name (crc32), so a run is reproducible.
"""

from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass

from benchmarks.suites.messy_text.mt_model import Source
from benchmarks.suites.messy_text.mt_tracked import Tracked

STOPWORDS = set(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each either else even ever every few for from
    further had has have having he her here hers him his how however i if in into is it its itself just less
    let like may me might more most much must my no nor not now of off often on once one only or other our ours
    out over own per quite rather same shall she should since so some still such than that the their theirs
    them then there these they this those though through thus to too under until up upon us use used uses using
    very was we were what when where whether which while who whom whose why will with within without would yet
    you your yours also can't don't it's let's that's there's here's you'll you're we're i'm isn't aren't
    der die das den dem des ein eine einen einem einer eines und oder aber auch als auf aus bei bis durch für
    gegen hat hatte haben ich ihr ihre im in ist kann können mit nach nicht noch nur ob oder sich sie sind so
    über um und uns unter vom von vor war wenn werden wie wir wird wurde zu zum zur dass diese dieser dieses es
    sein seine ihnen ihr einer man mehr sehr""".split()
)
_WORD = re.compile(r"\w+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_JA_TERM = re.compile(r"[\u30a0-\u30ff\u3400-\u9fff]{2,}|[A-Za-z0-9]{3,}")


@dataclass
class Evidence:
    id: str
    source: str
    kind: str  # "sentences" | "row"
    sentences: int  # 1..3 (0 for a row)
    start: int  # clean offsets
    end: int
    header: tuple[int, int] | None
    terms: list[str]

    @property
    def query(self) -> str:
        return " ".join(self.terms)


@dataclass
class Located:
    evidence: Evidence
    file: str  # the variant file that holds it
    start: int  # offsets in that file's text
    end: int
    header: str | None  # the header's text in the variant, for rows


def words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def content_words(text: str, lang: str) -> list[str]:
    if lang == "ja":
        return _JA_TERM.findall(text)
    return [w for w in words(text) if w not in STOPWORDS and (len(w) >= 3 or w.isdigit()) and not w.startswith("_")]


def spread_sample(candidates: list[str], rng: random.Random, runs: int = 3, per_run: int = 1) -> list[str]:
    picked: list[str] = []
    size = len(candidates)
    for r in range(runs):
        run = [w for w in candidates[r * size // runs : (r + 1) * size // runs] if w not in picked]
        run = list(dict.fromkeys(run))
        picked += rng.sample(run, k=min(per_run, len(run)))
    order = {w: i for i, w in reversed(list(enumerate(candidates)))}
    return sorted(picked, key=order.__getitem__)


def _rng(seed: int, name: str) -> random.Random:
    return random.Random(seed * 1_000_003 + zlib.crc32(name.encode("utf-8")))


def draw(source: Source, plain: Tracked, seed: int, per_sentences: int, query_terms: int = 3) -> list[Evidence]:
    """Spans of one source; ``plain`` is its markup-free text, which queries are drawn from."""
    rng = _rng(seed, source.name)
    blocks: dict[int, list[int]] = {}
    for i, s in enumerate(source.sentences):
        blocks.setdefault(s.block, []).append(i)
    candidates = [(ids[k], n) for ids in blocks.values() for n in (1, 2, 3) for k in range(len(ids) - n + 1)]
    wanted = max(2, len(source.sentences) // per_sentences)
    out: list[Evidence] = []
    for first, n in rng.sample(candidates, k=len(candidates)):
        if len([e for e in out if e.kind == "sentences"]) >= wanted:
            break
        a, b = source.sentences[first].start, source.sentences[first + n - 1].end
        if any(e.start < b and a < e.end for e in out):
            continue
        span = plain.map_span(a, b)
        terms = (
            spread_sample(content_words(plain.text[span[0] : span[1]], source.lang), rng, runs=query_terms)
            if span
            else []
        )
        if len(terms) >= min(3, query_terms):
            out.append(Evidence(f"{source.name}#s{a}-{b}", source.name, "sentences", n, a, b, None, terms))
    for row in rng.sample(source.rows, k=min(len(source.rows), max(2, len(source.rows) // 3))):
        cells = [c.strip() for c in source.text[row.start : row.end].strip("| ").split("|")]
        header = [c.strip() for c in source.text[row.header_start : row.header_end].strip("| ").split("|")]
        cells = [c for c in cells if c] or [""]
        others = rng.sample(range(1, len(cells)), k=min(2, len(cells) - 1))
        terms = content_words(cells[0], source.lang)[:3]
        terms += [w for i in others for w in (content_words(header[i], source.lang)[:2] if i < len(header) else [])]
        terms += [w for i in others[:1] for w in words(cells[i])[:1]]
        terms = list(dict.fromkeys(terms))
        if len(terms) >= 3:
            out.append(
                Evidence(
                    f"{source.name}#r{row.start}-{row.end}",
                    source.name,
                    "row",
                    0,
                    row.start,
                    row.end,
                    (row.header_start, row.header_end),
                    terms,
                )
            )
    return out


def squeeze(text: str) -> str:
    """Compare text across renderings: case, whitespace and table pipes do not count."""
    return re.sub(r"[\s|]+", "", text).casefold()


def locate_tracked(e: Evidence, t: Tracked, reference: str) -> tuple[int, int, str | None] | None:
    """Map the clean span through the variant's edits, then verify: the variant slice holds
    exactly the reference's words (the clean span's words for variants that keep markup, the
    plain span's words for those that strip it)."""
    span = t.map_span(e.start, e.end)
    if span is None or words(t.text[span[0] : span[1]]) != words(reference):
        return None
    header = None
    if e.header:
        h = t.map_span(*e.header)
        if h is None:
            return None
        header = t.text[h[0] : h[1]]
    return span[0], span[1], header


class Squeezed:
    """A text with whitespace and pipes removed, and where each kept character came from."""

    def __init__(self, text: str) -> None:
        # Case-folded a character at a time, so that each folded character still knows where it
        # came from ("ﬁ" and "ß" fold to two characters).
        self.keep: list[int] = []
        folded: list[str] = []
        for i, c in enumerate(text):
            if not (c.isspace() or c == "|"):
                for f in c.casefold():
                    folded.append(f)
                    self.keep.append(i)
        self.text = "".join(folded)

    def count(self, reference: str, before: int | None = None) -> int:
        """Occurrences of the reference (in the original text, starting before ``before``)."""
        needle, n, pos = squeeze(reference), 0, -1
        while needle:
            pos = self.text.find(needle, pos + 1)
            if pos < 0 or (before is not None and self.keep[pos] >= before):
                break
            n += 1
        return n

    def find(self, reference: str, occurrence: int) -> tuple[int, int] | None:
        """The ``occurrence``-th place (0-based) the reference appears, as original offsets."""
        needle, pos = squeeze(reference), -1
        if not needle:
            return None
        for _ in range(occurrence + 1):
            pos = self.text.find(needle, pos + 1)
            if pos < 0:
                return None
        return self.keep[pos], self.keep[pos + len(needle) - 1] + 1
