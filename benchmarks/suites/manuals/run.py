"""manuals: twelve TeX-made manuals as a Debian user has them (issue 35), 976 pages: what parsegate
indexes of them beside pdftotext's text, per manual.

    apt-get install -y r-doc-pdf gnuplot-doc auto-multiple-choice-doc-pdf camlidl-doc \\
        docbook-xsl-doc-pdf libtasn1-doc shared-mime-info poppler-utils
    .venv/bin/python -m benchmarks.suites.manuals [--revision REV] [--keep DIR] [--only R-intro,gnuplot]

parsegate: ``parsegate run`` over copies of the manuals (a fresh store, two workers, the default
budget), the chunks of documents that pass the gate counted; its Document (``parsegate.parse``)
for the headings and the breaks between elements. pdftotext: its text (poppler's default
reading), what a pipeline that chunks pdftotext's output indexes. The counts (measure.py):

* ``dot_leaders``: dot-leader runs in the indexed text (contents and index entries), and for
  parsegate the passing chunks that hold one;
* ``loose_accents``: accents standing apart from their letters;
* ``split_words``: words the PDF hyphenates at a line end, that pdftotext joins, still cut in
  two (in parsegate: in a chunk's text, or between one element and the next);
* ``outline_headings`` (parsegate): bookmarks that are a heading on their page whose section
  parent is the outline's parent, of all bookmarks;
* ``extraction_recall`` (parsegate): the gate's, against PDFium's text layer.

Results: benchmarks/results/manuals.json (a run of some manuals only, or of another revision:
manuals.partial.tmp). Not a test.
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
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import rerun_in
from benchmarks.suites.manuals import measure

AMC = "/usr/share/doc/auto-multiple-choice"
MANUALS = {  # name: (Debian package, path)
    "R-FAQ": ("r-doc-pdf", "/usr/share/R/doc/manual/R-FAQ.pdf"),
    "R-admin": ("r-doc-pdf", "/usr/share/R/doc/manual/R-admin.pdf"),
    "R-data": ("r-doc-pdf", "/usr/share/R/doc/manual/R-data.pdf"),
    "R-intro": ("r-doc-pdf", "/usr/share/R/doc/manual/R-intro.pdf"),
    "R-lang": ("r-doc-pdf", "/usr/share/R/doc/manual/R-lang.pdf"),
    "gnuplot": ("gnuplot-doc", "/usr/share/doc/gnuplot/gnuplot.pdf"),
    "auto-multiple-choice.en": ("auto-multiple-choice-doc-pdf", f"{AMC}/auto-multiple-choice.en.pdf"),
    "sample-amc": ("auto-multiple-choice-doc-pdf", f"{AMC}/latex/sample-amc.pdf"),
    "camlidl": ("camlidl-doc", "/usr/share/doc/camlidl/camlidl-1.04.doc.pdf"),
    "libtasn1": ("libtasn1-doc", "/usr/share/doc/libtasn1-doc/libtasn1.pdf"),
    "docbook-xsl-reference": ("docbook-xsl-doc-pdf", "/usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz"),
    "shared-mime-info-spec": ("shared-mime-info", "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf"),
}  # fmt: skip
SHARED = ("dot_leaders", "loose_accents", "split_words", "split_across_pages")


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--revision", default=None, help="parsegate at this git revision (default: the installed one)")
    p.add_argument("--only", default="", help="these manuals only (names, comma-separated)")
    p.add_argument("--keep", type=Path, default=None, help="work folder to keep (default: a temporary one)")
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def collect(into: Path, only: set[str]) -> list[Path]:
    """The manuals copied into ``into`` (a symbolic link is no file of a run's corpus; a gzip'ed
    one unpacked), each as NAME.pdf; a missing one is named and left out."""
    into.mkdir(parents=True, exist_ok=True)
    out = []
    for name, (package, source) in MANUALS.items():
        path = Path(source)
        if only and name not in only:
            continue
        if not path.is_file():
            print(f"  {name}: {source} not found (apt-get install {package})", flush=True)
            continue
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        (into / f"{name}.pdf").write_bytes(data)
        out.append(into / f"{name}.pdf")
    return out


def run_parsegate(corpus: Path, work: Path) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """``parsegate run``: the passing chunks by document, and run.json."""
    out, store = work / "out", work / ".store" / "store.sqlite"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(store.parent, ignore_errors=True)
    cli = Path(sys.executable).parent / "parsegate"
    command = [str(cli), "-q", "run", str(corpus), "--out", str(out), "--store", str(store), "--workers", "2"]
    subprocess.run(command, check=False, capture_output=True, text=True)
    chunks: dict[str, list[dict[str, Any]]] = {}
    for line in (out / "chunks.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        chunks.setdefault(record["doc_id"], []).append(record)
    return chunks, json.loads((out / "run.json").read_text(encoding="utf-8"))


def pdftotext(path: Path) -> str:
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True)
    return done.stdout.decode("utf-8", errors="replace")


def text_layer(path: Path) -> tuple[list[str], list[measure.Bookmark]]:
    """PDFium's text of each page, and the outline with each bookmark's parent."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    pages = []
    for page in pdf:
        textpage = page.get_textpage()
        pages.append(textpage.get_text_range(errors="ignore"))
        textpage.close()
    bookmarks, stack = [], []  # (level, title) of the bookmarks above
    for b in pdf.get_toc():
        dest = b.get_dest()
        index = dest.get_index() if dest is not None else None
        while stack and stack[-1][0] >= b.level:
            stack.pop()
        page = index + 1 if index is not None else None
        bookmarks.append(measure.Bookmark(b.get_title(), page, stack[-1][1] if stack else None))
        stack.append((b.level, b.get_title()))
    return pages, bookmarks


