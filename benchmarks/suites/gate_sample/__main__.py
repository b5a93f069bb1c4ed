"""gate_sample: what the gate's references cost, and what ``--gate-sample`` saves.

For each corpus (Debian's web pages under /usr/share/doc, collected as debian_probe does; the shared
corpus's Office and web files; the whole shared corpus), cold ``parsegate run`` (a new process, an
empty OUTDIR, ``--no-store``, the default workers) of this checkout, installed as the harness
installs a revision, with every reference (the default) and with ``--gate-sample FRACTION`` for each
fraction asked (default 0.1 and 0), in ABBA rounds; beside them the same files parsed and chunked in
one process (run_speed's ``inprocess.py``), so that each run's CPU reads as a multiple of the parse
and chunk. Rows: wall and CPU (user + system of ``run`` and its workers), each sampled run's as a
ratio to the full run's of the same rounds, and each run's CPU as a ratio to the parse + chunk.
Details: what each run measured (documents per reference, how many the sample held, what was not
measured, the verdicts) and whether the chunks are the same bytes (they must be: the sample changes
what the gate reads, never the chunks).

    python -m benchmarks.suites.gate_sample                       # 2 rounds, fractions 0.1 and 0
    python -m benchmarks.suites.gate_sample --rounds 1 --corpus office=../shared/corpus/office
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report, Timing
from benchmarks.revisions import Revision

INPROCESS = Path(__file__).resolve().parents[1] / "run_speed" / "inprocess.py"
ABBA = "median of {n} fresh processes per side, ABBA rounds"


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=2, help="ABBA rounds: each side runs twice a round")
    p.add_argument("--fraction", type=float, action="append", default=[], help="gate samples (default 0.1 and 0)")
    p.add_argument("--corpus", action="append", default=[], metavar="NAME=PATH", help="instead of the defaults")
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def debian_pages(into: Path) -> Path | None:
    """Every web page debian_probe's collection takes from /usr/share/doc (None without it)."""
    from benchmarks.suites.debian_probe.collect import DOC, collect

    if not DOC.is_dir():
        return None
    into.mkdir(parents=True, exist_ok=True)
    collect("html", into, 1000)
    return into


def run_once(rev: Revision, corpus: Path, extra: list[str]) -> tuple[Timing, dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="gate-sample-") as tmp:
        out = Path(tmp) / "out"
        argv = [rev.script(), "run", corpus, "--out", out, "--no-store", *extra]
        timing = harness.run_command(argv, ok=(0, 1))
        report = json.loads((out / "report.json").read_text())
        documents = report["documents"]
        facts = {
            "chunks_sha256": hashlib.sha256((out / "chunks.jsonl").read_bytes()).hexdigest(),
            "quarantine_chunks": sum(len(json.loads(line)["chunks"]) for line in (out / "quarantine.jsonl").open()),
            "gate_sample": report.get("gate_sample"),
            "references": dict(sorted(Counter(d.get("reference") or "none" for d in documents).items())),
            "not_measured": dict(sorted(Counter(m for d in documents for m in d.get("not_measured") or []).items())),
            "verdicts": dict(sorted(Counter(d["verdict"] or d["status"] for d in documents).items())),
            "files": [d["doc_id"] for d in documents],
        }
    return timing, facts


def report_corpus(report: Report, name: str, corpus: Path, rev: Revision, fractions: list[float], rounds: int) -> None:
    sides = {"every reference": [], **{f"--gate-sample {f:g}": ["--gate-sample", str(f)] for f in fractions}}
    outputs: dict[str, dict[str, Any]] = {}

    def one(label: str) -> Timing:
        timing, facts = run_once(rev, corpus, sides[label])
        first = outputs.setdefault(label, facts)
        first["same_chunks_every_run"] = first.get("same_chunks_every_run", True) and (
            facts["chunks_sha256"] == first["chunks_sha256"]
        )
        return timing

    timings = harness.abba({label: (lambda label=label: one(label)) for label in sides}, rounds)
    files = outputs["every reference"]["files"]
    with tempfile.TemporaryDirectory(prefix="gate-sample-") as tmp:
        listing = Path(tmp) / "files.json"
        listing.write_text(json.dumps(sorted(files)))
        argv = [rev.python, INPROCESS, "parse_chunk", corpus, listing]
        passes = [harness.run_json(argv)[0] for _ in range(2 * rounds)]
    statistic = ABBA.format(n=2 * rounds)
    parse_chunk = "parse + chunk in one process"
    for metric, key in (("wall_s", "wall"), ("cpu_s", "cpu")):
        samples = [round(p[key], 3) for p in passes]
        report.add(parse_chunk, name, metric, round(harness.median(samples), 3), "s",
                   statistic=f"median of {len(samples)} passes, each a fresh process", samples=samples)  # fmt: skip
    for label, values in timings.items():
        tool = f"parsegate run, {label}"
        for metric, pick in (("wall_s", lambda t: t.wall), ("cpu_s", lambda t: t.cpu)):
            samples = [round(pick(t), 3) for t in values]
            value = round(harness.median(samples), 3)
            full = None if label == "every reference" else "parsegate run, every reference"
            report.add(tool, name, metric, value, "s", ratio_to=full, statistic=statistic, samples=samples)
        cpu = next(r for r in report.rows if (r.tool, r.corpus, r.metric) == (tool, name, "cpu_s"))
        report.add(tool, name, "cpu_s", cpu.value, "s", ratio_to=parse_chunk, statistic=cpu.statistic)
    for facts in outputs.values():
        del facts["files"]
    shas = {facts["chunks_sha256"] for facts in outputs.values()}
    report.details.setdefault("corpora", {})[name] = {
        "path": str(corpus),
        "files": len(files),
        "same_chunks_all_sides": len(shas) == 1,
        "runs": outputs,
    }


def main() -> None:
    args = arguments()
    fractions = args.fraction or [0.1, 0.0]
    # Every side is the same code: the running venv's parsegate (this checkout, editable) is measured.
    rev = Revision(harness.commit_of(), "worktree", Path(sys.prefix))
    report = Report("gate_sample", commit=rev.label)
    with tempfile.TemporaryDirectory(prefix="gate-sample-pages-") as tmp:
        corpora: dict[str, Path | None]
        if args.corpus:
            corpora = {name: Path(path) for name, path in (item.split("=", 1) for item in args.corpus)}
        else:
            corpora = {
                "Debian's web pages": debian_pages(Path(tmp) / "html"),
                "shared corpus: office": harness.SHARED / "office",
                "shared corpus (all formats)": harness.SHARED,
            }
        for name, path in corpora.items():
            if path is None:
                print(f"{name}: not on this machine", flush=True)
                continue
            report_corpus(report, name, path, rev, fractions, args.rounds)
            print(f"{name}: done", flush=True)
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
