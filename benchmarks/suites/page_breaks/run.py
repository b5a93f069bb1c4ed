"""page_breaks: sentences that run across a page break, in the text pdftotext makes of real PDFs: does one
chunk hold both halves? Held out: the machine's own Debian PDFs (and, with --lopdf, web pages
LibreOffice printed to PDF), which nobody here wrote or tuned on.

pdftotext puts a form feed where a page ends and, around it, the pages' running heads and
numbers, each a paragraph of its own; a sentence the page left unfinished goes on after them.
The truth comes from another engine: PDFium's text of each page (pypdfium2). A case is a page
whose last line of text (page numbers left out) ends no sentence and whose next page's first
line of body text (page numbers and short lines that open no lower-case sentence left out)
starts in lower case, both halves words of prose (no code, index entry, table cell or
hyphen-broken word; no table row, which PDFium joins into a line of words and pdftotext -layout
sets apart in cells);
its evidence is the last four words before the break and the first four after it, found once in
pdftotext's text, at most 400 characters apart. Every tool chunks the same text at the same
budget with the same tokenizer; a case counts when one chunk holds both.

With --own-pdf parsegate reads each PDF itself (its reading order, running heads and page
numbers set aside as furniture), while the peers chunk PDFium's text layer, pages joined by a
line break as a page loop writes them: the cases are those found once in that text layer, and
a case whose halves parsegate's own text does not hold (lost, or read out of order) counts
against it.

Each run reads the PDFs the three ways: ``pdftotext``, ``pdftotext -layout``, and ``own-pdf``.

    V=benchmarks/suites/messy_text/.venv/bin      # the messy_text suite's venv (its README.md)
    $V/python -m benchmarks.suites.page_breaks [--revision REV] [--budgets 128,200] [--lopdf 60]
        [--modes pdftotext,layout,own-pdf]
"""

from __future__ import annotations

import argparse
import itertools
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import harness
from benchmarks.harness import Report
from benchmarks.revisions import rerun_in

BUDGETS, TOOLS, MODES = "128,200", "parsegate,semchunk,chonkie,langchain", "pdftotext,layout,own-pdf"
READS = {
    "pdftotext": "pdftotext",
    "layout": "pdftotext -layout (columns kept apart by spaces)",
    "own-pdf": "own PDF parse (parsegate reads the PDF; the peers chunk PDFium's text layer)",
}
_TAIL_WORDS = 4
_REACH = 400  # characters between the two halves in pdftotext's text: furniture, not a page
# Words of prose (letters only), a comma after one, a stop after the last: no listing, index
# entry, table cell, word PDFium broke at a hyphen ("\ufffe") or running foot with its page number
# glued on ("The HarfBuzz libraries262"), which are no sentence going on.
_FOLIO = re.compile(r"\d+|[ivxlc]+")
_PROSE = re.compile(r"[A-Za-z][A-Za-z'’-]*,?( [A-Za-z][A-Za-z'’-]*,?)*[.;:]?")


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--revision", default=None, help="parsegate at this git revision (default: the installed one)")
    p.add_argument("--budgets", default=BUDGETS)
    p.add_argument("--tools", default=TOOLS)
    p.add_argument("--modes", default=MODES, help="pdftotext, layout (pdftotext -layout), own-pdf")
    p.add_argument("--lopdf", type=int, default=0, help="also N web pages LibreOffice prints to PDF")
    p.add_argument(
        "--pdfs",
        type=Path,
        default=None,
        help="collect the PDFs into this folder once and read them from it after (LibreOffice's output "
        "moves a little from run to run, and a second soffice running at the same time fails some files)",
    )
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def pdfs(into: Path, lopdf: int) -> list[Path]:
    from benchmarks.suites.debian_probe.collect import collect

    collect("pdf", into, 1000)
    if lopdf:
        collect("lopdf", into, lopdf)
    return sorted(into.glob("*.pdf"))


def kept_pdfs(folder: Path, lopdf: int) -> list[Path]:
    if not any(folder.glob("*.pdf")):
        folder.mkdir(parents=True, exist_ok=True)
        pdfs(folder, lopdf)
    return sorted(folder.glob("*.pdf"))


def lines_of(page: str) -> list[str]:
    return [ln.strip() for ln in page.replace("\r\n", "\n").split("\n") if ln.strip()]


