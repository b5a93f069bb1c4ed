"""The engines' own readings, before parsegate: each engine's plain text of every rasterised page
(its own line order), word error rate against the page's known text and pages per CPU-second.
This chose the default engine (see benchmarks/README.md, suite ``ocr``).

    python -m benchmarks.suites.ocr.engines [--engines tesserocr,pytesseract,rapidocr]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from benchmarks.harness import cpu_seconds
from benchmarks.suites.ocr.pages import VARIANTS, Page, bag_errors, rasterised_set, wer

TESSDATA = "/usr/share/tesseract-ocr/5/tessdata/"


def tesserocr_reader() -> Callable[[Page], str]:
    import tesserocr

    api = tesserocr.PyTessBaseAPI(path=TESSDATA, lang="eng")

    def read(page: Page) -> str:
        api.SetImage(page.image)
        return str(api.GetUTF8Text())

    return read


def pytesseract_reader() -> Callable[[Page], str]:
    import pytesseract

    return lambda page: str(pytesseract.image_to_string(page.image, lang="eng"))


def rapidocr_reader() -> Callable[[Page], str]:
    import numpy as np
    from rapidocr_onnxruntime import RapidOCR

    engine = RapidOCR()

    def read(page: Page) -> str:
        found, _ = engine(np.array(page.image.convert("RGB")))
        return "\n".join(str(r[1]) for r in found or [])

    return read


READERS = {"tesserocr": tesserocr_reader, "pytesseract": pytesseract_reader, "rapidocr": rapidocr_reader}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default=",".join(READERS))
    args = parser.parse_args()
    pages = rasterised_set()
    for name in args.engines.split(","):
        read = READERS[name]()
        read(pages[0])  # loaded outside the clock
        for variant in VARIANTS:
            chosen = [p for p in pages if p.variant == variant]
            cpu, wall = cpu_seconds(), time.perf_counter()
            edits = known = unordered = 0
            for page in chosen:
                text = read(page)
                e, n = wer(page.known, text)
                edits, known, unordered = edits + e, known + n, unordered + bag_errors(page.known, text)[0]
            cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
            print(
                f"{name:12} {variant:10} pages {len(chosen):3}  WER {edits / known:.4f}  "
                f"unordered {unordered / known:.4f}  pages/CPU-s {len(chosen) / cpu:.3f}  "
                f"pages/s {len(chosen) / wall:.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
