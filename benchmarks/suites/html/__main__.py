"""html: HTML MB/s over the same pages for each tool, the same statistic (per page, the median of
its passes; all pages: their MB over the sum of those medians):

- parsegate: our own pass over lxml (parse: main content, chrome as furniture, elements);
- docling's HTML backend (what parsegate used before; structure recovered, no main-content step);
- trafilatura (main-content extraction to plain text, no element structure), and its
  ``favor_recall`` mode.

Pages: the real Wikipedia page of ../shared/corpus/office, the four real-world style pages of
golden_docs/office/html, and a generated single-page manual in the shape of Node.js's ``all.html``
(every API page one after the other, a table of contents that repeats every heading) of about
--big-mb MB. Also reports, for each tool, the share of each page's words it keeps (main content)
against the words a browser would show (lxml's text of <body>, scripts and styles left out).

Each tool is warmed up on the Wikipedia page first; the tools then go in ABBA rounds, a pass over
every page each time.

    python -m benchmarks.suites.html [--rounds 1] [--big-mb 8]
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import Report

CORPUS = harness.SHARED / "office"
PAGES = harness.ROOT / "golden_docs" / "office" / "html"


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


def one_pass(tool: Callable[[bytes, str], str], inputs: dict[str, bytes]) -> dict[str, tuple[float, int]]:
    """Seconds and words kept, per page."""
    out = {}
    for name, data in inputs.items():
        text, timing = harness.timed(lambda data=data, name=name: tool(data, name))
        out[name] = (timing.wall, len(text.split()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1, help="ABBA rounds: every tool passes twice a round")
    parser.add_argument("--big-mb", type=float, default=8.0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    report = Report("html")
    inputs = pages(args.big_mb)
    total_mb = sum(len(d) for d in inputs.values()) / 1e6
    for tool in TOOLS.values():  # warm-up: imports and caches, once per tool
        tool(inputs["wiki_duck.html"], "wiki_duck.html")
    measured = harness.abba({label: (lambda tool=tool: one_pass(tool, inputs)) for label, tool in TOOLS.items()},
                            args.rounds)  # fmt: skip
    ours = next(iter(TOOLS))
    big = f"all-{args.big_mb:g}mb.html"
    for label, passes in measured.items():
        medians = {name: harness.median([p[name][0] for p in passes]) for name in inputs}
        peers = [t for t in TOOLS if t != ours] if label == ours else [None]
        statistic = f"MB / per page, the median of {len(passes)} passes, summed; ABBA rounds"
        for corpus, names in (("all pages", list(inputs)), ("wiki_duck.html", ["wiki_duck.html"]), (big, [big])):
            rate = round(sum(len(inputs[n]) for n in names) / 1e6 / sum(medians[n] for n in names), 2)
            for peer in peers:
                report.add(label, corpus, "mb_per_s", rate, "MB/s", ratio_to=peer, statistic=statistic)
        report.details.setdefault("pages", {})[label] = {
            name: {"seconds": round(medians[name], 4), "words_kept": passes[-1][name][1]} for name in inputs
        }
    report.details["inputs"] = {
        name: {"mb": round(len(d) / 1e6, 3), "visible_words": visible_words(d)} for name, d in inputs.items()
    }
    report.details.update(total_mb=round(total_mb, 3), versions=harness.versions("trafilatura", "docling", "lxml"))
    report.print()
    print(f"written to {report.write(args.out)}")


if __name__ == "__main__":
    main()
