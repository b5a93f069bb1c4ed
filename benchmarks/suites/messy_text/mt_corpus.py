"""Sources → evidence → variant files on disk, with every span located and verified in them."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.suites.messy_text import mt_pdf
from benchmarks.suites.messy_text.mt_model import Source
from benchmarks.suites.messy_text.mt_spans import Evidence, Located, Squeezed, draw, locate_tracked, squeeze, words
from benchmarks.suites.messy_text.mt_tracked import Tracked, concat
from benchmarks.suites.messy_text.mt_variants import applies, strip_markdown, transform

VARIANTS = [
    "clean",
    "lower",
    "no_blank_lines",
    "wrapped80",
    "plain",
    "flat_tables",
    "lower_flat",
    "pdf",
    "concat",
    "non_english",
]
KEEPS_MARKUP = {"clean", "lower", "no_blank_lines", "wrapped80", "flat_tables", "non_english"}
SENTENCES_PER_SPAN = {"fastapi": 20}  # one span per N sentences of a source (default 4)


@dataclass
class Variant:
    name: str
    files: dict[str, Path] = field(default_factory=dict)
    located: list[Located] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # evidence ids that could not be located and verified
    sources: list[str] = field(default_factory=list)


def file_name(source: Source, suffix: str) -> str:
    stem = source.name.rsplit(".", 1)[0].replace("/", "__")
    return stem + suffix


def plain_of(source: Source) -> Tracked:
    t = Tracked(source.text)
    return strip_markdown(t, "\t") if source.markdown else t


def span_text(t: Tracked, a: int, b: int) -> str:
    span = t.map_span(a, b)
    return t.text[span[0] : span[1]] if span else ""


def draw_all(sources: list[Source], seed: int, query_terms: int = 3) -> dict[str, list[Evidence]]:
    """Evidence of every source. A span whose plain characters are not the clean ones less
    markup (an in-order subsequence) would mean the stripper broke text: that stops the run.
    Spans that are mostly markup (an HTML link with attributes) are left out."""
    out = {}
    for s in sources:
        plain = plain_of(s)
        kept_evidence = []
        for e in draw(s, plain, seed, SENTENCES_PER_SPAN.get(s.group, 4), query_terms):
            clean, kept = squeeze(s.text[e.start : e.end]), squeeze(span_text(plain, e.start, e.end))
            it = iter(clean)
            assert all(c in it for c in kept), f"stripping Markdown changed text in {e.id}"
            if len(kept) >= len(clean) // 2:
                kept_evidence.append(e)
        out[s.name] = kept_evidence
    return out


def _reference(variant: str, source: Source, plain: Tracked, a: int, b: int) -> str:
    return source.text[a:b] if variant in KEEPS_MARKUP else span_text(plain, a, b)


def build_tracked(variant: str, sources: list[Source], evidence: dict[str, list[Evidence]], out: Path) -> Variant:
    v = Variant(variant)
    for s in sources:
        if not applies(variant, s):
            continue
        t, suffix = transform(variant, s)
        name = file_name(s, suffix)
        v.files[name] = out / name
        v.files[name].write_text(t.text, encoding="utf-8")
        v.sources.append(s.name)
        plain = plain_of(s)
        for e in evidence[s.name]:
            found = locate_tracked(e, t, _reference(variant, s, plain, e.start, e.end))
            if found:
                v.located.append(Located(e, name, found[0], found[1], found[2]))
            else:
                v.lost.append(e.id)
    return v


def build_concat(sources: list[Source], evidence: dict[str, list[Evidence]], out: Path) -> Variant:
    v = Variant("concat")
    english = [s for s in sources if applies("concat", s)]
    parts = [plain_of(s) for s in english]
    text, bases = concat(parts, "\n\n")
    name = "all-documents.txt"
    v.files[name] = out / name
    v.files[name].write_text(text, encoding="utf-8")
    for s, part, base in zip(english, parts, bases, strict=True):
        v.sources.append(s.name)
        for e in evidence[s.name]:
            found = locate_tracked(e, part, span_text(part, e.start, e.end))
            if found and text[base + found[0] : base + found[1]] == part.text[found[0] : found[1]]:
                v.located.append(Located(e, name, base + found[0], base + found[1], found[2]))
            else:
                v.lost.append(e.id)
    return v


def build_pdf(
    sources: list[Source], evidence: dict[str, list[Evidence]], out: Path, keep: Callable[[Source], bool]
) -> Variant:
    """PDF text has its own whitespace: spans are found by search (whitespace and pipes
    ignored, same occurrence as in the plain text), then verified word for word."""
    v = Variant("pdf")
    for s in sources:
        if not (applies("pdf", s) and keep(s)):
            continue
        text = mt_pdf.pdf_text(s)
        name = file_name(s, ".txt")
        v.files[name] = out / name
        v.files[name].write_text(text, encoding="utf-8")
        v.sources.append(s.name)
        plain, found_in = plain_of(s), Squeezed(text)
        plain_index = Squeezed(plain.text)
        for e in evidence[s.name]:
            loc = _search(e, plain, plain_index, found_in, text)
            if loc:
                v.located.append(Located(e, name, *loc))
            else:
                v.lost.append(e.id)
    return v


def _search(
    e: Evidence, plain: Tracked, plain_index: Squeezed, index: Squeezed, text: str
) -> tuple[int, int, str | None] | None:
    def find(a: int, b: int) -> tuple[int, int] | None:
        span = plain.map_span(a, b)
        if span is None:
            return None
        reference = plain.text[span[0] : span[1]]
        hit = index.find(reference, plain_index.count(reference, before=span[0]))
        return hit if hit and words(text[hit[0] : hit[1]]) == words(reference) else None

    body = find(e.start, e.end)
    if body is None:
        return None
    if e.header is None:
        return body[0], body[1], None
    head = find(*e.header)
    return (body[0], body[1], text[head[0] : head[1]]) if head else None


def build(
    variants: list[str],
    sources: list[Source],
    evidence: dict[str, list[Evidence]],
    root: Path,
    pdf_keep: Callable[[Source], bool],
) -> dict[str, Variant]:
    if root.exists():
        shutil.rmtree(root)
    out = {}
    for name in variants:
        folder = root / name
        folder.mkdir(parents=True)
        if name == "concat":
            out[name] = build_concat(sources, evidence, folder)
        elif name == "pdf":
            if mt_pdf.chromium() is None:
                print("pdf variant skipped: no Chromium (apt-get install chromium)", flush=True)
                continue
            out[name] = build_pdf(sources, evidence, folder, pdf_keep)
        else:
            out[name] = build_tracked(name, sources, evidence, folder)
    return out
