"""hostile: the hostile corpus (files.py and issue 39's round_two.py) through `parsegate run` with
its default limits: every file's outcome, reason and time, what was left out and why, the run's
peak memory; whether every hostile file is accounted for (an outcome or a reason it was left out)
and whether any process of the run is left behind once it exits. With ``--into DIR`` the hostile
files are mixed into a copy of a real corpus (the fastapi docs: ``../shared/corpus/markdown/fastapi-docs``).

    python -m benchmarks.suites.hostile [--time-limit 120] [--keep DIR] [--into DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
    parser.add_argument("--into", type=Path, help="mix the hostile files into a copy of this corpus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = args.keep or Path(scratch)
        corpus, out = base / "hostile", base / "out"
        if args.into:
            shutil.copytree(args.into, corpus, dirs_exist_ok=True)
        corpus.mkdir(parents=True, exist_ok=True)
        hostile = generate(corpus)
        before = _processes()
        sizes = {
            p.relative_to(corpus).as_posix(): p.stat().st_size
            for p in corpus.rglob("*")
            if p.is_file() and not p.is_symlink()
        }
        command = [Path(sys.executable).with_name("parsegate"), "run", corpus, "--out", out]
        command += ["--time-limit", args.time_limit, "-w", args.workers, "--allow-failures"]
        pids: list[int] = []
        timing = harness.run_command(command, pids=pids)
        run = json.loads((out / "run.json").read_text())
        left_behind = sorted(p for p in _processes() - before if _of_run(p, pids[0], base))
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
    listed = {f["path"] for f in run["files"]}
    # A file the walk left out is counted under its reason; the names it lists are what it read.
    unaccounted = [n for n in hostile if n not in listed and not n.startswith("odd/")]
    print(f"\nrun: {timing.wall:.0f} s wall, peak RSS of the largest process {timing.peak_mb:.0f} MB, "
          f"workers replaced: {replaced}")  # fmt: skip
    print(f"hostile files: {len(hostile)}, with no outcome: {len(unaccounted)} {unaccounted[:5]}")
    print(f"processes left behind: {len(left_behind)} {left_behind[:5]}")
    report = Report("hostile")
    corpus = f"hostile ({len(rows)} files, generated{', in ' + args.into.name if args.into else ''})"
    report.add("parsegate run", corpus, "wall_s", round(timing.wall, 1), "s", statistic="one run")
    report.add("parsegate run", corpus, "peak_mb", round(timing.peak_mb), "MB")
    for status in ("chunked", "failed", "skipped"):
        report.add("parsegate run", corpus, status, sum(r["status"] == status for r in rows), "files")
    report.add("parsegate run", corpus, "gate_failed", sum(r["verdict"] == "fail" for r in rows), "files")
    report.add("parsegate run", corpus, "internal_errors", sum(r["code"] == "internal_error" for r in rows), "files")
    report.add("parsegate run", corpus, "unaccounted", len(unaccounted), "files")
    report.add("parsegate run", corpus, "left_behind", len(left_behind), "processes")
    report.details.update(
        left_out=run["left_out"],
        workers_replaced=replaced,
        files=rows,
        unaccounted=unaccounted,
        left_behind=left_behind,
    )
    print(f"written to {report.write(args.out)}")


def _of_run(process: str, pid: int, base: Path) -> bool:
    """A process the run started: a worker naming the run's process as its parent, or one whose
    command line holds the run's folders (LibreOffice converting a copy, Ray's workers)."""
    return f"worker {pid}" in process or str(base) in process or "soffice" in process


def _processes() -> set[str]:
    """Running processes of parsegate and the engines it starts (pid and command line)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        if any(word in command for word in ("parsegate", "soffice", "ray::", "tesseract")):
            found.add(f"{entry.name} {command[:120]}")
    return found


if __name__ == "__main__":
    main()
