"""Extraction recall: the share of the words of an independent extraction that reach a chunk.

This is the check that catches a parser losing text. The reference is the source file for text
formats (each word by its position: inside some chunk's span or not; for CSV and TSV, each
record as the ``csv`` module reads it against the parser's rows in the chunks: recall_rows.py),
PDFium's raw text layer for PDFs (each page's words against the words embedded by the chunks that name that page, as
multisets), and docling's export for Office and HTML (the document's words against all words
embedded; for HTML also the file's own text nodes that the export lacks, each as a whole). For
PDF and Office a word counts when it reaches an ``embed_text``: a table header repeated on every
page is dropped from the text once it is known, and travels as context. What a parser *declared*
furniture or front matter (running headers, page numbers, YAML metadata) is taken out of the
reference only where the gate finds support for it on its own (recall_support.py: a PDF line on other
pages too, front matter that is a YAML mapping…) and listed with its reason and that support, so
a parser cannot drop text silently by calling it furniture: the report shows what was dropped and
why, and unsupported furniture counts as lost.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsegate.parsers.model import NON_BODY_KINDS, Document, FurnitureData
from parsegate.quality_gates.checks.base import Definition, Faults, Limit, Subject
from parsegate.quality_gates.checks.recall_support import NOT_CHECKED, PdfSupport, front_matter
from parsegate.quality_gates.words import runs, words

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.references import Reference
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "extraction_recall"
# A word a page's line ends with a hyphen mark (or a hyphen at the line's end) that no lower-case
# rest follows: the last line of the page, or of a column (elsewhere PDFium's text runs the word
# on, "con\ufffetaining").
_OPEN_END = re.compile(r"(\w+)(?:[\ufffe\u00ad\x02]|-(?=[ \t]*(?:\r?\n|$)))\s*+(\w*)")
_MISSING_BOXES = 400  # lost words drawn on page images, per document


@dataclass(frozen=True)
class RecallFacts:
    recall_words: int | None = None
    recall_found: int | None = None
    recall_source: str | None = None  # which extraction: "source file", "PDFium text layer", "docling export"
    # Declared furniture (removed from the recall's reference), each with its reason.
    furniture: list[dict[str, Any]] = field(default_factory=list)


def measure(s: Subject) -> RecallFacts:
    from parsegate.quality_gates.references import TEXT_FORMATS

    doc, chunks, ref = s.doc, s.chunks, s.reference
    support: dict[int, str | None] = {}  # id of a declared element: why the reference leaves it out
    if ref is None:
        return RecallFacts(furniture=_declared(doc, support))
    if ref.records is not None:
        from parsegate.quality_gates.checks.recall_rows import by_record

        total, found = by_record(s.faults, FAULTS, doc, chunks, ref.records)
    elif ref.cells is not None:
        total, found = _by_cell_words(s.faults, chunks, ref.cells)
    elif ref.rendered is not None:
        from parsegate.quality_gates.checks.recall_rendered import by_rendered_words

        total, found = by_rendered_words(s.faults, FAULTS, chunks, ref)
    elif ref.book is not None:
        from parsegate.quality_gates.checks.recall_chapters import by_chapter

        total, found = by_chapter(s.faults, FAULTS, doc, chunks, ref, s.text_words, _whole)
    elif doc.format in TEXT_FORMATS:
        total, found = _by_position(s.faults, doc, chunks, ref, support)
        if ref.reading is not None:  # reStructuredText: docutils' reading too, word by word
            more, held = _by_reading(s.faults, doc, chunks, ref.reading)
            total, found = total + more, found + held
    elif ref.pdf is not None:
        total, found = _by_page(s.faults, doc, chunks, ref, support)
    else:
        total, found = _whole(s.faults, doc, chunks, ref, s.text_words)
    return RecallFacts(total, found, ref.kind, _declared(doc, support))


def _declared(doc: Document, support: dict[int, str | None]) -> list[dict[str, Any]]:
    """Each piece the parser declared furniture or front matter, with its reason and the
    reference's support for leaving it out (recall_support.py; None: none found, its words counted)."""
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
                    "support": support.get(id(e), NOT_CHECKED),
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


