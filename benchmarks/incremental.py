"""Incremental runs with the chunk store: a first run over a corpus (empty store), a re-run over
the same files (nothing should be parsed), and a run after 2% of the files changed and 1% were
deleted. Each is ``parsegate run`` in its own process, timed wall-clock; the re-run's outputs are
compared with the first run's, byte for byte for chunks.jsonl and quarantine.jsonl, and for
run.json and report.json with the timings (and the store's own counts) left out.

Corpora: the fastapi docs (155 Markdown files, 1.9 MB), the real PDF and Office files of
../shared/corpus (36 files, 3 MB: parsing dominates their first run) and a generated corpus of
2,000 files (Markdown, plain text and Python, 2-12 KB each, seeded). Wall-clock and CPU seconds
(the run's process and its workers) are both recorded, with the load average: on a shared machine
the CPU ratio is the steadier one; before each first run the benchmark waits until other work
uses under 10% of the machine, for at most 2 minutes (benchmarks/quiet.py; the busy share seen
is recorded). Peak memory: the largest resident set of
the run's process and its workers (ru_maxrss of the waited children). parsegate is byte-compiled
first, as an installed package is.

    .venv/bin/python benchmarks/incremental.py [--files 2000] [--repeat 3] [--out benchmarks/results/incremental.json]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from quiet import wait_for_quiet

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
FASTAPI = CORPUS / "markdown" / "fastapi-docs"
WORDS = (
    "policy travel employee approval manager budget limit receipt claim hotel flight meal report "
    "section rule exception deadline quarter revenue forecast table value system process data"
).split()
TIMING_KEYS = {"seconds", "started_at", "finished_at", "store", "workers"}


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18))).capitalize() + "."


def document(rng: random.Random, kind: str, n: int) -> str:
    size = rng.randint(2_000, 12_000)
    out: list[str] = []
    total = 0
    while total < size:
        para = " ".join(sentence(rng) for _ in range(rng.randint(2, 6)))
        if kind == "md" and len(out) % 6 == 0:
            para = f"## Section {len(out)} of document {n}\n\n{para}"
        if kind == "py":
            para = f'def function_{len(out)}(value):\n    """{para}"""\n    return value + {len(out)}\n'
        out.append(para)
        total += len(para) + 2
    return "\n\n".join(out) + "\n"


def generate(folder: Path, files: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for n in range(files):
        kind = ("md", "md", "txt", "py")[n % 4]
        path = folder / f"part{n % 20:02d}" / f"doc{n:05d}.{kind}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(document(rng, kind, n))


def change(folder: Path, share_changed: float, share_deleted: float, seed: int = 11) -> tuple[int, int]:
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    rng = random.Random(seed)
    picked = rng.sample(files, int(len(files) * (share_changed + share_deleted)))
    cut = int(len(files) * share_changed)
    for path in picked[:cut]:
        path.write_text(path.read_text() + "\n\nOne more paragraph, added after the first run.\n")
    for path in picked[cut:]:
        path.unlink()
    return cut, len(picked) - cut


def compile_package() -> None:
    """Byte-compile parsegate first, as pip does when it installs a wheel: with
    PYTHONDONTWRITEBYTECODE set (as on these machines) an editable checkout would otherwise compile
    every module from source in every run, a fixed cost that has nothing to do with the store."""
    compileall.compile_dir(HERE.parent / "parsegate", quiet=1)


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the run and its (waited) workers
    return usage.ru_utime + usage.ru_stime


def run(corpus: Path, out: Path) -> dict[str, Any]:
    cpu = cpu_of_children()
    started = time.perf_counter()
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("parsegate")), "run", str(corpus), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    cpu = cpu_of_children() - cpu
    if proc.returncode not in (0, 1):
        raise SystemExit(f"run failed ({proc.returncode}): {proc.stderr[-2000:]}")
    record = json.loads((out / "run.json").read_text())
    return {
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "exit": proc.returncode,
        "store": record.get("store"),
        # The re-run found OUTDIR's files to be what it would write, and left them (chunkstore/current.py).
        "up_to_date": "outputs up to date" in proc.stderr,
        "out": out,
    }


def without_timings(path: Path) -> Any:
    data = json.loads(path.read_text())
    return _strip(data)


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def same_outputs(a: Path, b: Path) -> dict[str, bool]:
    same = {name: (a / name).read_bytes() == (b / name).read_bytes() for name in ("chunks.jsonl", "quarantine.jsonl")}
    for name in ("run.json", "report.json"):
        same[name] = without_timings(a / name) == without_timings(b / name)
    return same


def measure(name: str, corpus: Path, work: Path, repeat: int) -> dict[str, Any]:
    """``repeat`` times: a first run into a fresh OUTDIR and store, then re-runs of the unchanged
    corpus (``repeat`` of them, into the same OUTDIR); the medians of each, and their ratio."""
    load_before = round(os.getloadavg()[0], 2)
    firsts, agains = [], []
    busy_seen = []
    for n in range(repeat):
        place = work / f"r{n}"
        busy_seen.append(round(wait_for_quiet(0.1, most=120.0), 3))
        firsts.append(run(corpus, place / "first"))
        if n == 0:
            shutil.copytree(firsts[0]["out"], work / "first-kept", ignore=shutil.ignore_patterns("history"))
        agains.extend(run(corpus, place / "first") for _ in range(repeat))  # the store beside it is reused
    first = {k: statistics.median(r[k] for r in firsts) for k in ("seconds", "cpu_seconds")}
    again = {k: statistics.median(r[k] for r in agains) for k in ("seconds", "cpu_seconds")}
    result = {
        "corpus": name,
        "files": sum(1 for p in corpus.rglob("*") if p.is_file()),
        "repeat": repeat,
        "first_seconds": first["seconds"],
        "rerun_seconds": again["seconds"],
        "speedup": round(first["seconds"] / again["seconds"], 1),
        "first_seconds_all": [r["seconds"] for r in firsts],
        "rerun_seconds_all": [r["seconds"] for r in agains],
        # CPU seconds of the run and its workers: steadier than wall-clock on a shared machine.
        "first_cpu_seconds": first["cpu_seconds"],
        "rerun_cpu_seconds": again["cpu_seconds"],
        "cpu_speedup": round(first["cpu_seconds"] / again["cpu_seconds"], 1),
        "load_average_1min_before": load_before,
        "load_average_1min_after": round(os.getloadavg()[0], 2),
        "busy_share_before_each_first_run": busy_seen,
        "rerun_store": agains[-1]["store"],
        "rerun_outputs_up_to_date": all(r["up_to_date"] for r in agains),
        # The re-runs were answered from the note the first run left (chunkstore/quick.py), before
        # the command line was built: every re-run's time is that path's.
        "note_written": (work / "r0" / "first" / ".parsegate-current.json").is_file(),
        "rerun_same_outputs": same_outputs(work / "first-kept", work / "r0" / "first"),
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="first runs per corpus, and re-runs after each")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "incremental.json")
    args = parser.parse_args()
    compile_package()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        fastapi = work / "fastapi"
        shutil.copytree(FASTAPI, fastapi)
        results.append(measure("fastapi-docs", fastapi, work / "w-fastapi", args.repeat))
        heavy = work / "pdf-office"  # the real PDF and Office files: parsing dominates a first run
        for kind in ("pdf", "office"):
            shutil.copytree(CORPUS / kind, heavy / kind)
        results.append(measure("pdf-office", heavy, work / "w-heavy", args.repeat))
        generated = work / "generated"
        generate(generated, args.files)
        entry = measure(f"generated-{args.files}", generated, work / "w-gen", args.repeat)
        changed, deleted = change(generated, 0.02, 0.01)
        after = run(generated, work / "w-gen" / "r0" / "first")
        entry["after_change"] = {
            "changed": changed,
            "deleted": deleted,
            "seconds": after["seconds"],
            "store": after["store"],
            "outputs_up_to_date": after["up_to_date"],
        }
        results.append(entry)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KB on Linux
    summary = {
        "python": sys.version.split()[0],
        "bytecode": "parsegate compiled before the runs (as pip installs it)",
        "peak_rss_mb_any_process": round(peak / 1024, 1),
        "runs": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
