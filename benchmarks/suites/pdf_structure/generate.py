"""Generate the PDF structure benchmark: specs → PDFs through three real engines → truth → check.

    python -m benchmarks.suites.pdf_structure.generate [--out DIR] [--seed 7] [--chromium 24]
        [--libreoffice 20] [--latex 20]

Writes ``<out>/<engine>/<id>.pdf`` and ``<id>.truth.json`` (sources under ``<out>/<engine>/src/``) and
``<out>/manifest.json``. Every truth is checked against PDFium's text layer of its own PDF
(verify.py); the command fails, naming the documents, when any truth word is not there.
Missing engines are installed with apt-get when running as root, and named otherwise.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from benchmarks.suites.pdf_structure import render_docx, render_html, render_latex, verify
from benchmarks.suites.pdf_structure.spec import DocSpec, make_specs
from benchmarks.suites.pdf_structure.truth import truth_of

HERE = Path(__file__).resolve().parent
# engine → (a command that must exist, a file kpsewhich/fc-list must find or "", Debian packages)
NEEDS = {
    "chromium": ("chromium", "", ["chromium", "fonts-dejavu-core", "fonts-liberation2"]),
    "libreoffice": ("soffice", "", ["libreoffice-writer-nogui", "fonts-dejavu-core", "fonts-liberation2"]),
    "latex": (
        "pdflatex",
        "uhvr8a.pfb",
        ["texlive-latex-base", "texlive-latex-recommended", "texlive-fonts-recommended"],
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument("--seed", type=int, default=7)
    for engine, n in (("chromium", 24), ("libreoffice", 20), ("latex", 20)):
        parser.add_argument(f"--{engine}", type=int, default=n, help=f"documents set by {engine} (default {n})")
    args = parser.parse_args()
    counts = {e: getattr(args, e) for e in NEEDS}
    require_engines([e for e, n in counts.items() if n])
    start = time.perf_counter()
    specs = make_specs(args.seed, counts)
    if args.out.exists():
        shutil.rmtree(args.out)
    render_specs(specs, args.out)
    report = write_truths(specs, args.out)
    manifest = {"seed": args.seed, "documents": counts, "engines": engine_versions(), "seconds": 0.0, **report}
    manifest["seconds"] = round(time.perf_counter() - start, 1)
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"{len(specs)} documents, {report['pages']} pages in {manifest['seconds']} s → {args.out}")
    if report["disagreements"]:
        for doc_id, missing in report["disagreements"].items():
            print(f"TRUTH DISAGREES with the text layer: {doc_id}: {missing}", file=sys.stderr)
        sys.exit(1)


def require_engines(engines: list[str]) -> None:
    """Install what is missing (as root, with apt-get), saying so; otherwise stop and name it."""
    missing = [e for e in engines if not _has(e)]
    if not missing:
        return
    packages = sorted({p for e in missing for p in NEEDS[e][2]})
    print(f"the benchmark needs these Debian packages for {', '.join(missing)}: {' '.join(packages)}")
    if shutil.which("apt-get") is None or not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() != 0:
        sys.exit("install them (apt-get install --no-install-recommends ...) and run again")
    print("installing them with apt-get ...")
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
        check=True,
        env={"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
    )
    still = [e for e in missing if not _has(e)]
    if still:
        sys.exit(f"still missing after apt-get: {still}")


def _has(engine: str) -> bool:
    command, needed_file, _ = NEEDS[engine]
    if shutil.which(command) is None:
        return False
    if needed_file:
        return subprocess.run(["kpsewhich", needed_file], capture_output=True, check=False).returncode == 0
    return True


def render_specs(specs: list[DocSpec], out: Path) -> None:
    by_engine: dict[str, list[DocSpec]] = {}
    for spec in specs:
        by_engine.setdefault(spec.engine, []).append(spec)
    for engine, group in by_engine.items():
        src = out / engine / "src"
        src.mkdir(parents=True)
        t0 = time.perf_counter()
        if engine == "libreoffice":
            render_docx.render_all(group, src)
        else:
            module = render_html if engine == "chromium" else render_latex
            for n, spec in enumerate(group):
                module.render(spec, src / f"{spec.id}.pdf", font_index=n)
        for spec in group:
            (src / f"{spec.id}.pdf").rename(out / engine / f"{spec.id}.pdf")
        print(f"{engine}: {len(group)} documents rendered in {time.perf_counter() - t0:.1f} s")


def write_truths(specs: list[DocSpec], out: Path) -> dict[str, Any]:
    disagreements: dict[str, dict[str, int]] = {}
    rtl_visual: dict[str, int] = {}
    long_tables: dict[str, list[int]] = {}  # the pages a long table's rows were found on
    pages = 0
    for spec in specs:
        pdf = out / spec.engine / f"{spec.id}.pdf"
        doc = pdfium.PdfDocument(pdf)
        n_pages = len(doc)
        doc.close()
        pages += n_pages
        truth = truth_of(spec, n_pages)
        for table in truth["tables"]:
            if table["long"]:  # where the engine broke it: read back from the PDF, recorded for the scorer
                table["pages"] = sorted({p for p in verify.row_pages(table["rows"], pdf) if p})
                long_tables[spec.id] = table["pages"]
        (out / spec.engine / f"{spec.id}.truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1) + "\n")
        missing, visual = verify.check(truth, pdf)
        if missing:
            disagreements[spec.id] = dict(missing)
        if visual:
            rtl_visual[spec.id] = sum(visual.values())
    if rtl_visual:
        print(
            f"right-to-left words the text layer holds only in visual order (a parser must reorder them): {rtl_visual}"
        )
    spanning = sum(1 for p in long_tables.values() if len(p) > 1)
    print(f"long tables over a page break: {spanning} of {len(long_tables)}")
    return {
        "pages": pages,
        "disagreements": disagreements,
        "rtl_visual_order_words": rtl_visual,
        "long_table_pages": long_tables,
    }


def engine_versions() -> dict[str, str]:
    out = {}
    for engine, cmd in (
        ("chromium", ["chromium", "--version"]),
        ("libreoffice", ["soffice", "--version"]),
        ("latex", ["pdflatex", "--version"]),
    ):
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
            out[engine] = done.stdout.strip().splitlines()[0] if done.stdout.strip() else "?"
        except OSError:
            out[engine] = "missing"
    return out


if __name__ == "__main__":
    main()