def measure_manual(path: Path, chunks: list[dict[str, Any]], facts: dict[str, Any] | None) -> dict[str, Any]:
    import parsegate

    doc = parsegate.parse(path)
    plain = pdftotext(path)
    layer, bookmarks = text_layer(path)
    hyphens = measure.hyphenated(layer, plain)
    body = [e for e in doc.elements if e.kind not in ("furniture", "front_matter", "list", "table")]
    pieces = [doc.text[e.start : e.end] for e in body]
    texts = [c["text"] for c in chunks]
    headings = [(doc.text[e.start : e.end], e.page, e.section_path) for e in doc.elements if e.kind == "heading"]
    outline = measure.check_outline(bookmarks, headings)
    navigation = [e for e in doc.elements if e.kind == "furniture" and getattr(e.data, "reason", None) == "navigation"]
    recall = None
    if facts and facts.get("recall_words"):
        recall = round(facts["recall_found"] / facts["recall_words"], 5)
    return {
        "pages": len(layer),
        "chunks": len(chunks),
        "parsegate": {
            "dot_leaders": sum(measure.leader_runs(t) for t in texts),
            "chunks_with_leaders": sum(measure.leader_runs(t) > 0 for t in texts),
            "loose_accents": sum(measure.loose_accents(t) for t in texts),
            "split_words": len(_split(pieces, hyphens.within)),
            "split_across_pages": len(_split(pieces, hyphens.across)),
            "outline_headings": outline.nested if bookmarks else None,
            "extraction_recall": recall,
        },
        "pdftotext": {
            "dot_leaders": measure.leader_runs(plain),
            "loose_accents": measure.loose_accents(plain),
            "split_words": len(measure.split_by_pdftotext(plain, hyphens.within)),
            "split_across_pages": len(measure.split_by_pdftotext(plain, hyphens.across)),
        },
        "bookmarks": len(bookmarks),
        "hyphenated_words": hyphens.within.total(),
        "hyphenated_across_pages": hyphens.across.total(),
        "split_examples": _split(pieces, hyphens.within)[:10] + _split(pieces, hyphens.across)[:10],
        "loose_accent_examples": [m for t in texts for m in measure.loose_accent_contexts(t)][:10],
        "navigation_pages": len(navigation),
        "tables": sum(e.kind == "table" for e in doc.elements),
        "code": sum(e.kind == "code" for e in doc.elements),
        "outline_missing": outline.missing[:10],
        "outline_misplaced": outline.misplaced[:10],
    }


