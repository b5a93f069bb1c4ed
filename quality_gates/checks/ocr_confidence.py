"""OCR confidence: text read by OCR (a scanned PDF page, an image file) is only as good as the
engine's reading. Each chunk on an OCR page carries the mean confidence of its words
(``metadata.ocr.confidence``, chunkers/ocr_meta.py, from the parser's per-element
``ocr_confidence``); a document whose weakest chunk is under ``min_ocr_confidence`` fails, its
low chunks listed (report.html draws them on their page image), and is quarantined rather than
embedded. It trusts the engine's own confidences: the independent reading of an OCR page, by the
other engine, is OCR recall's (checks/ocr_recall.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsegate.quality_gates.checks.base import MAX_FAULTS, Definition, Limit, Subject

if TYPE_CHECKING:
    from parsegate.quality_gates.facts import DocFacts
    from parsegate.quality_gates.thresholds import Thresholds


@dataclass(frozen=True)
class OcrFacts:
    # Per chunk, its OCR confidence (None: no OCR text in it); None: nothing in the document was OCR'd.
    ocr_confidences: list[float | None] | None = None


def measure(s: Subject) -> OcrFacts:
    found = [_confidence(c.metadata) for c in s.chunks]
    return OcrFacts(found if any(v is not None for v in found) else None)


def _confidence(metadata: dict[str, Any]) -> float | None:
    ocr = metadata.get("ocr")
    value = ocr.get("confidence") if isinstance(ocr, dict) else None
    return float(value) if isinstance(value, int | float) else None


def value(facts: DocFacts, thresholds: Thresholds) -> float | None:
    """The weakest chunk's confidence."""
    found = facts.get(OcrFacts).ocr_confidences
    return min((v for v in found if v is not None), default=None) if found else None


def total(all_facts: list[DocFacts], thresholds: Thresholds) -> float | None:
    values = [v for f in all_facts if (v := value(f, thresholds)) is not None]
    return min(values) if values else None


def faults_of(facts: DocFacts, thresholds: Thresholds) -> list[dict[str, Any]]:
    limit = thresholds.min_ocr_confidence
    found = facts.get(OcrFacts).ocr_confidences or []
    low = [(i, v) for i, v in enumerate(found) if v is not None and limit is not None and v < limit]
    return [{"chunk_index": i, "why": f"OCR confidence {v:.3f} (under {limit})"} for i, v in low[:MAX_FAULTS]]


CHECK = Definition(
    name="ocr_confidence",
    metric="ocr_confidence",
    label="OCR confidence (lowest chunk)",
    limit=Limit("min_ocr_confidence", 0.7),
    facts=OcrFacts,
    measure=measure,
    value=value,
    total=total,
    faults_of=faults_of,
    formats=frozenset({"pdf", "image", "docx", "pptx"}),  # DOCX, PPTX: their images, when read by OCR
    stored="ocr_confidences",
)
