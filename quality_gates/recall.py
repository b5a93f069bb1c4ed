"""Extraction recall: the share of the words of an independent extraction that reach a chunk.

This is the check that catches a parser losing text. The reference is the source file for text
formats (each word by its position: inside some chunk's span or not), PDFium's raw text layer
for PDFs (each page's words against the words embedded by the chunks that name that page, as
multisets), and docling's export for Office and HTML (the document's words against all words
embedded; for HTML also the file's own text nodes that the export lacks, each as a whole). For
PDF and Office a word counts when it reaches an ``embed_text``: a table header repeated on every
page is dropped from the text once it is known, and travels as context. What a parser *declared*
furniture or front matter (running headers, page numbers, YAML metadata) is taken out of the
reference and listed with its reason, so a parser cannot drop text silently by calling it
furniture: the report shows what was dropped and why.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from parsegate.parsers.model import NON_BODY_KINDS, Document, FurnitureData
from parsegate.quality_gates.facts import DocFacts
from parsegate.quality_gates.reference import TEXT_FORMATS, Reference
from parsegate.quality_gates.words import bag, runs, spans, words

_MISSING_BOXES = 400  # lost words drawn on page images, per document


def measure_recall(facts: DocFacts, doc: Document, records: list[dict[str, Any]], ref: Reference | None) -> None:
    facts.furniture = _declared(doc)
    if ref is None:
        return
    facts.recall_source = ref.kind
    if doc.format in TEXT_FORMATS:
        _by_position(facts, doc, records, ref)
    elif ref.pdf is not None:
        _by_page(facts, doc, records, ref)
    else:
        _whole(facts, doc, records, ref)


def _declared(doc: Document) -> list[dict[str, Any]]:
    out = []
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS:
            data = e.data
            reason = data.reason if isinstance(data, FurnitureData) else None
            if reason is None and isinstance(data, FurnitureData) and data.html:
                reason = f"<{data.html}> block"
            out.append(
                {
                    "kind": e.kind,
                    "reason": reason or ("front matter (metadata)" if e.kind == "front_matter" else e.kind),
                    "text": doc.text[e.start : e.end][:200],
                    "page": e.page,
                    "bbox": list(e.bbox) if e.bbox else None,
                    "start": e.start,
                    "end": e.end,
                }
            )
    return out


def _spans(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [m[0] for m in merged], [m[1] for m in merged]


def _by_position(facts: DocFacts, doc: Document, records: list[dict[str, Any]], ref: Reference) -> None:
    """Text formats: every word of the source file, by position (front matter and furniture
    the parser declared are left out)."""
    declared = _spans([(e.start, e.end) for e in doc.elements if e.kind in NON_BODY_KINDS])
    chunked = _spans([(r["start"], r["end"]) for r in records])
    total = found = 0
    lost: list[list[int]] = []  # runs of consecutive lost words, as source spans
    previous_lost = False
    d_starts, d_ends = declared
    c_starts, c_ends = chunked
    d = c = 0  # words come in order: walk both span lists alongside
    for start, end in spans(ref.text):
        while d < len(d_ends) and d_ends[d] < end:
            d += 1
        if d < len(d_starts) and d_starts[d] <= start:
            continue
        total += 1
        while c < len(c_ends) and c_ends[c] < end:
            c += 1
        hit = c < len(c_starts) and c_starts[c] <= start
        found += hit
        if not hit and previous_lost:
            lost[-1][1] = end
        elif not hit:
            lost.append([start, end])
        previous_lost = not hit
    for start, end in lost:
        facts.fault("extraction_recall", start=start, end=end, text=ref.text[start:end][:200])
    facts.recall_words, facts.recall_found = total, found


def _by_page(facts: DocFacts, doc: Document, records: list[dict[str, Any]], ref: Reference) -> None:
    """PDF: each page's text-layer words against the words of the chunks on that page."""
    assert ref.pdf is not None
    furniture: dict[int, Counter[str]] = {}
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS and e.page is not None:
            furniture.setdefault(e.page, Counter()).update(bag(doc.text[e.start : e.end]))
    chunked: dict[int, Counter[str]] = {}
    for r in records:
        held = bag(r["embed_text"])
        for page in r.get("pages") or []:
            chunked.setdefault(page, Counter()).update(held)
    total = found = 0
    drawn = 0
    for number, page in ref.pdf.pages.items():
        reference = Counter(words(page.text)) - furniture.get(number, Counter())
        lost = reference - chunked.get(number, Counter())
        total += reference.total()
        found += reference.total() - lost.total()
        if lost:
            boxes = page.word_boxes(lost, _MISSING_BOXES - drawn) if drawn < _MISSING_BOXES else []
            drawn += len(boxes)
            facts.fault(
                "extraction_recall",
                page=number,
                words=" ".join(sorted(lost.elements()))[:400],
                count=lost.total(),
                boxes=[[round(v, 1) for v in box] for _, box in boxes],
            )
    facts.recall_words, facts.recall_found = total, found