def _by_position(
    faults: Faults, doc: Document, chunks: Sequence[Chunk], ref: Reference, support: dict[int, str | None]
) -> tuple[int, int]:
    """Text formats: every word of the source file, by position (the furniture the parser declared
    is left out, and its front matter where it is a YAML mapping: recall_support.py)."""
    left_out = []
    for e in doc.elements:
        if e.kind == "front_matter":
            support[id(e)] = front_matter(doc, e)
            if support[id(e)] is None:
                continue
        if e.kind in NON_BODY_KINDS:
            left_out.append((e.start, e.end))
    declared = _spans(left_out)
    chunked = _spans([(c.start, c.end) for c in chunks])
    total, lost = _lost_words(ref.text, declared, chunked)
    for start, end in lost:
        faults.add(FAULTS, start=start, end=end, text=ref.text[start:end][:200])
    return total, total - sum(n for n in _counted(ref.text, declared, lost))


def _lost_words(
    text: str, declared: tuple[list[int], list[int]], chunked: tuple[list[int], list[int]]
) -> tuple[int, list[list[int]]]:
    """The words of ``text`` that count (not wholly inside a declared span), and the runs of
    those no chunk span holds whole, as source spans. A word held by no chunk span crosses a gap
    between the (merged) spans, so only the words at the gaps are read one by one: the others
    are counted by the regular expression alone (the pass over every word in Python was a
    tenth of the gate's time on Markdown)."""
    d_starts, d_ends = declared
    c_starts, c_ends = chunked
    total = len(_WORD_RE.findall(text)) - sum(_inside(text, a, b) for a, b in zip(d_starts, d_ends, strict=True))
    lost: list[list[int]] = []
    read = 0  # where the words read so far end (a word across two gaps is read once)
    gaps = zip([0, *c_ends], [*c_starts, len(text)], strict=True)
    for gap_start, gap_end in gaps:
        if gap_end <= gap_start:
            continue
        begin, stop = _word_bounds(text, gap_start, gap_end)
        for match in _WORD_RE.finditer(text, max(begin, read), stop):
            start, end = match.span()
            read = end
            if _covered(d_starts, d_ends, start, end):
                continue  # declared: not counted, and no break in a run of lost words
            if lost and _only_declared(text, lost[-1][1], start, d_starts, d_ends):
                lost[-1][1] = end
            else:
                lost.append([start, end])
    return total, lost


def _counted(text: str, declared: tuple[list[int], list[int]], lost: list[list[int]]) -> Iterator[int]:
    """The counted words in each lost run (a run spans declared words too)."""
    d_starts, d_ends = declared
    for start, end in lost:
        yield sum(1 for m in _WORD_RE.finditer(text, start, end) if not _covered(d_starts, d_ends, *m.span()))


_WORD_RE = re.compile(r"\w+")  # words.py's words, read where only positions matter


def _word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) widened to whole words: a word the span cuts is read whole."""
    if _WORD_RE.match(text, start, start + 1):
        while start > 0 and _WORD_RE.match(text, start - 1, start):
            start -= 1
    if end > 0 and _WORD_RE.match(text, end - 1, end):
        while end < len(text) and _WORD_RE.match(text, end, end + 1):
            end += 1
    return start, end


def _covered(starts: list[int], ends: list[int], start: int, end: int) -> bool:
    """Is [start, end) wholly inside one of the sorted, disjoint spans?"""
    n = bisect.bisect_left(ends, end)
    return n < len(starts) and starts[n] <= start


def _inside(text: str, start: int, end: int) -> int:
    """The words of ``text`` wholly inside [start, end)."""
    first, last = start, end
    count = 0
    for match in _WORD_RE.finditer(text, first, last):
        a, b = match.span()
        if (a == start and a > 0 and _WORD_RE.match(text, a - 1, a)) or (
            b == end and b < len(text) and _WORD_RE.match(text, b, b + 1)
        ):
            continue  # cut by the span's edge: a word that runs on beyond it
        count += 1
    return count


def _only_declared(text: str, after: int, before: int, d_starts: list[int], d_ends: list[int]) -> bool:
    """No counted word between two lost words: they are one run."""
    return all(_covered(d_starts, d_ends, *m.span()) for m in _WORD_RE.finditer(text, after, before))


def _by_reading(faults: Faults, doc: Document, chunks: Sequence[Chunk], reading: list[str]) -> tuple[int, int]:
    """The words of another reading of the file (docutils' text nodes, for reStructuredText)
    against the words of the chunks, as multisets; words of what the parser declared furniture
    or front matter count as held (they are listed apart, with their reason)."""
    reference: Counter[str] = Counter()
    for text in reading:
        reference.update(_bare(words(text)))
    held: Counter[str] = Counter()
    for c in chunks:
        held.update(_bare(words(c.text)))
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS:
            held.update(_bare(words(doc.text[e.start : e.end])))
    lost = reference - held
    if lost:
        faults.add(FAULTS, reading="docutils", words=" ".join(sorted(lost.elements()))[:400], count=lost.total())
    return reference.total(), reference.total() - lost.total()


def _bare(found: list[str]) -> list[str]:
    """Words without underscores at their ends: reStructuredText's reference marks ("Python_",
    "Overview__", "_`220`") are no part of the word a reader sees."""
    return [b for b in (w.strip("_") for w in found) if b]


def _by_cell_words(faults: Faults, chunks: Sequence[Chunk], cells: list[str]) -> tuple[int, int]:
    """Notebooks: the words of every cell and text output, as ``json.loads`` reads them, against
    the words of the chunks' text with its JSON escapes undone (as multisets)."""
    from parsegate.quality_gates.references.notebook import unescaped

    reference: Counter[str] = Counter()
    for text in cells:
        reference.update(words(text))
    chunked: Counter[str] = Counter()
    for c in chunks:
        chunked.update(words(unescaped(c.text)))
    lost = reference - chunked
    if lost:
        faults.add(FAULTS, words=" ".join(sorted(lost.elements()))[:400], count=lost.total())
    return reference.total(), reference.total() - lost.total()


