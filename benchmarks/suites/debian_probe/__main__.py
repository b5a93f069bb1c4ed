"""debian_probe: `parsegate run` over documents Debian installed on this machine, which nobody here wrote or
tuned on: web pages, PDFs and text documents under /usr/share/doc. What the gate quarantines, and
why, is the finding: a parser losing content, or a gate check crying wolf.

The kinds ``docx`` and ``lopdf`` are web pages from there (a seeded sample) that LibreOffice saves as
Word files and prints to PDF (``soffice --headless --convert-to``): Office documents and PDFs made
by a real engine from documents nobody here wrote, with LibreOffice's own styles (a definition
term is "List Heading", a table's header cell "Table Heading").

    python -m benchmarks.suites.debian_probe                 # html, pdf and text
    python -m benchmarks.suites.debian_probe --kinds html --keep /tmp/probe
    python -m benchmarks.suites.debian_probe --files html=1000,pdf=1000,text=5000 --out /tmp/all.json
    python -m benchmarks.suites.debian_probe --kinds docx,lopdf --files docx=60,lopdf=60 --out /tmp/lo.json

Files are copied (gzip'ed ones unpacked, collect.py) into a work folder (a temporary one unless
--keep) and run with a fresh store, two workers, the default budget. Results: the run's summary
and every quarantined document with its reason, in benchmarks/results/debian_probe.json for the
default sample (other kinds or counts: debian_probe.partial.tmp, or --out). Not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.suites.debian_probe.collect import DOC, collect


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kinds", default="html,pdf,text")
    p.add_argument("--keep", type=Path, default=None, help="work folder to keep (default: a temporary one)")
    p.add_argument("--out", type=Path, default=None)
    p.add_argument(
        "--files",
        default="",
        help="files per kind instead of the default sample (html=150,pdf=40,text=600): the first N in "
        "sorted order, size limits unchanged; a larger N takes in documents the default never read",
    )
    args = p.parse_args()
    files = {kind: int(n) for kind, n in (item.split("=") for item in args.files.split(",") if item)}
    if not DOC.is_dir():
        sys.exit("no /usr/share/doc on this machine")
    work = args.keep or Path(tempfile.mkdtemp(prefix="debian-probe-"))
    corpus, out = work / "corpus", work / "out"
    shutil.rmtree(work / "out", ignore_errors=True)
    shutil.rmtree(work / ".store", ignore_errors=True)
    counts = {}
    for kind in args.kinds.split(","):
        (corpus / kind).mkdir(parents=True, exist_ok=True)
        counts[kind] = collect(kind, corpus / kind, files.get(kind))
    print(f"collected {counts} under {corpus}", flush=True)
    report = Report("debian_probe")
    cli = Path(sys.executable).parent / "parsegate"
    command = [str(cli), "run", str(corpus), "--out", str(out), "--store", str(work / ".store" / "store.sqlite")]
    command += ["--workers", "2"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    print(done.stderr[-3000:], flush=True)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    quarantined = [json.loads(line) for line in (out / "quarantine.jsonl").read_text(encoding="utf-8").splitlines()]
    corpus = ", ".join(f"{n} {kind}" for kind, n in counts.items()) + " (Debian's /usr/share/doc)"
    report.add("parsegate run", corpus, "files", run["summary"]["files"], "files")
    report.add("parsegate run", corpus, "quarantined", len(quarantined), "files")
    report.details = {
        "parsegate": " ".join(command),
        "exit_status": done.returncode,
        "files": counts,
        "summary": run["summary"],
        "quarantined": [
            {
                "doc_id": q["doc_id"],
                "reason": q["reason"],
                "code": q.get("code"),
                "message": q.get("message"),
                "failed_checks": [
                    {"metric": c["metric"], "value": c["value"], "faults": c.get("faults", [])[:2]}
                    for c in q.get("failed_checks") or []
                ],
            }
            for q in quarantined
        ],
    }
    partial = (
        None if (args.kinds, args.files) == ("html,pdf,text", "") else harness.RESULTS / "debian_probe.partial.tmp"
    )
    written = report.write(args.out or partial)
    print(f"{len(quarantined)} quarantined of {sum(counts.values())}; wrote {written}")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