def _whole(facts: DocFacts, doc: Document, records: list[dict[str, Any]], ref: Reference) -> None:
    """Office and HTML: the words of docling's export (less what the parser declared furniture)
    against the words of all chunks."""
    sequence = words(ref.text)
    declared: Counter[str] = Counter()
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS:
            held = words(doc.text[e.start : e.end])
            declared.update(held)
            declared.update(list(runs(held)))  # as docling runs them together ("habitat5")
    exported = Counter(sequence)
    if ref.html_nodes is not None:
        exported = _as_often_as_shown(exported, ref.html_nodes)
    reference = exported - declared
    chunked: Counter[str] = Counter()
    for r in records:
        chunked.update(bag(r["embed_text"]))
    lost = reference - chunked
    # docling's export runs inline items together ("WiktionaryMedia"): such a word is found
    # when two or three consecutive words of a chunk make it up; and where the source has no
    # space between two inline items ("<code>docling</code>from"), the chunk's one word is
    # two or three consecutive words of the export.
    joined = {w for r in records for w in runs(words(r["embed_text"]))}
    split = {w for run, (i, j) in runs(sequence).items() if run in chunked for w in sequence[i:j]}
    lost = Counter({w: n for w, n in lost.items() if w not in joined and w not in split})
    if lost and ref.html_nodes is not None:
        lost = _shown_only(lost, ref.html_nodes)
    facts.recall_words, facts.recall_found = reference.total(), reference.total() - lost.total()
    if lost:
        facts.fault("extraction_recall", words=" ".join(sorted(lost.elements()))[:400], count=lost.total())
    if ref.html_nodes is not None:
        _beyond_export(facts, doc, records, ref.html_nodes, ref.everything or ref.text)


def _as_often_as_shown(reference: Counter[str], nodes: list[str]) -> Counter[str]:
    """HTML: no word counts more often than the page shows it. docling's export writes a table
    cell that spans rows or columns once per row or column it spans (DocBook's navigation footer,
    with its two-row cells, doubled the page's title in the export, and 13 of valgrind's manual
    pages failed recall on a copy that no reader sees). A word the page's text nodes do not hold
    at all (docling runs inline items together) is left to the checks below."""
    shown = Counter(words(" ".join(nodes)))
    return Counter({w: min(n, shown[w]) if shown[w] else n for w, n in reference.items()})


def _shown_only(lost: Counter[str], nodes: list[str]) -> Counter[str]:
    """HTML: the lost words that are text of the page. docling's export writes a form field by
    its name attribute (``<input name="query">`` as "query"), which no reader sees: not found in
    the file's visible text nodes (as words, or run together as docling runs them), such a word
    is no loss."""
    shown = words(" ".join(nodes))
    visible = set(shown)
    if any(w not in visible for w in lost):
        visible.update(runs(shown))
    return Counter({w: n for w, n in lost.items() if w in visible})


def _beyond_export(
    facts: DocFacts, doc: Document, records: list[dict[str, Any]], nodes: list[str], exported: str
) -> None:
    """HTML: the file's text nodes that docling's export lacks (html_source.py) count too, each
    found when its letters and digits occur in the chunks' text; as above, what the parser
    declared furniture (a hidden block, a form control's label) is left out, and listed."""
    from parsegate.quality_gates.html_source import missing, squeezed

    declared = squeezed(doc.text[e.start : e.end] for e in doc.elements if e.kind in NON_BODY_KINDS)
    beyond = list(missing(list(missing(nodes, squeezed([exported]))), declared))
    if not beyond:
        return
    unchunked = set(missing(beyond, squeezed(r["text"] for r in records)))
    assert facts.recall_words is not None and facts.recall_found is not None
    for node in beyond:
        count = len(words(node))
        facts.recall_words += count
        if node in unchunked:
            facts.fault("extraction_recall", words=node[:400], count=count, why="in the file, not in docling's export")
        else:
            facts.recall_found += count
