"""hostile: the hostile corpus (files.py) through `parsegate run` with its default limits: every
file's outcome, reason and time, what was left out and why, and the run's peak memory.

    python -m benchmarks.suites.hostile [--time-limit 120] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.suites.hostile.files import generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time-limit", default="120")
    parser.add_argument("--workers", default="2")
    parser.add_argument("--keep", type=Path, help="generate the corpus and the output here (kept)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = args.keep or Path(scratch)
        corpus, out = base / "hostile", base / "out"
        corpus.mkdir(parents=True, exist_ok=True)
        generate(corpus)
        sizes = {
            p.relative_to(corpus).as_posix(): p.stat().st_size
            for p in corpus.rglob("*")
            if p.is_file() and not p.is_symlink()
        }
        command = [Path(sys.executable).with_name("parsegate"), "run", corpus, "--out", out]
        command += ["--time-limit", args.time_limit, "-w", args.workers, "--allow-failures"]
        timing = harness.run_command(command)
        run = json.loads((out / "run.json").read_text())
    rows = []
    print("| file | size | outcome | seconds | reason |\n|---|---|---|---|---|")
    for f in run["files"]:
        outcome = f["status"] if f["status"] != "chunked" else f"chunked ({f['verdict']})"
        if f["code"]:
            outcome += f" [{f['code']}]"
        reason = (f["reason"] or "; ".join(c["check"] for c in f.get("failed_checks", [])) or "").replace("|", "/")
        size = sizes.get(f["path"], 0)
        warnings = sorted({w["code"] for w in f.get("warnings", [])})
        if warnings and not f["reason"]:
            reason = (reason + " warnings: " + ", ".join(warnings)).strip()
        rows.append({**{k: f[k] for k in ("path", "status", "code", "verdict", "seconds", "reason")}, "size": size})
        print(f"| {f['path']} | {size / 1e6:.2f} MB | {outcome} | {f['seconds']:.1f} | {reason[:160]} |")
    for reason, count in run["left_out"].items():
        print(f"| (left out) | | {count} × {reason} | | |")
    replaced = run["workers_replaced"]
    print(f"\nrun: {timing.wall:.0f} s wall, peak RSS of the largest process {timing.peak_mb:.0f} MB, "
          f"workers replaced: {replaced}")  # fmt: skip
    report = Report("hostile")
    corpus = f"hostile ({len(rows)} files, generated)"
    report.add("parsegate run", corpus, "wall_s", round(timing.wall, 1), "s", statistic="one run")
    report.add("parsegate run", corpus, "peak_mb", round(timing.peak_mb), "MB")
    for status in ("chunked", "failed", "skipped"):
        report.add("parsegate run", corpus, status, sum(r["status"] == status for r in rows), "files")
    report.add("parsegate run", corpus, "gate_failed", sum(r["verdict"] == "fail" for r in rows), "files")
    report.add("parsegate run", corpus, "internal_errors", sum(r["code"] == "internal_error" for r in rows), "files")
    report.details.update(left_out=run["left_out"], workers_replaced=replaced, files=rows)
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