def _by_page(
    faults: Faults, doc: Document, chunks: Sequence[Chunk], ref: Reference, support: dict[int, str | None]
) -> tuple[int, int]:
    """PDF: each page's text-layer words against the words of the chunks on that page, less the
    declared furniture the text layer supports (recall_support.py)."""
    assert ref.pdf is not None
    furniture: dict[int, Counter[str]] = {}
    pdf = PdfSupport(ref.pdf)
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS and e.page is not None:
            supported, support[id(e)] = pdf.words(doc, e)
            furniture.setdefault(e.page, Counter()).update(supported)
    chunked: dict[int, Counter[str]] = {}
    held_on: dict[int, list[list[str]]] = {}
    for c in chunks:
        held = words(c.embed_text)
        for number in c.pages or []:
            chunked.setdefault(number, Counter()).update(held)
            held_on.setdefault(number, []).append(held)
    total = found = 0
    drawn = 0
    bridged = _across_pages(ref, chunked)
    for number, page in ref.pdf.pages.items():
        reference = Counter(words(page.text)) - furniture.get(number, Counter())
        lost = reference - chunked.get(number, Counter()) - bridged.get(number, Counter())
        if lost:
            # The text layer runs a raised note mark into the words around it ("suitable1"):
            # such a word is found when two or three consecutive words of a chunk on the page
            # make it up. (Only looked for when a word is lost.)
            joined = {w for held in held_on.get(number, []) for w in runs(held)}
            lost = Counter({w: n for w, n in lost.items() if w not in joined})
        total += reference.total()
        found += reference.total() - lost.total()
        if lost:
            boxes = page.word_boxes(lost, _MISSING_BOXES - drawn) if drawn < _MISSING_BOXES else []
            drawn += len(boxes)
            faults.add(
                FAULTS,
                page=number,
                words=" ".join(sorted(lost.elements()))[:400],
                count=lost.total(),
                boxes=[[round(v, 1) for v in box] for _, box in boxes],
            )
    return total, found


def _across_pages(ref: Reference, chunked: dict[int, Counter[str]]) -> dict[int, Counter[str]]:
    """Words a parser joined across a page break: a page's line ends a word with a hyphen mark
    that no lower-case rest follows ("filesys\ufffe", or a note's mark run on after it:
    "filesys\ufffe1Both") and a chunk of that page holds it whole ("filesystems"), its rest a word
    of the next page ("tems"). Both count as found, each on its own page."""
    assert ref.pdf is not None
    out: dict[int, Counter[str]] = {}
    for number, page in ref.pdf.pages.items():
        after = ref.pdf.pages.get(number + 1)
        if after is None:
            continue
        rests = set(words(after.text))
        for m in _OPEN_END.finditer(page.text):
            if m.group(2)[:1].islower():
                continue  # the word goes on here
            # the reference's word: the head, or the head run on with what follows it
            head, reference = " ".join(words(m.group(1))), words(m.group(0))[0]
            for word in chunked.get(number, Counter()):
                if len(word) > len(head) and word.startswith(head) and word[len(head) :] in rests:
                    out.setdefault(number, Counter())[reference] += 1
                    out.setdefault(number + 1, Counter())[word[len(head) :]] += 1
                    break
    return out


