"""The gate's OCR recall (quality_gates/checks/ocr_recall.py) on the rasterised set: what an
honest OCR page gets, and what a page whose parser lost every other line gets, per setting and
gram size; and the second reading's seconds per page. This chose ``GRAM`` and ``min_ocr_recall``.

Each golden PDF's pages (pages.py: clean 300 dpi, clean 150 dpi, noisy 150 dpi) as an image-only
PDF, parsed by parsegate with ``--parser-engine`` (tesseract, the default) and chunked (structural,
256 tokens); the gate reads the pages again with the other engine. "broken": the same parse with
the OCR engine's every other line dropped (the parser losing half the page; a page of one line
loses nothing and is left out of "broken").

    python -m benchmarks.suites.ocr.second_reading [--parser-engine tesseract] [--variants ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from unittest import mock

from benchmarks.harness import cpu_seconds
from benchmarks.suites.ocr.__main__ import _scans
from benchmarks.suites.ocr.pages import VARIANTS, rasterised_set

SIZES = (3, 4, 5)


def _per_page(doc, chunks, reading, n):  # type: ignore[no-untyped-def]
    from parsegate.quality_gates.checks.ocr_recall import by_page

    out = {}
    for page, lines in reading.pages.items():
        total, found = by_page(None, doc, chunks, {page: lines}, n)
        if total:
            out[page] = found / total
    return out


def _words(doc, page: int) -> int:  # type: ignore[no-untyped-def]
    """Words of the page's text in the parse (the halved parse has fewer where it lost a line)."""
    return sum(len(doc.text[e.start : e.end].split()) for e in doc.elements if e.page == page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--parser-engine", default="tesseract")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.parsers import pdf
    from parsegate.parsers.ocr import Reading
    from parsegate.parsers.options import ParseOptions
    from parsegate.parsers.pdf import ocr as pdf_ocr
    from parsegate.quality_gates.references import ocr
    from parsegate.quality_gates.references.pdf import open_pdf

    options = ParseOptions(ocr_engine=args.parser_engine)
    second = "rapidocr" if args.parser_engine == "tesseract" else "tesseract"
    ocr.reader(second)  # loaded outside the clock
    chunker = Chunker(ChunkConfig(max_tokens=256))
    real_read = pdf_ocr.read_image

    def halved(image, opts):  # type: ignore[no-untyped-def]
        reading = real_read(image, opts)
        return Reading(reading.lines[::2], reading.engine)

    variants = tuple(args.variants.split(","))
    for variant in variants:
        scans = _scans(rasterised_set((variant,)))
        honest: dict[int, list[float]] = {n: [] for n in SIZES}
        broken: dict[int, list[float]] = {n: [] for n in SIZES}
        cpu = wall = 0.0
        pages = 0
        for (case, _), (data, _count) in scans.items():
            doc = pdf.parse(data, case, options)
            chunks = chunker.chunk(doc)
            with mock.patch.object(pdf_ocr, "read_image", halved):
                bad = pdf.parse(data, case, options)
            bad_chunks = chunker.chunk(bad)
            source = open_pdf(data)
            assert source is not None
            try:
                scanned = ocr.scanned_pages(source)
                started, clock = cpu_seconds(), time.perf_counter()
                reading = ocr.read_pdf(source, scanned, second)
                cpu, wall = cpu + cpu_seconds() - started, wall + time.perf_counter() - clock
                pages += len(scanned)
            finally:
                source.close()
            for n in SIZES:
                good = _per_page(doc, chunks, reading, n)
                worse = _per_page(bad, bad_chunks, reading, n)
                honest[n] += good.values()
                # a page the halving left whole (one line) lost nothing: not a broken page
                broken[n] += [v for page, v in worse.items() if _words(bad, page) < _words(doc, page)]
                if n == 4:
                    print(f"  {case:28} honest {' '.join(f'{v:.3f}' for v in good.values())}  "
                          f"broken {' '.join(f'{v:.3f}' for v in worse.values())}", flush=True)  # fmt: skip
        for n in SIZES:
            h, b = honest[n], broken[n]
            print(f"{args.parser_engine}->{second} {variant:10} gram {n}: honest min {min(h):.3f} median "
                  f"{statistics.median(h):.3f}; broken max {max(b):.3f} median {statistics.median(b):.3f}",
                  flush=True)  # fmt: skip
        print(f"{variant}: second reading {pages} pages, {cpu / pages:.2f} CPU-s/page, {wall / pages:.2f} s/page",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
