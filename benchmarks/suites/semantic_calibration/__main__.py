"""semantic_calibration: where the semantic strategies' thresholds come from: topic shifts made by construction.

From the fastapi docs, 8 consecutive prose sentences of one section make a *one-topic* text; the
last 4 sentences of one page's section followed by the first 4 of another page's section make a
*two-topic* text. Both are laid out the same way (one section, a paragraph break after the fourth
sentence, or all in one paragraph with --one-paragraph), so the layout says nothing: only the
words do. Each text goes through parsegate's own pipeline (Markdown parse, units, section runs,
``topic_shifts``), for a grid of windows and thresholds; similarities are computed once per text.

Reported per setting: the share of two-topic texts cut exactly at the junction (hit), cut
somewhere else (stray), and the share of one-topic texts cut at all (false split). "One section
of a page is one topic" is an assumption (fastapi sections sometimes turn), so the false-split
rate is an upper bound.

    python -m benchmarks.suites.semantic_calibration               # lexical and, if installed, embedding
    python -m benchmarks.suites.semantic_calibration --samples 100 --only semantic-lexical
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from parsegate.chunkers import ChunkConfig, Chunker
from parsegate.chunkers.semantic import Detector, make_detector, topic_shifts
from parsegate.chunkers.similarity import LexicalOverlap, Shift, Window
from parsegate.chunkers.structural.packing import Options, Packer
from parsegate.chunkers.structural.sentences import sentence_spans
from parsegate.chunkers.structural.units import fit_units, leaf_units
from parsegate.parsers import markdown
from parsegate.parsers.model import Document

CORPUS = harness.FASTAPI
# The chunker's defaults (window, threshold, percentile): the rows of the result file.
DEFAULTS = {"semantic-lexical": (3, 0.05, 100.0), "semantic-embedding": (3, 0.3, 10.0)}
SIDE = 4
GRID: dict[str, list[tuple[int, float, float]]] = {
    "semantic-lexical": [(w, t, 100.0) for w in (2, 3, 4) for t in (0.0, 0.02, 0.05, 0.08, 0.1, 0.15)],
    "semantic-embedding": [
        (w, t, p) for w in (2, 3) for t in (0.2, 0.25, 0.3, 0.35, 0.4, 1.0) for p in (5.0, 10.0, 20.0, 100.0)
    ],
}


class Cached:
    """A detector whose similarities are computed once per text (the grid only moves thresholds)."""

    def __init__(self, inner: Detector) -> None:
        self.inner = inner
        self.name = inner.name
        self.memo: dict[tuple[tuple[str, ...], tuple[tuple[int, ...], ...]], list[float]] = {}

    def check(self, window: int, threshold: float | None, percentile: float) -> float:
        return self.inner.check(window, threshold, percentile)

    def settings(self, shift: Shift) -> dict[str, Any]:
        return self.inner.settings(shift)

    def limit(self, similarities: list[float], shift: Shift) -> float:
        return self.inner.limit(similarities, shift)

    def similarities(self, sentences: list[str], windows: list[Window]) -> list[float]:
        key = (tuple(sentences), tuple((*w[0], -1, *w[1]) for w in windows))
        if key not in self.memo:
            self.memo[key] = self.inner.similarities(sentences, windows)
        return self.memo[key]


def section_sentences(corpus: Path) -> list[tuple[str, list[str]]]:
    """(page, the prose sentences of one section's paragraphs, in order), sections with 8 or more."""
    out = []
    for path in sorted(corpus.rglob("*.md")):
        doc = markdown.parse(path.read_bytes(), str(path.relative_to(corpus)))
        by_section: dict[tuple[str, ...], list[str]] = {}
        for el in doc.leaves():
            if el.kind == "paragraph":
                spans = sentence_spans(doc.text, el.start, el.end)
                by_section.setdefault(el.section_path, []).extend(
                    " ".join(doc.text[s:e].split()) for s, e in spans if len(doc.text[s:e].split()) >= 4
                )
        out.extend((doc.doc_id, sents) for sents in by_section.values() if len(sents) >= 2 * SIDE)
    return out


def texts(sections: list[tuple[str, list[str]]], samples: int, seed: int) -> tuple[list[list[str]], list[list[str]]]:
    rng = random.Random(seed)
    one = [s[: 2 * SIDE] for _, s in rng.sample(sections, min(samples, len(sections)))]
    two = []
    while len(two) < samples:
        (page_a, a), (page_b, b) = rng.sample(sections, 2)
        if page_a != page_b:
            two.append(a[-SIDE:] + b[:SIDE])
    return one, two


def document(sentences: Sequence[str], one_paragraph: bool) -> tuple[Document, int]:
    """The text as a Markdown section, and the offset where its fifth sentence starts."""
    head = "# Notes\n\n## Section\n\n" + " ".join(sentences[:SIDE])
    joint = " " if one_paragraph else "\n\n"
    text = head + joint + " ".join(sentences[SIDE:]) + "\n"
    return markdown.parse(text.encode(), "calibration.md"), len(head) + len(joint)


def shifts(doc: Document, chunker: Chunker, detector: Detector, shift: Shift) -> list[int]:
    builder = chunker.builder(doc)
    index = chunker.counter.index(doc.text)
    packer = Packer(doc, index, builder, chunker.counter.specials, Options(chunker.max_tokens))
    runs = packer.runs(fit_units(doc, leaf_units(doc), index, packer.room))
    return [at for found in topic_shifts(doc, runs, detector, shift) for at in found]


def sweep(
    strategy: str, one: list[list[str]], two: list[list[str]], one_paragraph: bool, idf: bool
) -> list[dict[str, Any]]:
    chunker = Chunker(ChunkConfig(strategy="structural", max_tokens=512))
    inner = make_detector(strategy, "all-MiniLM-L6-v2") if idf else LexicalOverlap(idf=False)
    detector = Cached(inner)
    docs_one = [document(s, one_paragraph) for s in one]
    docs_two = [document(s, one_paragraph) for s in two]
    clock = time.perf_counter()
    rows = []
    for window, threshold, percentile in GRID[strategy]:
        shift = Shift(window, threshold, percentile)
        false = sum(bool(shifts(doc, chunker, detector, shift)) for doc, _ in docs_one)
        hit = stray = 0
        for doc, junction in docs_two:
            found = shifts(doc, chunker, detector, shift)
            hit += junction in found
            stray += any(at != junction for at in found)
        rows.append(
            {
                "window": window,
                "threshold": threshold,
                "percentile": percentile,
                "hit": round(hit / len(docs_two), 3),
                "stray": round(stray / len(docs_two), 3),
                "false_split": round(false / len(docs_one), 3),
            }
        )
    print(f"{strategy}: {time.perf_counter() - clock:.1f} s for the grid (similarities computed once per text)")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--one-paragraph", action="store_true", help="both topics in one paragraph")
    parser.add_argument("--only", choices=sorted(GRID), action="append")
    parser.add_argument("--no-idf", action="store_true", help="lexical: term frequencies without IDF, to compare")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    sections = section_sentences(args.corpus)
    one, two = texts(sections, args.samples, args.seed)
    results: dict[str, Any] = {
        "corpus": str(args.corpus),
        "sections_with_8_sentences": len(sections),
        "samples": args.samples,
        "one_paragraph": args.one_paragraph,
        "lexical_idf": not args.no_idf,
    }
    for strategy in args.only or sorted(GRID):
        try:
            rows = sweep(strategy, one, two, args.one_paragraph, not (args.no_idf and strategy == "semantic-lexical"))
        except ValueError as exc:  # the embed extra is not installed
            print(f"{strategy}: skipped: {exc}")
            continue
        results[strategy] = rows
        print(f"{'window':>6} {'threshold':>9} {'pct':>5} {'hit':>6} {'stray':>6} {'false split':>11}")
        for r in rows:
            print(
                f"{r['window']:>6} {r['threshold']:>9} {r['percentile']:>5} {r['hit']:>6} {r['stray']:>6}"
                f" {r['false_split']:>11}"
            )
    report = Report("semantic_calibration")
    corpus = f"{args.samples} one-topic and {args.samples} two-topic texts"
    for strategy, setting in DEFAULTS.items():
        row = next(
            (r for r in results.get(strategy, []) if (r["window"], r["threshold"], r["percentile"]) == setting), None
        )
        for metric in ("hit", "stray", "false_split") if row else ():
            report.add(f"{strategy} (defaults)", corpus, metric, row[metric], "share")
    report.details = results
    default = args.samples == 200 and not args.only and not args.no_idf and not args.one_paragraph
    print(
        f"wrote {report.write(args.out or (None if default else harness.RESULTS / 'semantic_calibration.partial.tmp'))}"
    )


if __name__ == "__main__":
    main()
