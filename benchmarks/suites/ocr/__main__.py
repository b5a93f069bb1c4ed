"""ocr: scanned pages read back through parsegate, per OCR engine.

The golden PDFs (their text known: golden_docs/pdf/generate.py) rasterised with ``pdftoppm`` at
300 and 150 dpi, and a noisy 150 dpi variant (noise, skew, JPEG: pages.py), rebuilt as image-only
PDFs by Pillow, one per document and variant, parsed by parsegate's PDF parser with each engine.
Against the born-digital document's own parse:

- WER: word edits over the known words, in reading order (parsegate's order of both);
- heading recall: the born-digital headings found as headings, same text;
- pages/CPU-s: pages over the CPU seconds of the parses (this process and its threads);
- chunk confidence: the lowest and the median of the chunks' OCR confidence (structural, 256
  tokens), and how many fall under the gate's default min_ocr_confidence.

    python -m benchmarks.suites.ocr [--engines tesseract,rapidocr] [--variants clean-300,...]
"""

from __future__ import annotations

import argparse
import io
import statistics
from collections import defaultdict

from benchmarks import harness
from benchmarks.harness import Report, cpu_seconds
from benchmarks.suites.ocr.pages import GOLDEN, VARIANTS, Page, rasterised_set, wer


def _scans(pages: list[Page]) -> dict[tuple[str, str], tuple[bytes, int]]:
    """(case, variant) → an image-only PDF of its pages, and its page count."""
    grouped: dict[tuple[str, str], list[Page]] = defaultdict(list)
    for page in pages:
        grouped[(page.source.split("#")[0], page.variant)].append(page)
    out = {}
    for key, group in grouped.items():
        buffer = io.BytesIO()
        images = [p.image.convert("L") for p in group]
        images[0].save(buffer, "PDF", resolution=group[0].dpi, save_all=True, append_images=images[1:])
        out[key] = (buffer.getvalue(), len(group))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default="tesseract,rapidocr")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    from parsegate.chunkers import ChunkConfig, Chunker
    from parsegate.parsers import pdf
    from parsegate.parsers.options import ParseOptions
    from parsegate.quality_gates.thresholds import Thresholds

    variants = tuple(args.variants.split(","))
    scans = _scans(rasterised_set(variants))
    born = {case: pdf.parse((GOLDEN / case / "input.pdf").read_bytes(), case) for case, _ in scans}
    chunker = Chunker(ChunkConfig(max_tokens=256))
    floor = Thresholds().min_ocr_confidence
    report = Report("ocr")
    for engine in args.engines.split(","):
        options = ParseOptions(ocr_engine=engine)
        pdf.parse(next(iter(scans.values()))[0], "warm-up.pdf", options)  # the engine loaded outside the clock
        for variant in variants:
            edits = known = pages = found = headings = 0
            cpu = 0.0
            confidences: list[float] = []
            for (case, v), (data, count) in scans.items():
                if v != variant:
                    continue
                started = cpu_seconds()
                doc = pdf.parse(data, case, options)
                cpu += cpu_seconds() - started
                e, n = wer(born[case].text, doc.text)
                edits, known, pages = edits + e, known + n, pages + count
                expected = {born[case].text[h.start : h.end] for h in born[case].elements if h.kind == "heading"}
                got = {doc.text[h.start : h.end] for h in doc.elements if h.kind == "heading"}
                headings, found = headings + len(expected), found + len(expected & got)
                confidences += [c.metadata["ocr"].get("confidence", 0.0) for c in chunker.chunk(doc)]
            corpus = f"golden pdf {variant} ({pages} pages)"
            statistic = "parsegate PDF parser, OCR'd image-only PDFs, against the born-digital parse"
            report.add(engine, corpus, "wer", round(edits / known, 4), "word edits / known words", statistic=statistic)
            report.add(engine, corpus, "heading_recall", round(found / headings, 3), "share", statistic=statistic)
            report.add(engine, corpus, "pages_per_cpu_s", round(pages / cpu, 3), "pages/CPU-s", statistic=statistic)
            report.add(engine, corpus, "chunk_confidence_min", min(confidences), "0-1")
            report.add(engine, corpus, "chunk_confidence_median", round(statistics.median(confidences), 3), "0-1")
            report.add(engine, corpus, "chunks_under_gate", sum(c < floor for c in confidences), f"chunks < {floor}")
            print(f"{engine:10} {variant:10} WER {edits / known:.4f}  headings {found}/{headings}  "
                  f"pages/CPU-s {pages / cpu:.3f}  chunk conf min {min(confidences):.3f}", flush=True)  # fmt: skip
    report.details.update(
        engines=harness.versions("tesserocr", "rapidocr-onnxruntime", "pypdfium2", "pillow"),
        variants={"clean-300": "pdftoppm -r 300 -gray", "clean-150": "pdftoppm -r 150 -gray",
                  "noisy-150": "-r 150, Gaussian noise sigma 18 blended 15%, blur 0.4, skew 0.6 deg, JPEG q60"},
        ocr_dpi=ParseOptions().ocr_dpi,
    )  # fmt: skip
    report.print()
    print("wrote", report.write(args.out and __import__("pathlib").Path(args.out)))


if __name__ == "__main__":
    main()
