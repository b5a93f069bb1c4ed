"""sentence_segmenters: sentence segmenters under parsegate: boundary quality on messy,
multilingual text, and speed.

    python -m benchmarks.suites.sentence_segmenters                  # all candidates, 5 passes
    python -m benchmarks.suites.sentence_segmenters --repeat 9 --baseline REV

parsegate's splitter is this checkout's chunkers/structural/sentences.py (as it is on disk), and with
--baseline also that git revision's (the one module, loaded by its path). Writes
benchmarks/results/sentence_segmenters.json and prints the tables (also written next to this file
as RESULTS.md). The controls and self-checks at the start make the metric and the offset
verification fail on purpose; the run stops if they do not.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.suites.sentence_segmenters.candidates import (
    FACTORIES,
    Candidate,
    combined,
    every_space,
    never_split,
    ours,
)
from benchmarks.suites.sentence_segmenters.metric import Score, predicted_boundaries
from benchmarks.suites.sentence_segmenters.offsets import OffsetError, align_pieces, check_spans, trimmed
from benchmarks.suites.sentence_segmenters.samples import LANGUAGES, Sample, build_samples, variants
from benchmarks.suites.sentence_segmenters.tables import render

HERE = Path(__file__).resolve().parent
BIG_COPIES = 64  # the "one long call" input: all clean English paragraphs, this many times over


def our_candidates(baseline: str | None) -> tuple[list[Candidate], dict[str, str]]:
    """parsegate's splitter as this checkout has it on disk and, with ``baseline``, as that git
    revision had it (chunkers/structural/sentences.py; chunkers/sentences.py before the chunkers'
    rooms, parsegate/chunkers/sentences.py before the layout moved), each module loaded by its path."""
    found: dict[str, str] = {}
    out: list[Candidate] = []
    if baseline:
        head = None
        for path in ("chunkers/structural/sentences.py", "chunkers/sentences.py", "parsegate/chunkers/sentences.py"):
            with contextlib.suppress(subprocess.CalledProcessError):
                head = harness.git("show", f"{baseline}:{path}")
                break
        if head is None:
            raise SystemExit(f"no sentences.py at {baseline}")
        name = f"parsegate@{harness.git('rev-parse', '--short', baseline)}"
        tmp = Path(tempfile.mkdtemp()) / "sentences_baseline.py"
        tmp.write_text(head + "\n", encoding="utf-8")
        found[name] = hashlib.sha1(tmp.read_bytes()).hexdigest()
        out.append(ours(tmp, name))
    path = harness.ROOT / "chunkers" / "structural" / "sentences.py"
    name = f"parsegate@{harness.commit_of()}"
    found[name] = hashlib.sha1(path.read_bytes()).hexdigest()
    out.append(ours(path, name))
    return out, found


# --- quality ------------------------------------------------------------------------------------


def evaluate(candidate: Candidate, samples: list[Sample]) -> dict[str, object]:
    by_cell: dict[tuple[str, str], Score] = {}
    offsets = {"outputs": 0, "exact_failures": 0, "native_mismatches": 0, "align_failures": 0}
    examples: list[str] = []
    for sample in samples:
        spans = candidate.exact(sample.text, sample.lang)
        offsets["outputs"] += 1
        try:
            check_spans(sample.text, spans)
            # independent second path: the library's strings laid back onto the input
            aligned = align_pieces(sample.text, candidate.pieces(sample.text, sample.lang))
            if aligned != spans:
                offsets["exact_failures"] += 1
        except OffsetError as error:
            offsets["exact_failures"] += 1
            offsets["align_failures"] += 1
            if len(examples) < 3:
                examples.append(f"{sample.corpus}/{sample.variant}: {error}")
            aligned = None
        if candidate.native is not None:
            native = candidate.native(sample.text, sample.lang)
            try:
                check_spans(sample.text, trimmed(sample.text, native))
                if trimmed(sample.text, native) != spans:
                    offsets["native_mismatches"] += 1
            except OffsetError:
                offsets["native_mismatches"] += 1
        by_cell.setdefault((sample.corpus, sample.variant), Score()).add(sample.boundaries, predicted_boundaries(spans))
    return {"cells": by_cell, "offsets": offsets, "offset_examples": examples}


def summarise(cells: dict[tuple[str, str], Score]) -> dict[str, object]:
    def pool(keep: Callable[[str, str], bool]) -> dict[str, float | int]:
        total = Score()
        for (corpus, variant), score in cells.items():
            if keep(corpus, variant):
                total.merge(score)
        return total.as_dict()

    return {
        "overall": pool(lambda c, v: True),
        "clean": pool(lambda c, v: v == "clean"),
        "messy": pool(lambda c, v: v != "clean"),
        "by_corpus": {c: pool(lambda cc, v, c=c: cc == c) for c in LANGUAGES},
        "by_cell": {f"{c}/{v}": s.as_dict() for (c, v), s in sorted(cells.items())},
        "english_messy": pool(lambda c, v: c in ("en", "en_fin") and v != "clean"),
        "cjk": pool(lambda c, v: c in ("ja", "zh")),
    }


# --- speed --------------------------------------------------------------------------------------


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()  # warm-up (lazy model loads, regex compilation)
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def throughput(candidate: Candidate, samples: list[Sample], big: str, repeat: int) -> dict[str, object]:
    megabytes = sum(len(s.text.encode("utf-8")) for s in samples) / 1e6
    big_mb = len(big.encode("utf-8")) / 1e6
    runs = {
        "strings": lambda: [candidate.pieces(s.text, s.lang) for s in samples],
        "exact_offsets": lambda: [candidate.exact(s.text, s.lang) for s in samples],
        "one_long_call": lambda: candidate.exact(big, "en"),
    }
    out: dict[str, object] = {}
    for name, fn in runs.items():
        seconds = timed(fn, repeat)
        mb = big_mb if name == "one_long_call" else megabytes
        out[name] = {
            "median_s": round(statistics.median(seconds), 5),
            "all_s": [round(s, 5) for s in seconds],
            "mb_per_s": round(mb / statistics.median(seconds), 3),
        }
    return out


# --- the checks that must fail ------------------------------------------------------------------


def self_checks(samples: list[Sample]) -> dict[str, object]:
    """Controls through the real metric and offset checks; each must fail the way it is built to."""
    results: dict[str, object] = {}
    for control in (every_space(), never_split()):
        cells = evaluate(control, samples)["cells"]
        results[control.name] = summarise(cells)["overall"]  # type: ignore[arg-type]
    every = results["control:every-space"]
    never = results["control:never-split"]
    assert every["recall"] > 0.95 and every["precision"] < 0.25, every  # type: ignore[index]
    assert never["recall"] == 0.0 and never["f1"] == 0.0, never  # type: ignore[index]

    # the truth itself scores 1.0, and the truth moved by one character scores 0.0
    oracle, shifted = Score(), Score()
    for s in samples:
        oracle.add(s.boundaries, set(s.boundaries))
        shifted.add(s.boundaries, {b + 1 for b in s.boundaries})
    assert oracle.f1 == 1.0 and shifted.f1 == 0.0
    results["oracle_f1"], results["oracle_shifted_by_one_f1"] = oracle.f1, shifted.f1

    # the offset walk rejects a piece that lost a character, and uncovered text
    text = "One sentence. Another one."
    for broken in (["One sentence.", "Another on."], ["One sentence."], ["One sentence.", "Another one!"]):
        try:
            align_pieces(text, broken)
        except OffsetError:
            continue
        raise AssertionError(f"align_pieces accepted {broken}")
    try:
        check_spans(text, [(0, 13), (15, 26)])
        raise AssertionError("check_spans accepted a span off by one")
    except OffsetError:
        pass
    results["offset_checks_reject_broken_pieces"] = True
    return results


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", default=None, help="also parsegate's splitter at this git revision")
    parser.add_argument("--only", nargs="*", help="candidate names to run (default: all)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    samples = build_samples()
    checks = self_checks(samples)
    print(f"self-checks passed: {json.dumps(checks)}", file=sys.stderr)

    candidates, our_versions = our_candidates(args.baseline)
    unavailable: dict[str, str] = {}
    for name, factory in FACTORIES.items():
        if not args.only or name in args.only:
            try:
                candidates.append(factory())
            except (ImportError, OSError) as error:  # not installed, or no build for this CPU
                unavailable[name] = f"{type(error).__name__}: {error}"
    # our newest splitter and sentencex together: agreed cuts (strong) and either's cuts (weak)
    by_name = {c.name: c for c in candidates}
    if "sentencex" in by_name:
        newest = candidates[len(our_versions) - 1]
        for how in ("both", "either"):
            candidates.append(combined(newest, by_name["sentencex"], how))
    big = "\n\n".join(s.text for s in samples if s.corpus == "en" and s.variant == "clean")
    big = "\n\n".join([big] * BIG_COPIES)

    results: dict[str, object] = {}
    for candidate in candidates:
        quality = evaluate(candidate, samples)
        results[candidate.name] = {
            "how_exact_offsets": candidate.how_exact,
            "offsets": quality["offsets"],
            "offset_examples": quality["offset_examples"],
            **summarise(quality["cells"]),  # type: ignore[arg-type]
            "speed": throughput(candidate, samples, big, args.repeat),
        }
        print(f"{candidate.name}: done", file=sys.stderr)

    report = {
        "machine": f"{platform.machine()}, CPython {platform.python_version()}",
        "samples": len(samples),
        "true_boundaries": sum(len(s.boundaries) for s in samples),
        "megabytes": round(sum(len(s.text.encode("utf-8")) for s in samples) / 1e6, 4),
        "one_long_call_megabytes": round(len(big.encode("utf-8")) / 1e6, 4),
        "repeat": args.repeat,
        "statistic": "median seconds over the passes, after one warm-up pass",
        "corpora": {c: {"lang": lang, "variants": list(variants(script))} for c, (lang, script) in LANGUAGES.items()},
        "our_versions_sha1": our_versions,
        "self_checks": checks,
        "unavailable": unavailable,
        "results": results,
    }
    report["sentences"] = _sentence_counts()  # type: ignore[assignment]
    result = Report("sentence_segmenters")
    add_rows(result, results, report["samples"])
    result.details = report
    partial = harness.RESULTS / "sentence_segmenters.partial.tmp" if args.only or args.repeat != 5 else None
    print(f"written to {result.write(args.out or partial)}")
    table = render(report)
    if partial is None and args.out is None:  # the tables beside this file are the whole run's
        (HERE / "RESULTS.md").write_text(table, encoding="utf-8")
    print(table)


def add_rows(result: Report, results: dict[str, Any], samples: int) -> None:
    """Each segmenter's boundary F1 (all text, messy variants) and speed with exact offsets;
    parsegate's against sentencex's (the best peer on the messy variants)."""
    corpus = f"{samples} paragraphs, 7 languages, clean and messy"
    for name, r in results.items():
        peer = "sentencex" if name.startswith("parsegate@") and "sentencex" in results else None
        for metric, value, unit in (
            ("f1", r["overall"]["f1"], "F1"),
            ("f1_messy", r["messy"]["f1"], "F1"),
            ("mb_per_s_exact_offsets", r["speed"]["exact_offsets"]["mb_per_s"], "MB/s"),
        ):
            result.add(name, corpus, metric, round(value, 3), unit, ratio_to=peer)


def _sentence_counts() -> dict[str, dict[str, int]]:
    from benchmarks.suites.sentence_segmenters.samples import load_paragraphs

    out = {}
    for corpus in LANGUAGES:
        paragraphs = load_paragraphs(corpus)
        out[corpus] = {"paragraphs": len(paragraphs), "sentences": sum(len(p.sentences) for p in paragraphs)}
    return out


if __name__ == "__main__":
    main()
