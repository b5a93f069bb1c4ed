"""The hostile corpus (benchmarks/hostile_files.py) through `parsegate run` with its default limits:
every file's outcome, reason and time, what was left out and why, and the run's peak memory.

    .venv/bin/python benchmarks/hostile.py [--time-limit 120] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.hostile_files import generate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time-limit", default="120")
    parser.add_argument("--workers", default="2")
    parser.add_argument("--keep", type=Path, help="generate the corpus and the output here (kept)")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "hostile.json")
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
        command = [
            sys.executable,
            "-c",
            "from parsegate.cli.main import main; main()",
            "run",
            str(corpus),
            "--out",
            str(out),
        ]
        command += ["--time-limit", args.time_limit, "-w", args.workers, "--allow-failures"]
        started = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if proc.returncode != 0:
            print(proc.stderr[-3000:])
            raise SystemExit(f"parsegate run exited {proc.returncode}")
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
    print(f"\nrun: {seconds:.0f} s wall, peak RSS of the largest process {peak:.0f} MB, workers replaced: {replaced}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    summary = {"seconds": round(seconds, 1), "peak_mb": round(peak), "left_out": run["left_out"], "files": rows}
    args.out.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
