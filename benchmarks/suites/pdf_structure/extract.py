"""One tool over a list of PDFs, in its own process: what it extracted, and how long it took.

    PYTHON extract.py TOOL PDF_LIST_JSON OUT_JSONL

TOOL is parsegate, pdfium, pdfplumber or pdfminer. For parsegate, the parsegate of the python that
runs it is measured (this venv's, or a revision's venv from benchmarks/revisions.py). Each output
line: pdf, seconds (the extraction call alone, imports excluded), ``body`` (texts in reading
order, furniture and figure text left out), ``all`` (every text the tool gave, furniture
included), ``headings`` (text, level), ``tables`` (rows of cells), ``kinds`` (element kinds
seen), or ``error``. Scoring happens elsewhere (score.py), on these lines only.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Kinds that are not body text for the scorer, whatever the parser under test calls body:
# page furniture, metadata, and the text inside figures (truth lists figure labels apart).
NOT_BODY = {"furniture", "front_matter", "figure_text", "figure"}


def parsegate() -> Callable[[Path], dict[str, Any]]:
    from parsegate.parsers import model, pdf

    not_body = NOT_BODY | set(getattr(model, "NON_BODY_KINDS", ()))

    def run(path: Path) -> dict[str, Any]:
        doc = pdf.parse(path.read_bytes(), path.name)
        leaves = [e for e in doc.elements if not e.is_container]
        text = doc.text
        rows: dict[str, list[list[str]]] = {}
        for e in doc.elements:
            if e.kind == "table_row" and e.parent:
                # Element data is typed since parsegate's output version 2 (a dict in older checkouts).
                cells = e.data.get("cells", []) if isinstance(e.data, dict) else getattr(e.data, "cells", [])
                rows.setdefault(e.parent, []).append([str(c) for c in cells])
        return {
            "body": [text[e.start : e.end] for e in leaves if e.kind not in not_body],
            "all": [text[e.start : e.end] for e in leaves],
            "headings": [
                {"text": text[e.start : e.end], "level": e.level} for e in doc.elements if e.kind == "heading"
            ],
            "tables": list(rows.values()),
            "kinds": dict(Counter(e.kind for e in doc.elements)),
        }

    run.source = str(Path(pdf.__file__).resolve())  # type: ignore[attr-defined]
    return run


def pdfium() -> Callable[[Path], dict[str, Any]]:
    import pypdfium2 as pdfium

    def run(path: Path) -> dict[str, Any]:
        doc = pdfium.PdfDocument(path)
        pages = []
        try:
            for page in doc:
                textpage = page.get_textpage()
                pages.append(textpage.get_text_range())
                textpage.close()
                page.close()
        finally:
            doc.close()
        return {"body": pages, "all": pages}

    return run


def pdfplumber() -> Callable[[Path], dict[str, Any]]:
    import pdfplumber as plumber

    def run(path: Path) -> dict[str, Any]:
        with plumber.open(path) as doc:
            pages = [page.extract_text() or "" for page in doc.pages]
        return {"body": pages, "all": pages}

    return run


def pdfminer() -> Callable[[Path], dict[str, Any]]:
    from pdfminer.high_level import extract_text

    def run(path: Path) -> dict[str, Any]:
        text = extract_text(str(path))
        return {"body": [text], "all": [text]}

    return run


def main() -> None:
    tool, listing, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    run = {"parsegate": parsegate, "pdfium": pdfium, "pdfplumber": pdfplumber, "pdfminer": pdfminer}[tool]()
    paths = [Path(p) for p in json.loads(listing.read_text())]
    with out.open("w", encoding="utf-8") as sink:
        sink.write(json.dumps({"tool": tool, "source": getattr(run, "source", None)}) + "\n")
        for path in paths:
            start = time.perf_counter()
            try:
                record = run(path)
            except Exception as exc:
                record = {"error": f"{type(exc).__name__}: {exc}"[:500]}
            record["seconds"] = time.perf_counter() - start
            record["pdf"] = str(path)
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
