"""OCR recall: the share of a second, independent reading of each OCR page that reaches a chunk.

Extraction recall measures a PDF page against PDFium's text layer, which a scanned page does not
have: there it measured nothing. Here each page the parser read by OCR (a PDF page with no text
layer and an image; each frame of an image file) is read again by the *other* engine
(references/ocr.py: Tesseract ↔ RapidOCR, from the source bytes), and its text is looked for in
the chunks that name that page.

Two engines disagree on spaces (RapidOCR runs English words together: "Calibrationfollowsthe"),
on punctuation and on the order of a page's blocks, so words are not compared. Each line of the
second reading becomes its letters and digits alone (the gate's folded words run together), cut
into overlapping character ``GRAM``-grams; the chunks of the page are folded the same way. The
recall is the share of the second reading's grams found among the chunks' (as multisets): an OCR
misreading costs the few grams around it, a line the parser lost costs all of its own. A line
whose grams mostly did not reach a chunk is listed, with its box on the page. What the parser
declared furniture on the page (a page number, a running head) counts as found and is listed by
extraction recall. Lines shorter than a gram (a lone page number) are left out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsegate.parsers.model import NON_BODY_KINDS
from parsegate.quality_gates.checks.base import MAX_FAULTS, Definition, Faults, Limit, Subject
from parsegate.quality_gates.words import words

if TYPE_CHECKING:
    from parsegate.chunkers.record import Chunk
    from parsegate.parsers.model import Document
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.references.ocr import Line
    from parsegate.quality_gates.thresholds import Thresholds

FAULTS = "ocr_recall"
GRAM = 4  # characters (measured against 3 and 5: benchmarks/suites/ocr/second_reading.py)
LOST_LINE = 0.5  # a line with less than this share of its grams found is listed as lost
NOT_SAMPLED = "no second reading (not in the gate's sample)"
NO_SOURCE = "no second reading (the source file is not at hand)"


@dataclass(frozen=True)
class OcrRecallFacts:
    ocr_recall_grams: int | None = None  # character grams of the second reading on the OCR pages
    ocr_recall_found: int | None = None  # of them, found in the chunks of their page
    # The engine that read the pages again, or why there is no second reading ("no second reading
    # (rapidocr is not installed: pip install …)", or not in the gate's sample).
    ocr_second_reading: str | None = None
    ocr_pages: int | None = None  # pages read by OCR (None: none)
    ocr_pages_unread: int | None = None  # of them, with no second reading


def measure(s: Subject) -> OcrRecallFacts:
    ocr_meta = s.doc.metadata.get("ocr")
    if not isinstance(ocr_meta, dict) or s.doc.format not in ("pdf", "image"):
        return OcrRecallFacts()
    from parsegate.quality_gates.references import ocr  # a worker reading text files never loads it

    engine = ocr.other_engine(str(ocr_meta.get("engine") or ""))
    if s.source is None or (s.doc.format == "pdf" and (s.reference is None or s.reference.pdf is None)):
        claimed = len(ocr_meta.get("pages") or {}) or 1  # the parser's count: the source is not at hand
        return OcrRecallFacts(None, None, NO_SOURCE, claimed, claimed)
    source = s.reference.pdf if s.doc.format == "pdf" and s.reference is not None else None
    pages = ocr.scanned_pages(source) if source is not None else list(range(1, len(ocr.image_frames(s.source)) + 1))
    if not pages:
        return OcrRecallFacts()
    if not s.expensive:
        return OcrRecallFacts(None, None, NOT_SAMPLED, len(pages), len(pages))
    try:
        reading = ocr.read_pdf(source, pages, engine) if source is not None else ocr.read_image(s.source, engine)
    except ocr.NoSecondReading as exc:
        return OcrRecallFacts(None, None, str(exc), len(pages), len(pages))
    except Exception as exc:  # the engine is another library (onnxruntime raises its own types): said, not raised
        why = f"no second reading (the {engine} engine failed: {type(exc).__name__}: {str(exc)[:160]})"
        return OcrRecallFacts(None, None, why, len(pages), len(pages))
    total, found = by_page(s.faults, s.doc, s.chunks, reading.pages)
    return OcrRecallFacts(total, found, reading.engine, len(pages), 0)


def stream(text: str) -> str:
    """The text's letters and digits, folded as the gate folds words, run together."""
    return "".join(words(text))


def grams(text: str, n: int = GRAM) -> Counter[str]:
    s = stream(text)
    return Counter(s[i : i + n] for i in range(len(s) - n + 1))


def by_page(
    faults: Faults | None, doc: Document, chunks: list[Chunk] | Any, reading: dict[int, list[Line]], n: int = GRAM
) -> tuple[int, int]:
    """Each page's second reading against the chunks naming that page (their ``embed_text``) and
    the furniture the parser declared there: (grams, found)."""
    held: dict[int, Counter[str]] = {}
    for c in chunks:
        own = grams(c.embed_text, n)
        for number in c.pages or []:
            held.setdefault(number, Counter()).update(own)
    for e in doc.elements:
        if e.kind in NON_BODY_KINDS and e.page is not None:
            held.setdefault(e.page, Counter()).update(grams(doc.text[e.start : e.end], n))
    total = found = 0
    for number, lines in sorted(reading.items()):
        left = Counter(held.get(number, Counter()))
        lost: list[Line] = []
        for line in lines:
            wanted = grams(line.text, n)
            hit = wanted & left
            left -= hit
            total, found = total + wanted.total(), found + hit.total()
            if wanted and hit.total() < LOST_LINE * wanted.total():
                lost.append(line)
        if lost and faults is not None:
            faults.add(
                FAULTS,
                page=number,
                words=" / ".join(line.text for line in lost)[:400],
                count=len(lost),
                boxes=[list(line.box) for line in lost[:MAX_FAULTS]],
                lines=[line.text for line in lost[:MAX_FAULTS]],
                why=f"{len(lost)} lines of the second reading in no chunk",
            )
    return total, found


def parts(facts: DocFacts, thresholds: Thresholds) -> tuple[int | None, int | None]:
    own = facts.get(OcrRecallFacts)
    return own.ocr_recall_found, own.ocr_recall_grams


def applies(facts: DocFacts) -> bool:
    """Only to a document with pages read by OCR."""
    return bool(facts.get(OcrRecallFacts).ocr_pages)


CHECK = Definition(
    name="ocr_recall",
    metric="ocr_recall",
    label="OCR recall (second reading)",
    limit=Limit("min_ocr_recall", 0.9),
    facts=OcrRecallFacts,
    measure=measure,
    parts=parts,
    faults=FAULTS,
    formats=frozenset({"pdf", "image"}),
    needs_source=True,
    independent=True,
    applies=applies,
    stored="ocr_recall_found",
)