def _whole(
    faults: Faults, doc: Document, chunks: Sequence[Chunk], ref: Reference, text_words: list[list[str]]
) -> tuple[int, int]:
    """Office and HTML: the words of docling's export (less what the parser declared furniture)
    against the words of all chunks (``text_words``: of each chunk's text)."""
    sequence = ref.text_words
    declared: Counter[str] = Counter()
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS:
            held = words(doc.text[e.start : e.end])
            declared.update(held)
            declared.update(list(runs(held)))  # as docling runs them together ("habitat5")
    exported = Counter(sequence)
    if ref.html_nodes is not None:
        exported = _as_often_as_shown(exported, ref.shown_words)
    reference = exported - declared
    chunk_words = [words(c.embed_text) for c in chunks]
    chunked: Counter[str] = Counter()
    for held in chunk_words:
        chunked.update(held)
    lost = reference - chunked
    if lost:
        # docling's export runs inline items together ("WiktionaryMedia"): such a word is found
        # when two or three consecutive words of a chunk make it up; and where the source has no
        # space between two inline items ("<code>docling</code>from"), the chunk's one word is
        # two or three consecutive words of the export. (Only looked for when a word is lost:
        # the runs of a long page's words were most of its recall.)
        joined = {w for held in chunk_words for w in runs(held)}
        split = {w for run, (i, j) in runs(sequence).items() if run in chunked for w in sequence[i:j]}
        lost = Counter({w: n for w, n in lost.items() if w not in joined and w not in split})
    if lost and ref.html_nodes is not None:
        lost = _shown_only(lost, ref.shown_words)
    total, found = reference.total(), reference.total() - lost.total()
    if lost:
        faults.add(FAULTS, words=" ".join(sorted(lost.elements()))[:400], count=lost.total())
    if ref.html_nodes is None:
        return total, found
    beyond, unchunked = _beyond_export(doc, text_words, ref.html_nodes, ref.export_words)
    for node in beyond:
        count = len(words(node))
        total += count
        if node in unchunked:
            faults.add(FAULTS, words=node[:400], count=count, why="in the file, not in docling's export")
        else:
            found += count
    return total, found


def _as_often_as_shown(reference: Counter[str], shown_words: list[str]) -> Counter[str]:
    """HTML: no word counts more often than the page shows it. docling's export writes a table
    cell that spans rows or columns once per row or column it spans (DocBook's navigation footer,
    with its two-row cells, doubled the page's title in the export, and 13 of valgrind's manual
    pages failed recall on a copy that no reader sees). A word the page's text nodes do not hold
    at all (docling runs inline items together) is left to the checks below."""
    shown = Counter(shown_words)
    return Counter({w: min(n, shown[w]) if shown[w] else n for w, n in reference.items()})


def _shown_only(lost: Counter[str], shown: list[str]) -> Counter[str]:
    """HTML: the lost words that are text of the page. docling's export writes a form field by
    its name attribute (``<input name="query">`` as "query"), which no reader sees: not found in
    the file's visible text nodes (as words, or run together as docling runs them), such a word
    is no loss."""
    visible = set(shown)
    if any(w not in visible for w in lost):
        visible.update(runs(shown))
    return Counter({w: n for w, n in lost.items() if w in visible})


def _beyond_export(
    doc: Document, text_words: list[list[str]], nodes: list[str], exported: list[str]
) -> tuple[list[str], set[str]]:
    """HTML: the file's text nodes that docling's export lacks (references/web.py), which count
    too, and those of them that are not in the chunks' text (a node is found when its letters and
    digits occur there); as above, what the parser declared furniture (a hidden block, a form
    control's label) is left out, and listed."""
    from parsegate.quality_gates.references.web import missing, squeezed

    declared = squeezed(doc.text[e.start : e.end] for e in doc.elements if e.kind in NON_BODY_KINDS)
    beyond = list(missing(list(missing(nodes, "".join(exported))), declared))
    if not beyond:
        return [], set()
    return beyond, set(missing(beyond, "".join("".join(held) for held in text_words)))


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(RecallFacts)
    return own.recall_found, own.recall_words


def applies(facts: DocFacts) -> bool:
    """Not to an image file: all its text is OCR's, measured by OCR recall (checks/ocr_recall.py)."""
    return facts.format != "image"


CHECK = Definition(
    name="recall",
    metric="extraction_recall",
    label="extraction recall",
    limit=Limit("min_extraction_recall", 0.99),
    facts=RecallFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    needs_source=True,
    independent=True,
    applies=applies,
    stored="recall_found",
)
