"""HTML MB/s, one run, same pages, same statistic (median of --repeat passes) for each tool:

- parsegate: our own pass over lxml (parse: main content, chrome as furniture, elements);
- docling's HTML backend (what parsegate used before; structure recovered, no main-content step);
- trafilatura (main-content extraction to plain text, no element structure), and its
  ``favor_recall`` mode.

Pages: the real Wikipedia page of ../shared/corpus/office, the four real-world style pages of
golden_docs/office/html, and a generated single-page manual in the shape of Node.js's ``all.html``
(every API page one after the other, a table of contents that repeats every heading) of about
--big-mb MB. Also reports, for each tool, the share of each page's words it keeps (main content)
against the words a browser would show (lxml's text of <body>, scripts and styles left out).

    .venv/bin/python benchmarks/html_throughput.py [--repeat 3] [--big-mb 8]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "office"
PAGES = ROOT / "golden_docs" / "office" / "html"


def big_manual(target_mb: float) -> bytes:
    """An ``all.html``-like page: the API page's content repeated under distinct ids, with a
    table of contents that links every heading, until it is about ``target_mb`` MB."""
    source = (PAGES / "api-toc" / "input.html").read_text()
    start = source.index('<div id="apicontent">') + len('<div id="apicontent">')
    content = source[start : source.index("<footer>")]
    content = content[: content.rindex("</div>")]
    sections: list[str] = []
    toc: list[str] = []
    size = 0
    while size < target_mb * 1_000_000:
        module = f"m{len(sections)}"
        section = re.sub(r'id="([\w-]+)"', f'id="{module}-\\1"', content)
        section = re.sub(r'href="#([\w-]+)"', f'href="#{module}-\\1"', section)
        sections.append(section)
        size += len(section)
        toc.append(
            f'<li><a href="#{module}-timers">Timers ({module})</a>'
            f'<ul><li><a href="#{module}-class-timeout">Class: Timeout</a></li></ul></li>'
        )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>All | Harbor API</title></head><body>"
        "<div id='column2' class='interior'><ul><li><a href='timers.html'>Timers</a></li></ul></div>"
        "<div id='column1' class='interior'><header><h1>Harbor documentation</h1></header>"
        f"<details role='navigation' id='toc'><summary>Table of contents</summary><ul>{''.join(toc)}</ul></details>"
        f"<div id='apicontent'>{''.join(sections)}</div></div></body></html>"
    ).encode()


def pages(big_mb: float) -> dict[str, bytes]:
    out = {"wiki_duck.html": (CORPUS / "wiki_duck.html").read_bytes()}
    out.update({f"{p.name}.html": (p / "input.html").read_bytes() for p in sorted(PAGES.iterdir()) if p.is_dir()})
    out[f"all-{big_mb:g}mb.html"] = big_manual(big_mb)
    return out


def parsegate(data: bytes, name: str) -> str:
    from parsegate.parsers import office
    from parsegate.parsers.model import NON_BODY_KINDS

    doc = office.parse(data, name)
    return " ".join(doc.text[e.start : e.end] for e in doc.leaves() if e.kind not in NON_BODY_KINDS)


def docling_html(data: bytes, name: str) -> str:
    import io

    from docling.backend.html_backend import HTMLDocumentBackend
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.document import InputDocument

    source = InputDocument(
        path_or_stream=io.BytesIO(data), format=InputFormat.HTML, backend=HTMLDocumentBackend, filename=name
    )
    return str(source._backend.convert().export_to_text())  # type: ignore[attr-defined]


def trafilatura_default(data: bytes, name: str) -> str:
    import trafilatura

    return trafilatura.extract(data, include_tables=True, include_comments=False) or ""


def trafilatura_recall(data: bytes, name: str) -> str:
    import trafilatura

    return trafilatura.extract(data, include_tables=True, include_comments=False, favor_recall=True) or ""


TOOLS: dict[str, Callable[[bytes, str], str]] = {
    "parsegate (lxml pass)": parsegate,
    "docling HTML backend": docling_html,
    "trafilatura": trafilatura_default,
    "trafilatura favor_recall": trafilatura_recall,
}


def visible_words(data: bytes) -> int:
    import lxml.html
    from lxml import etree

    root = lxml.html.document_fromstring(data, parser=lxml.html.HTMLParser(huge_tree=True))
    etree.strip_elements(root, "script", "style", "template", "noscript", with_tail=False)
    body = root.find("body")
    return len(" ".join((body if body is not None else root).itertext()).split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big-mb", type=float, default=8.0)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "html_throughput.json")
    args = parser.parse_args()
    inputs = pages(args.big_mb)
    total_mb = sum(len(d) for d in inputs.values()) / 1e6
    for tool in TOOLS.values():  # warm-up: imports and caches, once per tool
        tool(inputs["wiki_duck.html"], "wiki_duck.html")
    results: dict[str, object] = {}
    for label, tool in TOOLS.items():
        per_page: dict[str, object] = {}
        seconds_all = 0.0
        for name, data in inputs.items():
            runs = []
            text = ""
            for _ in range(args.repeat):
                start = time.perf_counter()
                text = tool(data, name)
                runs.append(time.perf_counter() - start)
            median = statistics.median(runs)
            seconds_all += median
            per_page[name] = {
                "mb": round(len(data) / 1e6, 3),
                "seconds": round(median, 4),
                "mb_per_s": round(len(data) / 1e6 / median, 2),
                "words_kept": len(text.split()),
            }
        results[label] = {
            "seconds": round(seconds_all, 3),
            "mb_per_s": round(total_mb / seconds_all, 2),
            "pages": per_page,
        }
        print(label, results[label]["mb_per_s"], "MB/s", flush=True)
    report = {
        "statistic": f"median of {args.repeat} passes per page; MB/s = all pages' MB / sum of medians",
        "pages": {
            name: {"mb": round(len(d) / 1e6, 3), "visible_words": visible_words(d)} for name, d in inputs.items()
        },
        "total_mb": round(total_mb, 3),
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({k: v["mb_per_s"] for k, v in results.items()}, indent=2))  # type: ignore[index]


if __name__ == "__main__":
    main()