def halves(path: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """PDFium's text of each page, and (last words before, first words after) of each sentence
    that runs across a page break, by PDFium's reading of the pages."""
    import pypdfium2 as pdfium

    try:
        pages = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(path))]
    except Exception:  # a PDF PDFium cannot read has no truth here
        return [], []
    found = []
    laid_out = _layout_pages(path)
    for n, (before, after) in enumerate(itertools.pairwise(pages)):
        above, below = lines_of(before), lines_of(after)
        while above and _FOLIO.fullmatch(above[-1]):
            above.pop()
        while below and (_FOLIO.fullmatch(below[0]) or (len(below[0]) <= 60 and not below[0][:1].islower())):
            below.pop(0)  # a page number ("i" too) or a short running head opens no sentence's rest
        if not above or not below or above[-1][-1] in ".!?:;)" or not below[0][:1].islower():
            continue
        tail = " ".join(above[-1].split()[-_TAIL_WORDS:])
        head = " ".join(below[0].split()[:_TAIL_WORDS])
        if not (_PROSE.fullmatch(tail) and _PROSE.fullmatch(head)):
            continue
        if _across_cells(laid_out, n, above[-1]) or _across_cells(laid_out, n + 1, below[0]):
            continue  # a table row ("prevgraf number vmode number of lines in the previous paragraph")
        found.append((tail, head))
    return pages, found


def _layout_pages(path: Path) -> list[str]:
    """pdftotext -layout's text of each page: an engine other than PDFium, which sets a table's
    cells apart by runs of spaces where PDFium's text layer joins them with one."""
    done = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=False)
    return done.stdout.decode("utf-8", "replace").split("\f")


def _across_cells(laid_out: list[str], page: int, line: str) -> bool:
    """Whether PDFium's ``line`` is a table row's cells in pdftotext -layout's text of the page:
    its words stand one space apart inside a cell and three or more apart between cells
    ("type    number type of the value"). A justified line of a narrow column spreads every gap
    alike ("version        gives") and is prose."""
    if page >= len(laid_out):
        return False
    wanted = line.split()
    for laid in laid_out[page].splitlines():
        words = list(re.finditer(r"\S+", laid))
        texts = [w.group() for w in words]
        for at in range(len(texts) - len(wanted) + 1):
            if texts[at : at + len(wanted)] == wanted:
                run = words[at : at + len(wanted)]
                gaps = {b.start() - a.end() for a, b in itertools.pairwise(run)}
                return min(gaps, default=0) == 1 and max(gaps) >= 3
    return False


def located(text: str, tail: str, head: str) -> tuple[int, int] | None:
    """Where both halves stand in ``text``: the tail found once, the head after it within reach."""
    at = text.find(tail)
    if at < 0 or text.find(tail, at + 1) >= 0:
        return None  # not found, or not once
    goes_on = text.find(head, at + len(tail))
    return (at, goes_on + len(head)) if 0 <= goes_on - at <= _REACH else None


def found_anywhere(text: tuple[str, list[int]], tail: str, head: str) -> tuple[int, int] | None:
    """Like located, in parsegate's own text of the PDF: the tail may stand more than once (the
    first the head follows counts), and table cells' rules and line breaks are left out of the
    comparison ("| init_str_ptr | number of" holds "init_str_ptr number of")."""
    squeezed, at_ = text  # _squeezed(parsegate's text), made once per document
    tail, head = _squeezed(tail)[0], _squeezed(head)[0]
    at = squeezed.find(tail)
    while at >= 0:
        goes_on = squeezed.find(head, at + len(tail))
        if 0 <= goes_on - at <= _REACH:
            return at_[at], at_[goes_on + len(head) - 1] + 1
        at = squeezed.find(tail, at + 1)
    return None


def _squeezed(text: str) -> tuple[str, list[int]]:
    """``text`` without table rules, each run of whitespace one space; where each char came from."""
    chars: list[str] = []
    where: list[int] = []
    for n, ch in enumerate(text):
        if ch == "|" or (ch.isspace() and chars and chars[-1] == " "):
            continue
        chars.append(" " if ch.isspace() else ch)
        where.append(n)
    return "".join(chars), where


def whole(pieces: list[Any], span: tuple[int, int] | None) -> bool:
    return span is not None and any(p.start <= span[0] and span[1] <= p.end for p in pieces)


