"""ray_cost: what ``--engine ray`` costs on one machine beside the local engine, and per document.

A mixed corpus: ``--files`` generated documents (Markdown, plain text and Python, 2-12 KB each,
seeded: benchmarks/suites/incremental) and the shared corpus's real PDF and Office files. Each run
is ``parsegate run CORPUS --out FRESH --no-store --engine E`` in a fresh process, cold, the two
engines alternating (ABBA). Measured: wall seconds, and the CPU of **every process the run
starts** (Ray's GCS, raylet, agents, monitors and actors, and every parsegate worker), read from a
cgroup of its own (cgroup v1 ``cpuacct`` or v2 ``cpu.stat``): ``wait4`` misses a process Ray leaves
to be reaped by init, and read 8 s where the cgroup read 47 s. Where no cgroup can be made, the
suite says so and falls back to ``wait4`` with this process as the child subreaper (every orphan
reaped here, its CPU counted). The outputs of the two engines are compared (sha256 of
chunks.jsonl, and run.json's outcomes without timings).

A one-file corpus gives each engine's fixed cost (start-up and shut-down); the difference of the
two engines on the mixed corpus less the difference on one file, over the documents, is Ray's
cost per document, from which the suite writes a 100,000-document estimate.

    python -m benchmarks.suites.ray_cost [--files 2000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import revision
from benchmarks.suites.incremental.__main__ import generate

ENGINES = ("local", "ray")
PROJECTED = 100_000


@contextlib.contextmanager
def cgroup() -> Iterator[tuple[str, Path] | None]:
    """A fresh CPU-accounting cgroup: ("v1" | "v2", its folder), or None where none can be made."""
    for kind, base, probe in (
        ("v1", Path("/sys/fs/cgroup/cpuacct"), "cpuacct.usage"),
        ("v2", Path("/sys/fs/cgroup"), "cpu.stat"),
    ):
        if not (base / probe).exists() and not (base / "cgroup.procs").exists():
            continue
        folder = base / f"parsegate-bench-{uuid.uuid4().hex[:8]}"
        try:
            folder.mkdir()
        except OSError:
            continue
        if not (folder / probe).exists():
            folder.rmdir()
            continue
        try:
            yield kind, folder
        finally:
            with contextlib.suppress(OSError):
                folder.rmdir()
        return
    yield None


def _cgroup_cpu(kind: str, folder: Path) -> float:
    if kind == "v1":
        return int((folder / "cpuacct.usage").read_text()) / 1e9
    stat = dict(line.split() for line in (folder / "cpu.stat").read_text().splitlines())
    return int(stat["usage_usec"]) / 1e6


def measured_run(argv: list[str], cwd: Path) -> dict[str, Any]:
    """One run: wall seconds and the CPU of its whole process tree (see the module's note), started
    in ``cwd`` (not the repository's root: Ray's workers would import its parsegate/ folder)."""
    with cgroup() as group, tempfile.TemporaryFile() as err:
        if group is not None:
            kind, folder = group

            def enter() -> None:
                (folder / "cgroup.procs").write_text(str(os.getpid()))

            started = time.perf_counter()
            proc = subprocess.Popen(
                argv, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=enter, env=harness.child_env(), cwd=cwd
            )
            proc.wait()
            wall = time.perf_counter() - started
            deadline = time.monotonic() + 60
            while (folder / "cgroup.procs").read_text().strip() and time.monotonic() < deadline:
                time.sleep(0.1)  # what the run left behind is still counted until it ends
            left = len((folder / "cgroup.procs").read_text().split())
            cpu, how = _cgroup_cpu(kind, folder), f"cgroup {kind}"
        else:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come to this process
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=harness.child_env(), cwd=cwd)
            proc.wait()
            wall = time.perf_counter() - started
            left = _reap_all(60.0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            how = "wait4 (subreaper)"
        if proc.returncode not in (0, 1):
            err.seek(0)
            raise RuntimeError(
                f"{' '.join(argv)} exited {proc.returncode}: {err.read()[-2000:].decode(errors='replace')}"
            )
    return {"wall": round(wall, 3), "cpu": round(cpu, 3), "cpu_read_by": how, "left_running": left}


def _reap_all(most: float) -> int:
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return 0
        if pid == 0:
            time.sleep(0.1)
    return -1  # some were still running


def outputs(out: Path) -> dict[str, Any]:
    files = json.loads((out / "run.json").read_text())["files"]
    return {
        "chunks_sha256": hashlib.sha256((out / "chunks.jsonl").read_bytes()).hexdigest(),
        "outcomes_sha256": hashlib.sha256(
            json.dumps([{k: v for k, v in f.items() if k != "seconds"} for f in files], sort_keys=True).encode()
        ).hexdigest(),
        "documents": len(files),
    }


def measure(script: Path, corpus: Path, work: Path, rounds: int) -> dict[str, Any]:
    runs: dict[str, list[dict[str, Any]]] = {engine: [] for engine in ENGINES}
    seen: dict[str, dict[str, Any]] = {}
    count = 0

    def one(engine: str) -> dict[str, Any]:
        nonlocal count
        count += 1
        out = work / f"out-{engine}-{count}"
        taken = measured_run(
            [str(script), "-q", "run", str(corpus), "--out", str(out), "--no-store", "--engine", engine], work
        )
        seen.setdefault(engine, outputs(out))
        shutil.rmtree(out)
        return taken

    for engine, taken in harness.abba(
        {engine: (lambda engine=engine: one(engine)) for engine in ENGINES}, rounds
    ).items():
        runs[engine] = taken
    return {"runs": runs, "outputs": seen, "same_outputs": seen["local"] == seen["ray"]}


def median(runs: list[dict[str, Any]], key: str) -> float:
    return round(statistics.median(r[key] for r in runs), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--files", type=int, default=2000, help="generated documents beside the real PDF and Office files"
    )
    parser.add_argument("--rounds", type=int, default=2, help="ABBA rounds: each engine runs twice a round")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    current = revision(None)
    script = current.script()
    report = Report("ray_cost", commit=current.label)
    with tempfile.TemporaryDirectory(prefix="ray-cost-") as tmp:
        work = Path(tmp)
        mixed = work / "mixed"
        generate(mixed / "generated", args.files)
        for kind in ("pdf", "office"):
            shutil.copytree(harness.SHARED / kind, mixed / kind)
        one = work / "one"
        one.mkdir()
        (one / "a.md").write_text("# One\n\nA document of one paragraph, to read what a run costs with no work.\n")
        documents = sum(1 for p in mixed.rglob("*") if p.is_file())
        name = f"mixed-{documents}"
        results = {name: measure(script, mixed, work, args.rounds), "one-file": measure(script, one, work, args.rounds)}
    statistic = f"median of {2 * args.rounds} cold runs, ABBA"
    for corpus, result in results.items():
        for engine in ENGINES:
            for metric, key in (("cpu_s", "cpu"), ("wall_s", "wall")):
                report.add(f"parsegate run --engine {engine}", corpus, metric, median(result["runs"][engine], key), "s",
                           ratio_to="parsegate run --engine local" if engine == "ray" else None,
                           statistic=statistic, samples=[r[key] for r in result["runs"][engine]])  # fmt: skip
    cpu = {c: {e: median(r["runs"][e], "cpu") for e in ENGINES} for c, r in results.items()}
    fixed = cpu["one-file"]["ray"] - cpu["one-file"]["local"]
    per_document = (cpu[name]["ray"] - cpu[name]["local"] - fixed) / documents
    local_per_document = (cpu[name]["local"] - cpu["one-file"]["local"]) / documents
    report.details = {
        "documents": documents,
        "same_outputs": {c: r["same_outputs"] for c, r in results.items()},
        "outputs": {c: r["outputs"] for c, r in results.items()},
        "cpu_read_by": sorted(
            {run["cpu_read_by"] for r in results.values() for runs in r["runs"].values() for run in runs}
        ),
        "ray_fixed_cpu_s": round(fixed, 3),
        "ray_cpu_per_document_s": round(per_document, 5),
        "local_cpu_per_document_s": round(local_per_document, 5),
        # On paper, for a corpus like this one: Ray's fixed cost once, its per-document cost each time.
        f"projected_{PROJECTED}_documents": {
            "local_cpu_s": round(cpu["one-file"]["local"] + local_per_document * PROJECTED, 1),
            "ray_cpu_s": round(cpu["one-file"]["ray"] + (local_per_document + per_document) * PROJECTED, 1),
        },
    }
    report.print()
    print(json.dumps(report.details, indent=2))
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
