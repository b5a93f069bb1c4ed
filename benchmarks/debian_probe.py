"""`parsegate run` over documents Debian installed on this machine, which nobody here wrote or
tuned on: web pages, PDFs and text documents under /usr/share/doc. What the gate quarantines, and
why, is the finding: a parser losing content, or a gate check crying wolf.

    .venv/bin/python benchmarks/debian_probe.py                 # all three kinds
    .venv/bin/python benchmarks/debian_probe.py --kinds html --keep /tmp/probe

Files are copied (gzip'ed ones unpacked) into a work folder (a temporary one unless --keep) and run
with a fresh store, two workers, the default budget. Results: benchmarks/results/debian_probe.json
(--out): the run's summary and every quarantined document with its reason. Not a test.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = Path("/usr/share/doc")
TEXT_NAMES = ("README*", "*.txt", "*.txt.gz", "*.md", "*.md.gz", "FAQ*", "TODO*", "NEWS*", "*.rst", "*.rst.gz")
LIMITS = {"html": (150, 400_000), "pdf": (40, 3_000_000), "text": (600, 300_000)}  # files, bytes each


def collect(kind: str, into: Path) -> int:
    count, limit = 0, LIMITS[kind]
    patterns = {"html": ("*.html",), "pdf": ("*.pdf",), "text": TEXT_NAMES}[kind]
    paths = sorted({p for pattern in patterns for p in DOC.rglob(pattern) if p.is_file() and not p.is_symlink()})
    for path in paths:
        if count >= limit[0] or path.stat().st_size > limit[1]:
            continue
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        name = str(path.relative_to(DOC)).replace("/", "_").removesuffix(".gz")
        if kind == "text" and not name.endswith((".md", ".txt", ".rst")):
            name += ".txt"
        (into / name).write_bytes(data)
        count += 1
    return count


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kinds", default="html,pdf,text")
    p.add_argument("--keep", type=Path, default=None, help="work folder to keep (default: a temporary one)")
    p.add_argument("--out", type=Path, default=HERE / "results" / "debian_probe.json")
    args = p.parse_args()
    if not DOC.is_dir():
        sys.exit("no /usr/share/doc on this machine")
    work = args.keep or Path(tempfile.mkdtemp(prefix="debian-probe-"))
    corpus, out = work / "corpus", work / "out"
    shutil.rmtree(work / "out", ignore_errors=True)
    shutil.rmtree(work / ".store", ignore_errors=True)
    counts = {}
    for kind in args.kinds.split(","):
        (corpus / kind).mkdir(parents=True, exist_ok=True)
        counts[kind] = collect(kind, corpus / kind)
    print(f"collected {counts} under {corpus}", flush=True)
    cli = Path(sys.executable).parent / "parsegate"
    command = [str(cli), "run", str(corpus), "--out", str(out), "--store", str(work / ".store" / "store.sqlite")]
    command += ["--workers", "2"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    print(done.stderr[-3000:], flush=True)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    quarantined = [json.loads(line) for line in (out / "quarantine.jsonl").read_text(encoding="utf-8").splitlines()]
    report = {
        "command": " ".join(sys.argv),
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
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(quarantined)} quarantined of {sum(counts.values())}; wrote {args.out}")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