def main() -> None:
    args = arguments()
    rerun_in(args.revision, "benchmarks.suites.page_breaks")
    report = Report("page_breaks")
    with tempfile.TemporaryDirectory() as tmp:
        paths = kept_pdfs(args.pdfs, args.lopdf) if args.pdfs else pdfs(Path(tmp), args.lopdf)
        for mode in args.modes.split(","):
            args.layout, args.own_pdf = mode == "layout", mode == "own-pdf"
            kept, total, files, unfound, failed = measure(args, paths)
            add_rows(report, READS[mode], kept, total)
            report.details[mode] = {"cases": total, "files": files, "whole": kept, "parse_failed": failed}
            if args.own_pdf:
                report.details[mode]["not_found_in_parsegate_pdf_text"] = unfound
    whole = (args.budgets, args.tools, args.modes, args.lopdf) == (BUDGETS, TOOLS, MODES, 0)
    print(f"wrote {report.write(args.out or (None if whole else harness.RESULTS / 'page_breaks.partial.tmp'))}")


def add_rows(report: Report, corpus: str, kept: dict[str, int], total: int) -> None:
    """Each tool's sentences held whole; parsegate's against the best peer's at the same budget."""
    for key, count in kept.items():
        tool, budget = key.split("@")
        peers = {k: v for k, v in kept.items() if k.endswith(f"@{budget}") and not k.startswith("parsegate")}
        best = max(peers, key=peers.__getitem__).split("@")[0] if peers and tool == "parsegate" else None
        report.add(tool, f"{corpus} @{budget} tokens", "whole", count, f"of {total} sentences", ratio_to=best)


def measure(args: argparse.Namespace, paths: list[Path]) -> tuple[dict[str, int], int, int, int, list[str]]:
    from benchmarks.suites.messy_text import mt_tools
    from parsegate.parsers import pdf as pdf_parser
    from parsegate.parsers import text as text_parser

    tok = mt_tools.load_tokenizer()
    budgets = [int(b) for b in args.budgets.split(",")]
    tools = args.tools.split(",")
    runs = {(t, b): mt_tools.TOOLS[t](b, tok) for t in tools for b in budgets}
    kept = {f"{t}@{b}": 0 for t, b in runs}
    total = files = unfound = 0
    failed: list[str] = []
    for path in paths:
        pages, pairs = halves(path)
        text = raw_text(path, pages, args)
        found = [(pair, span) for pair in pairs if (span := located(text, *pair)) is not None]
        pairs, spans = [pair for pair, _ in found], [span for _, span in found]
        if not pairs:
            continue
        name = path.stem + ".txt"
        try:
            parsed = text_parser.parse(text.encode(), name)
        except Exception as exc:  # a parser crash is a finding: named, counted, and the run goes on
            print(f"  {path.name}: parsegate's text parser raised {type(exc).__name__}: {exc}", flush=True)
            failed.append(f"{path.name}: {type(exc).__name__}: {exc}")
            continue
        files += 1
        total += len(pairs)
        doc = mt_tools.Doc(file=name, path=path, text=text, parsed=parsed)
        if args.own_pdf:  # parsegate reads the PDF itself; the peers chunk PDFium's text layer
            own = pdf_parser.parse(path.read_bytes(), path.name)
            squeezed = _squeezed(own.text)
            own_spans = [found_anywhere(squeezed, *pair) for pair in pairs]
            unfound += own_spans.count(None)
        for (tool, budget), run in runs.items():
            if args.own_pdf and tool == "parsegate":
                pieces = run(mt_tools.Doc(file=path.name, path=path, text=own.text, parsed=own))
                kept[f"{tool}@{budget}"] += sum(whole(pieces, span) for span in own_spans)
            else:
                pieces = run(doc)
                kept[f"{tool}@{budget}"] += sum(whole(pieces, span) for span in spans)
    print(f"{total} sentences across a page break in {files} PDFs; held whole in one chunk:")
    for key, count in kept.items():
        print(f"  {key:16} {count:5}  {count / max(total, 1):.3f}")
    if args.own_pdf:
        print(f"  ({unfound} of them not found in parsegate's own text of the PDF: counted as not whole)")
    return kept, total, files, unfound, failed


def raw_text(path: Path, pages: list[str], args: argparse.Namespace) -> str:
    """The text the peers (and, but with --own-pdf, parsegate) chunk: pdftotext's, or with
    --own-pdf PDFium's text layer, its pages joined by a line break as a page loop writes them."""
    if args.own_pdf:
        return "\n".join(pages)
    mode = ["-layout"] if args.layout else []
    done = subprocess.run(["pdftotext", *mode, str(path), "-"], capture_output=True, check=False)
    return done.stdout.decode("utf-8", "replace")


if __name__ == "__main__":
    main()
