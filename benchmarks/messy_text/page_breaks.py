"""Sentences that run across a page break, in the text pdftotext makes of real PDFs: does one
chunk hold both halves? Held out: the machine's own Debian PDFs (and, with --lopdf, web pages
LibreOffice printed to PDF), which nobody here wrote or tuned on.

pdftotext puts a form feed where a page ends and, around it, the pages' running heads and
numbers, each a paragraph of its own; a sentence the page left unfinished goes on after them.
The truth comes from another engine: PDFium's text of each page (pypdfium2). A case is a page
whose last line of text (page numbers left out) ends no sentence and whose next page's first
line of body text (short lines that open no lower-case sentence left out) starts in lower case;
its evidence is the last four words before the break and the first four after it, found once in
pdftotext's text, at most 400 characters apart. Every tool chunks the same text at the same
budget with the same tokenizer; a case counts when one chunk holds both.

    V=benchmarks/messy_text/.venv/bin
    $V/python benchmarks/messy_text/page_breaks.py [--repo CHECKOUT] [--budgets 128,200] [--lopdf 60] [--layout]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
_TAIL_WORDS = 4
_REACH = 400  # characters between the two halves in pdftotext's text: furniture, not a page


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", type=Path, default=HERE.parent.parent, help="the parsegate checkout to measure")
    p.add_argument("--budgets", default="128,200")
    p.add_argument("--tools", default="parsegate,semchunk,chonkie,langchain")
    p.add_argument("--lopdf", type=int, default=0, help="also N web pages LibreOffice prints to PDF")
    p.add_argument("--layout", action="store_true", help="pdftotext -layout (columns kept apart by spaces)")
    p.add_argument("--out", type=Path, default=None)
    return p.parse_args()


def pdfs(into: Path, lopdf: int) -> list[Path]:
    sys.path.insert(0, str(HERE.parent))
    from debian_probe import collect

    collect("pdf", into, 1000)
    if lopdf:
        collect("lopdf", into, lopdf)
    return sorted(into.glob("*.pdf"))


def lines_of(page: str) -> list[str]:
    return [ln.strip() for ln in page.replace("\r\n", "\n").split("\n") if ln.strip()]


def cases(path: Path, text: str) -> list[tuple[int, int]]:
    """(start, end) in pdftotext's ``text`` of each sentence half-pair around a page break."""
    import pypdfium2 as pdfium

    try:
        pages = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(path))]
    except Exception:  # a PDF PDFium cannot read has no truth here
        return []
    found = []
    for before, after in itertools.pairwise(pages):
        above, below = lines_of(before), lines_of(after)
        while above and re.fullmatch(r"\d+|[ivxlc]+", above[-1]):
            above.pop()
        while below and len(below[0]) <= 60 and not below[0][:1].islower():
            below.pop(0)
        if not above or not below or above[-1][-1] in ".!?:;)" or not below[0][:1].islower():
            continue
        tail = " ".join(above[-1].split()[-_TAIL_WORDS:])
        head = " ".join(below[0].split()[:_TAIL_WORDS])
        at = text.find(tail)
        if at < 0 or text.find(tail, at + 1) >= 0:
            continue  # not found, or not once
        goes_on = text.find(head, at + len(tail))
        if 0 <= goes_on - at <= _REACH:
            found.append((at, goes_on + len(head)))
    return found


def main() -> None:
    args = arguments()
    sys.path.insert(0, str(args.repo.resolve()))
    sys.path.insert(1, str(HERE))
    import mt_tools

    from parsegate.parsers import text as text_parser

    tok = mt_tools.load_tokenizer()
    budgets = [int(b) for b in args.budgets.split(",")]
    tools = args.tools.split(",")
    runs = {(t, b): mt_tools.TOOLS[t](b, tok) for t in tools for b in budgets}
    whole = {f"{t}@{b}": 0 for t, b in runs}
    total = files = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in pdfs(Path(tmp), args.lopdf):
            mode = ["-layout"] if args.layout else []
            done = subprocess.run(["pdftotext", *mode, str(path), "-"], capture_output=True, check=False)
            text = done.stdout.decode("utf-8", "replace")
            pairs = cases(path, text)
            if not pairs:
                continue
            files += 1
            total += len(pairs)
            name = path.stem + ".txt"
            doc = mt_tools.Doc(file=name, path=path, text=text, parsed=text_parser.parse(text.encode(), name))
            for (tool, budget), run in runs.items():
                pieces = run(doc)
                whole[f"{tool}@{budget}"] += sum(any(p.start <= s and e <= p.end for p in pieces) for s, e in pairs)
    print(f"{total} sentences across a page break in {files} PDFs; held whole in one chunk:")
    for key, count in whole.items():
        print(f"  {key:16} {count:5}  {count / max(total, 1):.3f}")
    if args.out:
        commit = subprocess.run(["git", "-C", str(args.repo), "rev-parse", "HEAD"], capture_output=True, text=True)
        report = {"command": " ".join(sys.argv), "repo_commit": commit.stdout.strip(), "cases": total}
        args.out.write_text(json.dumps({**report, "files": files, "whole": whole}, indent=1) + "\n")


if __name__ == "__main__":
    main()
