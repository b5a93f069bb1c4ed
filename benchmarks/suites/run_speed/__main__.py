"""run_speed: ``parsegate run`` as a user runs it, this checkout against another revision.

For each corpus (the fastapi docs; the whole shared corpus, every format), cold: a new process and
an empty OUTDIR every time, ``--no-store``, the default workers; ABBA rounds of this checkout
(installed non-editable in a venv of its own, as the baseline is: benchmarks/harness.py) and the
baseline revision. Reported per revision: the median wall seconds and CPU seconds (user + system
of ``run`` and its workers), and the ratio of this checkout's to the baseline's. Beside them, the
same files in one process (``inprocess.py``: parse + chunk, and the worker's whole path with the
gate's measurements), so that ``run``'s CPU reads as a multiple of the work itself; and start-up:
``parsegate --help`` and ``--version``, the median of N fresh processes, beside a bare
``python -c pass``. The chunks each revision wrote are compared (sha256 of chunks.jsonl).

    python -m benchmarks.suites.run_speed                       # against HEAD~1
    python -m benchmarks.suites.run_speed --baseline c4e752f --rounds 3
    python -m benchmarks.suites.run_speed --corpus md=/path/to/folder --rounds 1 --startup-repeat 5
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report, Timing
from benchmarks.revisions import Revision, revision

INPROCESS = Path(__file__).resolve().with_name("inprocess.py")
CORPORA = {"fastapi-docs": harness.FASTAPI, "shared corpus (all formats)": harness.SHARED}
ABBA = "median of {n} fresh processes per revision, ABBA rounds"


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--baseline", default="HEAD~1", help="the git revision to compare against (default HEAD~1)")
    p.add_argument("--revision", default=None, help="measure this git revision instead of the checkout's files")
    p.add_argument("--rounds", type=int, default=3, help="ABBA rounds: each revision runs twice a round")
    p.add_argument("--startup-repeat", type=int, default=21)
    p.add_argument("--corpus", action="append", default=[], metavar="NAME=PATH", help="instead of the defaults")
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def run_once(rev: Revision, corpus: Path) -> tuple[Timing, dict[str, Any]]:
    """One ``parsegate run`` into an empty OUTDIR: its timing, and what it wrote."""
    with tempfile.TemporaryDirectory(prefix="run-speed-") as tmp:
        out = Path(tmp) / "out"
        timing = harness.run_command([rev.script(), "run", corpus, "--out", out, "--no-store"], ok=(0, 1))
        record = json.loads((out / "run.json").read_text())
        facts = {
            "chunks_sha256": hashlib.sha256((out / "chunks.jsonl").read_bytes()).hexdigest(),
            "workers": record.get("workers"),
            "summary": {k: record["summary"].get(k) for k in ("files", "chunked", "failed", "chunks", "gate_passed")},
            "files": [f["path"] for f in record["files"]],
        }
    return timing, facts


def measure_runs(sides: dict[str, Revision], corpus: Path, rounds: int) -> tuple[dict[str, list[Timing]], dict]:
    outputs: dict[str, dict[str, Any]] = {}

    def one(label: str) -> Timing:
        timing, facts = run_once(sides[label], corpus)
        first = outputs.setdefault(label, facts)
        if facts["chunks_sha256"] != first["chunks_sha256"]:
            first["deterministic"] = False
        return timing

    timings = harness.abba({label: (lambda label=label: one(label)) for label in sides}, rounds)
    return timings, outputs


def measure_in_process(sides: dict[str, Revision], corpus: Path, files: list[str], rounds: int) -> dict[str, list]:
    with tempfile.TemporaryDirectory(prefix="run-speed-") as tmp:
        listing = Path(tmp) / "files.json"
        listing.write_text(json.dumps(files))
        passes = {
            f"{mode} @{label}": (
                lambda rev=rev, mode=mode: harness.run_json([rev.python, INPROCESS, mode, corpus, listing])[0]
            )
            for label, rev in sides.items()
            for mode in ("parse_chunk", "worker")
        }
        return harness.abba(passes, rounds)


def report_corpus(report: Report, name: str, corpus: Path, sides: dict[str, Revision], rounds: int) -> None:
    current, baseline = (f"@{label}" for label in sides)
    timings, outputs = measure_runs(sides, corpus, rounds)
    statistic = ABBA.format(n=2 * rounds)
    for label, values in timings.items():
        for metric, pick in (("wall_s", lambda t: t.wall), ("cpu_s", lambda t: t.cpu)):
            samples = [round(pick(t), 3) for t in values]
            report.add(
                f"parsegate run @{label}", name, metric, round(harness.median(samples), 3), "s",
                ratio_to=None if f"@{label}" == baseline else f"parsegate run {baseline}",
                statistic=statistic, samples=samples,
            )  # fmt: skip
    files = outputs[next(iter(sides))]["files"]
    passes = measure_in_process(sides, corpus, files, rounds)
    tools = {"parse_chunk": "parse + chunk in one process", "worker": "worker path in one process (+ gate metrics)"}
    for key, values in passes.items():
        mode, at = key.split(" ")
        for metric, field in (("wall_s", "wall"), ("cpu_s", "cpu")):
            samples = [round(v[field], 3) for v in values]
            report.add(
                f"{tools[mode]} {at}", name, metric, round(harness.median(samples), 3), "s",
                ratio_to=None if at == baseline else f"{tools[mode]} {baseline}", statistic=statistic, samples=samples,
            )  # fmt: skip
        outputs[at.removeprefix("@")].setdefault("in_process", {})[mode] = {
            "documents": values[0]["documents"], "chunks": values[0]["chunks"]
        }  # fmt: skip
    for at in (current, baseline):  # run's CPU as a multiple of the same work in one process
        tool = f"parsegate run {at}"
        run_cpu = next(r for r in report.rows if (r.tool, r.corpus, r.metric) == (tool, name, "cpu_s"))
        report.add(run_cpu.tool, name, "cpu_s", run_cpu.value, "s", ratio_to=f"{tools['parse_chunk']} {at}",
                   statistic=run_cpu.statistic)  # fmt: skip
    for facts in outputs.values():
        del facts["files"]
    shas = {facts["chunks_sha256"] for facts in outputs.values()}
    report.details.setdefault("corpora", {})[name] = {
        "path": str(corpus), "files": len(files), "same_chunks": len(shas) == 1, "outputs": outputs
    }  # fmt: skip


def report_startup(report: Report, sides: dict[str, Revision], repeat: int) -> None:
    current, baseline = sides.values()
    cases: dict[str, list[str | Path]] = {"python -c pass": [current.python, "-c", "pass"]}
    for rev in sides.values():
        for flag in ("--help", "--version"):
            cases[f"parsegate {flag} @{rev.label}"] = [rev.script(), flag]
    times = harness.startup(cases, repeat)
    statistic = f"median wall seconds of {repeat} fresh processes, cases interleaved"
    for case, samples in times.items():
        peer = case.replace(f"@{current.label}", f"@{baseline.label}") if case.endswith(f"@{current.label}") else None
        report.add(case, "start-up", "wall_s", round(harness.median(samples), 4), "s", ratio_to=peer,
                   statistic=statistic, samples=[round(s, 4) for s in samples])  # fmt: skip


def main() -> None:
    args = arguments()
    corpora = dict(item.split("=", 1) for item in args.corpus) if args.corpus else CORPORA
    current, baseline = revision(args.revision), revision(args.baseline)
    if current.label == baseline.label:
        raise SystemExit(f"the baseline is the revision measured ({current.label}): give --baseline")
    sides = {current.label: current, baseline.label: baseline}
    report = Report("run_speed", commit=current.label)
    report.details["revisions"] = {rev.label: rev.commit for rev in sides.values()}
    report.details["baseline"] = args.baseline
    for name, path in corpora.items():
        report_corpus(report, name, Path(path), sides, args.rounds)
        print(f"{name}: done", flush=True)
    report_startup(report, sides, args.startup_repeat)
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
