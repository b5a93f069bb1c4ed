"""linearity: does the worker's cost grow linearly with the size of a document, for the shapes
issue 39 found slow (shapes.py)? Each shape is generated at size n and 2n (and 4n with
``--doublings 2``), and each file goes through the worker's whole path (parse, chunk, and the
gate's measure with every expensive reference: stages.py) in a fresh process of its own (cold;
a small file of the same shape goes through first, untimed, so that what a format loads once,
docling or a grammar, is not taken for the cost of the size).
Rows: CPU seconds of each stage and of the whole path, and the process's peak resident set, per
size; and per doubling the ratio t(2n)/t(n) of the whole path and of each stage (linear ≈ 2,
quadratic ≈ 4), with the stage that grows fastest. A ratio reads only beside the times it
divides: a stage under 0.05 s is noise and gets no ratio.

    python -m benchmarks.suites.linearity                  # every shape, n and 2n
    python -m benchmarks.suites.linearity --shape html --doublings 2
    python -m benchmarks.suites.linearity --layout ../base/build/layout   # another checkout
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.suites.linearity.shapes import SHAPES, Shape

STAGES = Path(__file__).with_name("stages.py")
PARTS = ("parse", "chunk", "gate")
NOISE = 0.05  # seconds: a stage this cheap has no ratio worth reading


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shape", action="append", default=[], help="only shapes whose name or file holds this")
    p.add_argument("--doublings", type=int, default=1, help="sizes n, 2n, … 2^k n (default 1: n and 2n)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every shape's n (a sanity run: 0.25)")
    p.add_argument("--repeat", type=int, default=1, help="fresh processes per size; the least CPU counts")
    p.add_argument("--layout", type=Path, help="another checkout's build/layout to measure (.ci/layout_tree.py)")
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def measure(shape: Shape, n: int, repeat: int, layout: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="linearity-") as tmp:
        path = Path(tmp) / shape.file_name
        path.write_bytes(shape.make(n))
        small = Path(tmp) / "small" / shape.file_name  # what a format loads once is not the size's cost
        small.parent.mkdir()
        small.write_bytes(shape.make(max(1, shape.n // 100)))
        argv = [sys.executable, STAGES, path, "--warm-up", small, *(["--layout", layout.resolve()] if layout else [])]
        runs = [harness.run_json(argv)[0] for _ in range(repeat)]
        best = min(runs, key=lambda r: sum(r[s] or 0.0 for s in PARTS))
        return {"n": n, "bytes": path.stat().st_size, **best, "cpu": round(sum(best[s] or 0.0 for s in PARTS), 3)}


def ratio(small: float | None, large: float | None) -> float | None:
    if small is None or large is None or small < NOISE:
        return None
    return round(large / small, 2)


def main() -> None:
    args = arguments()
    report = Report("linearity")
    shapes = [s for s in SHAPES if not args.shape or any(k in s.name or k in s.file_name for k in args.shape)]
    print("| shape | n → 2n | CPU s (parse / chunk / gate) | ratio | parse | chunk | gate | grows | peak MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for shape in shapes:
        base = max(1, round(shape.n * args.scale))
        sizes = [measure(shape, base * 2**k, args.repeat, args.layout) for k in range(args.doublings + 1)]
        for size in sizes:
            corpus = f"{shape.name}, n={size['n']} ({size['bytes']:,} bytes)"
            for part in (*PARTS, "cpu"):
                report.add("worker path, fresh process", corpus, f"{part}_cpu_s", size[part], "s")
            report.add("worker path, fresh process", corpus, "peak_mb", size["peak_mb"], "MB")
            if size["code"]:
                report.add("worker path, fresh process", corpus, "refused", 1, size["code"])
        for small, large in itertools.pairwise(sizes):
            ratios = {part: ratio(small[part], large[part]) for part in (*PARTS, "cpu")}
            stages = {p: r for p, r in ratios.items() if p != "cpu" and r is not None}
            grows = max(stages, key=lambda p: stages[p]) if stages else "-"
            corpus = f"{shape.name}, n={small['n']} → {large['n']}"
            for part, value in ratios.items():
                metric = "ratio_2n_n" if part == "cpu" else f"{part}_ratio_2n_n"
                report.add("worker path, fresh process", corpus, metric, value, "×", statistic="t(2n) / t(n), CPU")
            cells = " / ".join(f"{small[p]}→{large[p]}" for p in PARTS)
            shown = [str(ratios[p]) if ratios[p] is not None else "–" for p in ("cpu", *PARTS)]
            peaks = f"{small['peak_mb']}→{large['peak_mb']}"
            print(f"| {shape.name} | {small['n']:,} → {large['n']:,} | {cells} | **{shown[0]}** | "
                  f"{' | '.join(shown[1:])} | {grows} | {peaks} |", flush=True)  # fmt: skip
        report.details.setdefault("shapes", {})[shape.name] = {
            "file": shape.file_name,
            "unit": shape.unit,
            "sizes": sizes,
        }
    report.details["versions"] = harness.versions("docling-slim", "tree-sitter", "markdown-it-py", "beautifulsoup4")
    if args.layout:
        report.commit = f"{args.layout} (another checkout)"
    whole = not args.shape and args.scale == 1.0 and not args.layout
    print(f"written to {report.write(args.out if args.out or whole else harness.RESULTS / 'linearity.tmp.json')}")


if __name__ == "__main__":
    main()
