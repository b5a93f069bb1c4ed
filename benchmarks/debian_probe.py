"""`parsegate run` over documents Debian installed on this machine, which nobody here wrote or
tuned on: web pages, PDFs and text documents under /usr/share/doc. What the gate quarantines, and
why, is the finding: a parser losing content, or a gate check crying wolf.

The kinds ``docx`` and ``lopdf`` are web pages from there (a seeded sample) that LibreOffice saves as
Word files and prints to PDF (``soffice --headless --convert-to``): Office documents and PDFs made
by a real engine from documents nobody here wrote, with LibreOffice's own styles (a definition
term is "List Heading", a table's header cell "Table Heading").

    .venv/bin/python benchmarks/debian_probe.py                 # all three kinds
    .venv/bin/python benchmarks/debian_probe.py --kinds html --keep /tmp/probe
    .venv/bin/python benchmarks/debian_probe.py --files html=1000,pdf=1000,text=5000 --out /tmp/all.json
    .venv/bin/python benchmarks/debian_probe.py --kinds docx,lopdf --files docx=60,lopdf=60 --out /tmp/lo.json

Files are copied (gzip'ed ones unpacked) into a work folder (a temporary one unless --keep) and run
with a fresh store, two workers, the default budget. Results: benchmarks/results/debian_probe.json
(--out): the run's summary and every quarantined document with its reason. Not a test.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = Path("/usr/share/doc")
TEXT_NAMES = ("README*", "*.txt", "*.txt.gz", "*.md", "*.md.gz", "FAQ*", "TODO*", "NEWS*", "*.rst", "*.rst.gz")
LIMITS = {"html": (150, 400_000), "pdf": (40, 3_000_000), "text": (600, 300_000)}  # files, bytes each
CONVERTED = {"docx": ("docx", 'docx:"MS Word 2007 XML"'), "lopdf": ("pdf", "pdf")}  # suffix, soffice filter
SEED = 7


def convert(kind: str, into: Path, files: int | None = None) -> int:
    """A seeded sample of the web pages, converted by LibreOffice into ``kind`` (docx or lopdf)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        sys.exit("the docx and lopdf kinds need LibreOffice (soffice) on the PATH")
    pages = into.parent / f".{kind}-pages"
    pages.mkdir(exist_ok=True)
    collect("html", pages, 10_000)
    chosen = sorted(pages.iterdir())
    chosen = random.Random(SEED).sample(chosen, min(files or 60, len(chosen)))
    suffix, target = CONVERTED[kind]
    subprocess.run(
        [soffice, "--headless", "--convert-to", target.replace('"', ""), "--outdir", str(into), *map(str, chosen)],
        capture_output=True,
        check=False,
    )
    shutil.rmtree(pages)
    return len(list(into.glob(f"*.{suffix}")))


def collect(kind: str, into: Path, files: int | None = None) -> int:
    if kind in CONVERTED:
        return convert(kind, into, files)
    count, limit = 0, LIMITS[kind]
    if files is not None:
        limit = (files, limit[1])
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
