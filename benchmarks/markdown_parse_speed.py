"""``markdown.parse`` over a corpus, this checkout against a baseline revision, in one process.

    .venv/bin/python benchmarks/markdown_parse_speed.py [--baseline main] [--rounds 15] [--corpus PATH]

The baseline's ``parsers`` is taken from git (``git show REV:…``) into a temporary
package with its imports renamed, so both parsers run in the same interpreter on the same bytes
already in memory. Rounds alternate baseline and current (this machine's timings drift by
10-30 % over minutes; alternating puts the drift on both). Reported per side: best and median
seconds for the whole corpus, and their ratios. benchmarks/markdown_snapshot.py checks that the
output is the same.
"""

from __future__ import annotations

import argparse
import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "markdown" / "fastapi-docs"
BASELINE_PACKAGE = "parsegate_baseline_parsers"


def baseline_parser(rev: str, folder: Path) -> Any:
    """The markdown module of ``rev``, importable beside this checkout's."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "parsers"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = folder / BASELINE_PACKAGE
    (folder / "parsegate" / "parsers").rename(package)
    for module in package.glob("*.py"):
        module.write_text(module.read_text().replace("parsegate.parsers", BASELINE_PACKAGE))
    sys.path.insert(0, str(folder))
    return importlib.import_module(f"{BASELINE_PACKAGE}.markdown")


def corpus_seconds(parse: Callable[[bytes, str], Any], inputs: list[tuple[str, bytes]]) -> float:
    started = time.perf_counter()
    for name, data in inputs:
        parse(data, name)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="main", help="git revision to compare against")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    from parsegate.parsers import markdown

    paths = sorted(p for p in args.corpus.rglob("*.md") if p.is_file())
    inputs = [(p.relative_to(args.corpus).as_posix(), p.read_bytes()) for p in paths]
    with tempfile.TemporaryDirectory() as tmp:
        old = baseline_parser(args.baseline, Path(tmp))
        sides = {"baseline": old.parse, "current": markdown.parse}
        for parse in sides.values():  # warm up: imports, caches, the code parser
            corpus_seconds(parse, inputs)
        times: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(args.rounds):
            for name, parse in sides.items():
                times[name].append(corpus_seconds(parse, inputs))
    size = sum(len(d) for _, d in inputs) / 1e6
    print(f"{len(inputs)} files, {size:.2f} MB, {args.rounds} alternating rounds, baseline {args.baseline}")
    for name, values in times.items():
        print(f"  {name:9} best {min(values):.4f} s  median {statistics.median(values):.4f} s")
    best = min(times["baseline"]) / min(times["current"])
    median = statistics.median(times["baseline"]) / statistics.median(times["current"])
    print(f"  speed-up  best {best:.2f}x  median {median:.2f}x")


if __name__ == "__main__":
    main()
