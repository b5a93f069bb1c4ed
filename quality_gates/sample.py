"""Which documents get the gate's expensive references (``--gate-sample``).

An independent reading of the source costs what it costs: decoding a text file again, PDFium's
text layer and libxml2's reading of a web page are cheap beside the parse; docling's export of an
Office file costs about what the parse does, and of a web page about 18 times the parse and chunk
(``benchmarks/suites/gate_sample``). ``GateSample`` takes the expensive references (docling's) on
a seeded sample of the documents only, and the cheap ones on every document:

- a document in the sample is measured as in a full run;
- a web page outside it is measured against libxml2's reading alone (still independent of the
  parser's walk, and every check is measured);
- an Office document outside it has no reference: localization and extraction recall are reported
  *not measured* (never passed), and every other check is measured;
- a document with pages read by OCR outside it gets no second OCR reading (references/ocr.py:
  RapidOCR costs about 6 CPU-seconds a page): its OCR recall is reported *not measured*.

Whether a document is in the sample depends on its id and the seed only (a hash), so it is the same
in every run, with any number of workers or engine, and a larger fraction takes in every document a
smaller one did.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from parsegate.parsers.formats import spec

_SCALE = 2**64
# The formats with an expensive reference: those docling's export reads (Office and web forms read
# from the source bytes, not the ones LibreOffice converts first). Others are measured whole always.
EXPENSIVE_FORMATS = frozenset(form.name for form in spec("office").forms if form.converted_to is None)


@dataclass(frozen=True)
class GateSample:
    fraction: float = 1.0  # of the documents that get the expensive references (1: every one)
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.fraction <= 1.0:
            raise ValueError(f"the gate's sample is a fraction from 0 to 1, got {self.fraction}")

    @property
    def full(self) -> bool:
        return self.fraction >= 1.0

    def sampled(self, doc_id: str) -> bool:
        """Whether the document gets the expensive references: the first 8 bytes of
        sha256(seed, doc_id), as a number in [0, 1), below the fraction."""
        if self.full:
            return True
        key = f"{self.seed}\0{doc_id}".encode("utf-8", "surrogatepass")
        return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") < self.fraction * _SCALE

    def to_dict(self) -> dict[str, Any]:
        return {"fraction": self.fraction, "seed": self.seed}


FULL = GateSample()