def main() -> None:
    args = arguments()
    rerun_in(args.revision, "benchmarks.suites.manuals")
    only = {name for name in args.only.split(",") if name}
    work = args.keep or Path(tempfile.mkdtemp(prefix="manuals-"))
    paths = collect(work / "corpus", only)
    if not paths:
        sys.exit("no manual found: apt-get install the packages this suite's --help names")
    chunks, run = run_parsegate(work / "corpus", work)
    facts = {f["path"]: f.get("facts") for f in run["files"]}
    report = Report("manuals")
    results = {}
    for path in paths:
        name = path.stem
        print(f"  {name}", flush=True)
        results[name] = found = measure_manual(path, chunks.get(path.name, []), facts.get(path.name))
        for tool in ("parsegate", "pdftotext"):
            for metric, value in found[tool].items():
                peer = "pdftotext" if tool == "parsegate" and metric in SHARED else None
                report.add(tool, name, metric, value, _unit(metric, found), ratio_to=peer)
    total_pages = sum(r["pages"] for r in results.values())
    corpus = f"{len(results)} manuals ({total_pages} pages)"
    add_totals(report, corpus, list(results.values()))
    report.details = {
        "parsegate": f"parsegate run --workers 2 (fresh store); gate: {run['summary']['gate_passed']} passed, "
        f"{run['summary']['gate_failed']} failed",
        "pdftotext": _version(),
        "manuals": results,
    }
    report.print()
    whole = not only and len(paths) == len(MANUALS) and args.revision is None
    print(f"wrote {report.write(args.out or (None if whole else harness.RESULTS / 'manuals.partial.tmp'))}")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


def _split(pieces: list[str], pairs: measure.Counter[tuple[str, str]]) -> list[str]:
    return [found for piece in pieces for found in measure.split_in_text(piece, pairs)] + measure.split_across(
        pieces, pairs
    )


def add_totals(report: Report, corpus: str, results: list[dict[str, Any]]) -> None:
    def total(tool: str, metric: str) -> int:
        return sum(r[tool][metric] or 0 for r in results)

    for tool in ("parsegate", "pdftotext"):
        peer = "pdftotext" if tool == "parsegate" else None
        for metric in SHARED:
            report.add(tool, corpus, metric, total(tool, metric), _unit(metric, {}), ratio_to=peer)
    bookmarks, chunks = sum(r["bookmarks"] for r in results), sum(r["chunks"] for r in results)
    units = {"outline_headings": f"of {bookmarks} bookmarks", "chunks_with_leaders": f"of {chunks} chunks"}
    for metric, unit in units.items():
        report.add("parsegate", corpus, metric, total("parsegate", metric), unit)


def _unit(metric: str, found: dict[str, Any]) -> str:
    return {
        "dot_leaders": "dot-leader runs",
        "chunks_with_leaders": f"of {found.get('chunks', '?')} passing chunks",
        "loose_accents": "accents",
        "split_words": f"of {found.get('hyphenated_words', '?')} hyphenated words" if found else "words",
        "split_across_pages": f"of {found.get('hyphenated_across_pages', '?')} words" if found else "words",
        "outline_headings": f"of {found.get('bookmarks', '?')} bookmarks",
        "extraction_recall": "share of PDFium's words",
    }[metric]


def _version() -> str:
    done = subprocess.run(["pdftotext", "-v"], capture_output=True, text=True, check=False)
    return (done.stderr or done.stdout).splitlines()[0] if (done.stderr or done.stdout) else "pdftotext"
