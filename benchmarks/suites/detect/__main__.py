"""detect: a document's format told from its content alone, against magika and puremagic.

Every labelled file (samples.py: golden inputs, the shared corpus, Debian's files, LibreOffice's
legacy Office files) is given to each detector as bytes, its name withheld; the name is the
truth. Detectors:

- parsegate: ``parsegate.parsers.detect.sniff`` (with the code extra's tree-sitter);
- magika (Google's content-type model, onnxruntime; its label mapped onto parsegate's formats:
  a text label parsegate has no parser for, such as rst, json or shell, is ``text``);
- puremagic (magic numbers; text it cannot name counts as ``text`` when parsegate's own
  ``looks_like_text`` says it is text, ``none`` otherwise: it is given that much).

Reported: accuracy over all files and per source and per truth; prose (truth ``text``) taken
for Markdown or code; the language of code files; milliseconds per file (in process, after each
tool is loaded) and the seconds to import and load each tool, in a fresh process.

    python -m benchmarks.suites.detect [--cap 150] [--show 30] [--out FILE]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.harness import Report
from benchmarks.suites.detect.samples import Sample, samples

Detector = Callable[[bytes], tuple[str, str | None]]  # bytes -> (format, language)

_MAGIKA = {
    "pdf": "pdf", "docx": "docx", "pptx": "pptx", "xlsx": "xlsx", "doc": "doc", "xls": "xls", "ppt": "ppt",
    "odt": "odt", "ods": "ods", "odp": "odp", "rtf": "rtf", "html": "html", "markdown": "markdown",
    "python": "code", "c": "code", "cpp": "code", "javascript": "code", "typescript": "code", "go": "code",
    "rust": "code", "java": "code", "cs": "code", "kotlin": "code", "ruby": "code", "php": "code",
}  # fmt: skip
_MAGIKA_LANGUAGE = {"cs": "csharp"}
_PUREMAGIC = {
    ".pdf": "pdf", ".docx": "docx", ".pptx": "pptx", ".xlsx": "xlsx", ".doc": "doc", ".xls": "xls", ".ppt": "ppt",
    ".odt": "odt", ".ods": "ods", ".odp": "odp", ".rtf": "rtf", ".html": "html", ".htm": "html", ".xml": "text",
    ".svg": "text", ".php": "code", ".py": "code", ".json": "text",
}  # fmt: skip
LOAD = {
    "parsegate": "from parsegate.parsers.detect import sniff; sniff(b'def f():\\n    return 1\\n')",
    "magika": "from magika import Magika; Magika().identify_bytes(b'def f():\\n    return 1\\n')",
    "puremagic": "import puremagic; puremagic.magic_string(b'%PDF-1.4')",
}


def parsegate_detector() -> Detector:
    from parsegate.parsers.detect import Detected, sniff

    def detect(data: bytes) -> tuple[str, str | None]:
        found = sniff(data)
        return (found.format, found.language) if isinstance(found, Detected) else ("none", None)

    return detect


def magika_detector() -> Detector:
    from magika import Magika

    model = Magika()

    def detect(data: bytes) -> tuple[str, str | None]:
        out = model.identify_bytes(data).output
        label = str(out.label)
        if label in _MAGIKA:
            fmt = _MAGIKA[label]
            return fmt, (_MAGIKA_LANGUAGE.get(label, label) if fmt == "code" else None)
        return ("text" if out.is_text else "none"), None

    return detect


def puremagic_detector() -> Detector:
    import puremagic

    from parsegate.parsers.registry import looks_like_text

    def detect(data: bytes) -> tuple[str, str | None]:
        try:
            found = puremagic.magic_string(data)
        except puremagic.PureError:
            found = []
        if found:
            ext = found[0].extension.lower()
            if ext in _PUREMAGIC:
                return _PUREMAGIC[ext], None
        return ("text" if looks_like_text(data[:8192]) else "none"), None

    return detect


DETECTORS: dict[str, Callable[[], Detector]] = {
    "parsegate": parsegate_detector,
    "magika": magika_detector,
    "puremagic": puremagic_detector,
}


def load_seconds(tool: str, rounds: int = 3) -> float:
    """Median seconds of a fresh process importing and loading the tool, less ``python -c pass``."""

    def timed(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        return time.perf_counter() - start

    base = statistics.median(timed("pass") for _ in range(rounds))
    return max(0.0, statistics.median(timed(LOAD[tool]) for _ in range(rounds)) - base)


def measure(tool: str, make: Callable[[], Detector], files: list[Sample]) -> dict[str, Any]:
    detect = make()
    detect(b"warm up\n")
    answers: list[tuple[Sample, str, str | None]] = []
    seconds: list[float] = []
    for sample in files:
        data = sample.path.read_bytes()
        start = time.perf_counter()
        try:
            fmt, language = detect(data)
        except Exception as exc:  # a detector that raises has answered nothing
            fmt, language = f"raised {type(exc).__name__}", None
        seconds.append(time.perf_counter() - start)
        answers.append((sample, fmt, language))
    mean, median = 1000 * statistics.mean(seconds), 1000 * statistics.median(seconds)
    return {"answers": answers, "ms_per_file": mean, "ms_median": median}


def score(answers: list[tuple[Sample, str, str | None]]) -> dict[str, Any]:
    right = sum(s.truth == fmt for s, fmt, _ in answers)
    by_truth: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    by_source: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    confusion: collections.Counter[str] = collections.Counter()
    for s, fmt, _ in answers:
        by_truth[s.truth][0] += s.truth == fmt
        by_truth[s.truth][1] += 1
        by_source[s.source][0] += s.truth == fmt
        by_source[s.source][1] += 1
        if s.truth != fmt:
            confusion[f"{s.truth} -> {fmt}"] += 1
    prose = [(s, fmt) for s, fmt, _ in answers if s.truth == "text"]
    code = [(s, lang) for s, fmt, lang in answers if s.truth == "code" and fmt == "code"]
    return {
        "right": right,
        "files": len(answers),
        "accuracy": round(right / len(answers), 4),
        "text_as_markdown": sum(fmt == "markdown" for _, fmt in prose),
        "text_as_code": sum(fmt == "code" for _, fmt in prose),
        "text_files": len(prose),
        "code_language_right": sum(s.language == lang for s, lang in code),
        "code_found": len(code),
        "by_truth": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by_truth.items())},
        "by_source": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by_source.items())},
        "confusion": dict(confusion.most_common()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=int, default=150, help="files per large source")
    parser.add_argument("--show", type=int, default=30, help="parsegate's mistakes to print")
    parser.add_argument("--tools", default=",".join(DETECTORS), help="comma-separated detectors")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    files = samples(args.cap)
    print(f"{len(files)} files: {dict(collections.Counter(s.truth for s in files))}")
    report = Report("detect")
    for tool in args.tools.split(","):
        try:
            found = measure(tool, DETECTORS[tool], files)
        except ImportError as exc:  # a peer not installed (the bench extra brings them)
            print(f"\n{tool}: not installed ({exc}); pip install -e '.[bench]'")
            continue
        result = score(found["answers"])
        loaded = load_seconds(tool)
        corpus = f"{len(files)} files, names withheld"
        ratio = {"ratio_to": "magika"} if tool != "magika" else {}
        report.add(tool, corpus, "accuracy", result["accuracy"], "share", **ratio)
        report.add(tool, corpus, "ms_per_file", round(found["ms_per_file"], 3), "ms", statistic="mean", **ratio)
        report.add(tool, corpus, "load", round(loaded, 3), "s", statistic="median of 3 fresh processes", **ratio)
        mistakes = [
            {"path": str(s.path), "truth": s.truth, "got": fmt} for s, fmt, _ in found["answers"] if s.truth != fmt
        ]
        report.details[tool] = {**result, "ms_median": round(found["ms_median"], 3), "mistakes": mistakes}
        print(
            f"\n{tool}: {result['right']}/{result['files']} right ({result['accuracy']:.2%}), "
            f"{found['ms_per_file']:.2f} ms/file, load {loaded:.2f} s"
        )
        shown = ("text_as_markdown", "text_as_code", "code_language_right", "code_found", "by_truth", "by_source")
        for key in (*shown, "confusion"):
            print(f"  {key}: {result[key]}")
        if tool == "parsegate":
            for m in mistakes[: args.show]:
                print(f"    {m['truth']:>8} -> {m['got']:<10} {m['path']}")
    report.print()
    print("wrote", report.write(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
