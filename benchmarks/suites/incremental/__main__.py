"""incremental: runs with the chunk store: a first run over a corpus (empty store), a re-run over
the same files (nothing should be parsed), a run after one file changed, and a run after 2% of
the files changed and 1% were deleted. Each is ``parsegate run`` in its own process, timed
wall-clock; the re-run's outputs are compared with the first run's, byte for byte for
chunks.jsonl and quarantine.jsonl, and for run.json and report.json with the timings (and the
store's own counts) left out.

Corpora: the fastapi docs (155 Markdown files, 1.9 MB), the real PDF and Office files of
../shared/corpus (36 files, 3 MB: parsing dominates their first run) and a generated corpus of
2,000 files (Markdown, plain text and Python, 2-12 KB each, seeded). Wall-clock and CPU seconds
(the run's process and its workers) are both recorded, with the load average: on a shared machine
the CPU ratio is the steadier one; before each first run the suite waits until other work uses
under 10% of the machine, for at most 2 minutes (the busy share seen is recorded). Peak memory:
the largest resident set of the run's process and its workers. The runs use this checkout
installed non-editable (benchmarks/revisions.py), byte-compiled as pip installs it.

With ``--baseline REV`` the same is measured for that git revision too, the two alternating (ABBA)
on each corpus: what a change to the store's path costs an unchanged re-run.

    python -m benchmarks.suites.incremental [--files 2000] [--repeat 3] [--baseline REV]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import revision

CORPUS = harness.SHARED
FASTAPI = harness.FASTAPI
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


def run(script: Path, corpus: Path, out: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        err = Path(tmp) / "stderr"
        timing = harness.run_command([script, "run", corpus, "--out", out], ok=(0, 1), stderr=err)
        said = err.read_text(errors="replace")
    record = json.loads((out / "run.json").read_text())
    return {
        "seconds": round(timing.wall, 3),
        "cpu_seconds": round(timing.cpu, 3),
        "peak_mb": round(timing.peak_mb, 1),
        "store": record.get("store"),
        # The re-run found OUTDIR's files to be what it would write, and left them (store/current.py).
        "up_to_date": "outputs up to date" in said,
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


QUIET = 0.1  # before each first run, wait (up to 2 minutes) until other work uses under this share


def measure(script: Path, name: str, corpus: Path, work: Path, repeat: int, quiet: float = QUIET) -> dict[str, Any]:
    """``repeat`` times: a first run into a fresh OUTDIR and store, then re-runs of the unchanged
    corpus (``repeat`` of them, into the same OUTDIR); the medians of each, and their ratio."""
    firsts, agains = [], []
    busy_seen = []
    for n in range(repeat):
        place = work / f"r{n}"
        busy_seen.append(round(harness.wait_for_quiet(quiet, most=120.0), 3))
        firsts.append(run(script, corpus, place / "first"))
        if n == 0:
            shutil.copytree(firsts[0]["out"], work / "first-kept", ignore=shutil.ignore_patterns("history"))
        agains.extend(run(script, corpus, place / "first") for _ in range(repeat))  # the store beside it is reused
    return {
        "corpus": name,
        "files": sum(1 for p in corpus.rglob("*") if p.is_file()),
        "firsts": firsts,
        "agains": agains,
        "busy_share_before_each_first_run": busy_seen,
        "rerun_store": agains[-1]["store"],
        "rerun_outputs_up_to_date": all(r["up_to_date"] for r in agains),
        # run.json's own word for each re-run that wrote its outputs again (store.written_because)
        "rerun_written_because": [(r["store"] or {}).get("written_because") for r in agains if not r["up_to_date"]],
        "rerun_same_outputs": same_outputs(work / "first-kept", work / "r0" / "first"),
        "outdir": str(work / "r0" / "first"),  # its store beside it
    }


FIRST, AGAIN, AFTER, ONE = (
    "parsegate run, first run (empty store)",
    "parsegate run, re-run (unchanged)",
    "parsegate run, after 2% changed and 1% deleted",
    "parsegate run, after one file changed",
)


def measure_sides(
    sides: dict[str, Path], name: str, corpus: Path, work: Path, repeat: int, quiet: float
) -> dict[str, dict[str, Any]]:
    """``measure`` for each revision; with two, in ABBA order (each twice), their runs pooled."""
    count = itertools.count()

    def one(label: str) -> dict[str, Any]:
        return measure(sides[label], name, corpus, work / f"{label}-{next(count)}", repeat, quiet)

    if len(sides) == 1:
        return {label: one(label) for label in sides}
    pooled = {}
    for label, entries in harness.abba({label: (lambda label=label: one(label)) for label in sides}, 1).items():
        pooled[label] = {**entries[0], "firsts": [r for e in entries for r in e["firsts"]],
                         "agains": [r for e in entries for r in e["agains"]]}  # fmt: skip
    return pooled


def add_rows(report: Report, entry: dict[str, Any], label: str, baseline: str | None) -> None:
    """First run and re-run, wall and CPU; the re-run's ratio to the first run, and with a
    baseline each of this revision's figures against the baseline's."""
    runs = {FIRST: entry.pop("firsts"), AGAIN: entry.pop("agains")}
    statistic = f"median of {len(runs[FIRST])} first runs and {len(runs[AGAIN])} re-runs"
    for metric, key in (("wall_s", "seconds"), ("cpu_s", "cpu_seconds")):
        for tool, done in runs.items():
            samples = [r[key] for r in done]
            value = round(statistics.median(samples), 3)
            peers = [f"{FIRST} @{label}" if tool == AGAIN else None]
            if baseline and baseline != label:
                peers.append(f"{tool} @{baseline}")
            for peer in peers:
                report.add(f"{tool} @{label}", entry["corpus"], metric, value, "s", ratio_to=peer,
                           statistic=statistic, samples=samples)  # fmt: skip
    entry["peak_mb"] = max(r["peak_mb"] for done in runs.values() for r in done)
    for done in runs.values():
        for r in done:
            r.pop("out", None)


def one_change(
    report: Report, sides: dict[str, Path], measured: dict[str, dict[str, Any]], name: str, corpus: Path, work: Path
) -> None:
    """One file of the corpus edited (a paragraph added to its middle text file; without one, a
    line end appended to its middle PDF, after its %%EOF), then one run of each revision over its
    first measurement's OUTDIR and store: what a single edit costs, beside that corpus's first run."""
    files = sorted(p for p in corpus.rglob("*") if p.is_file())
    texts = [p for p in files if p.suffix in (".md", ".txt", ".py")]
    if texts:
        one = texts[len(texts) // 2]
        one.write_text(one.read_text() + "\n\nOne more paragraph, added after the first run.\n")
    else:  # a new version of the file, the same text
        pdfs = [p for p in files if p.suffix == ".pdf"]
        one = pdfs[len(pdfs) // 2]
        one.write_bytes(one.read_bytes() + b"\n")
    for n, (label, entry) in enumerate(measured.items()):
        after = run(sides[label], corpus, work / f"{label}-{n}" / "r0" / "first")
        entry["after_one_change"] = {"file": str(one.relative_to(corpus)), "seconds": after["seconds"],
                                     "cpu_seconds": after["cpu_seconds"], "store": after["store"]}  # fmt: skip
        report.add(f"{ONE} @{label}", name, "cpu_s", after["cpu_seconds"], "s", ratio_to=f"{FIRST} @{label}",
                   statistic="one run")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="first runs per corpus, and re-runs after each")
    parser.add_argument("--baseline", default=None, help="also this git revision, the two in ABBA order")
    parser.add_argument("--quiet", type=float, default=QUIET, help="busy share to wait for (1: do not wait)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    current = revision(None)
    report = Report("incremental", commit=current.label)
    sides = {current.label: current.script()}
    if args.baseline:
        base = revision(args.baseline)
        sides[base.label] = base.script()
        report.details["revisions"] = {current.label: current.commit, base.label: base.commit}
    baseline = list(sides)[1] if args.baseline else None
    entries: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        fastapi = work / "fastapi"
        shutil.copytree(FASTAPI, fastapi)
        measured = measure_sides(sides, "fastapi-docs", fastapi, work / "w-fastapi", args.repeat, args.quiet)
        one_change(report, sides, measured, "fastapi-docs", fastapi, work / "w-fastapi")
        entries += measured.items()
        heavy = work / "pdf-office"  # the real PDF and Office files: parsing dominates a first run
        for kind in ("pdf", "office"):
            shutil.copytree(CORPUS / kind, heavy / kind)
        measured = measure_sides(sides, "pdf-office", heavy, work / "w-heavy", args.repeat, args.quiet)
        one_change(report, sides, measured, "pdf-office", heavy, work / "w-heavy")
        entries += measured.items()
        generated = work / "generated"
        generate(generated, args.files)
        name = f"generated-{args.files}"
        measured = measure_sides(sides, name, generated, work / "w-gen", args.repeat, args.quiet)
        one_change(report, sides, measured, name, generated, work / "w-gen")
        changed, deleted = change(generated, 0.02, 0.01)
        for label, entry in measured.items():  # each revision's store of its first measurement
            after = run(
                sides[label], generated, work / "w-gen" / f"{label}-{list(measured).index(label)}" / "r0" / "first"
            )
            entry["after_change"] = {"changed": changed, "deleted": deleted, "seconds": after["seconds"],
                                     "cpu_seconds": after["cpu_seconds"], "store": after["store"]}  # fmt: skip
            report.add(f"{AFTER} @{label}", name, "wall_s", after["seconds"], "s", ratio_to=f"{FIRST} @{label}",
                       statistic="one run")  # fmt: skip
        entries += measured.items()
    for label, entry in entries:
        entry.pop("outdir", None)
        add_rows(report, entry, label, baseline)
    report.details["runs"] = [{"revision": label, **entry} for label, entry in entries]
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
