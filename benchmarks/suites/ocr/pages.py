"""The rasterised set: every page of the golden PDFs (their text is known: golden_docs/pdf/generate.py
writes it) as images, clean at 300 dpi and 150 dpi, and noisy at 150 dpi (Gaussian noise, a 0.6°
skew, a JPEG pass at quality 60), with each page's known words from PDFium's text layer."""

from __future__ import annotations

import io
import random
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageFilter

from benchmarks import harness

GOLDEN = harness.ROOT / "golden_docs" / "pdf"
VARIANTS = ("clean-300", "clean-150", "noisy-150")
WORD = re.compile(r"\w+")


@dataclass
class Page:
    source: str  # golden case and page number
    variant: str
    image: Image.Image
    known: str  # the born-digital page's text
    dpi: int = 300


def known_pages(pdf: Path) -> list[str]:
    import pypdfium2

    doc = pypdfium2.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def rasterise(pdf: Path, dpi: int) -> list[Image.Image]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf), f"{tmp}/p"], check=True)
        return [Image.open(p).copy() for p in sorted(Path(tmp).glob("p-*.png"))]


def noisy(image: Image.Image, seed: int) -> Image.Image:
    """Gaussian noise (sigma 18 of 255), a 0.6° skew and a JPEG pass at quality 60: a poor scan."""
    rng = random.Random(seed)
    noise = Image.effect_noise(image.size, 18).convert("L")
    blended = Image.blend(image.convert("L"), noise, 0.15).filter(ImageFilter.GaussianBlur(0.4))
    skewed = blended.rotate(rng.choice((-0.6, 0.6)), resample=Image.Resampling.BICUBIC, fillcolor=255, expand=False)
    out = io.BytesIO()
    skewed.save(out, "JPEG", quality=60)
    return Image.open(io.BytesIO(out.getvalue())).copy()


def rasterised_set(variants: tuple[str, ...] = VARIANTS) -> list[Page]:
    pages: list[Page] = []
    for pdf in sorted(p for p in GOLDEN.glob("*/input.pdf") if not p.parent.name.startswith("scanned-")):
        known = known_pages(pdf)
        for variant in variants:
            kind, dpi = variant.split("-")
            images = rasterise(pdf, int(dpi))
            for n, (image, text) in enumerate(zip(images, known, strict=True), start=1):
                if kind == "noisy":
                    image = noisy(image, seed=n)
                pages.append(Page(f"{pdf.parent.name}#{n}", variant, image, text, int(dpi)))
    return pages


def words(text: str) -> list[str]:
    return WORD.findall(text)


def wer(known: str, read: str) -> tuple[int, int]:
    """Word edits (substitutions, insertions, deletions) and the known word count."""
    from rapidfuzz.distance import Levenshtein

    ref, hyp = words(known), words(read)
    return Levenshtein.distance(ref, hyp), len(ref)


def bag_errors(known: str, read: str) -> tuple[int, int]:
    """Word errors with order ignored (a page read in another order loses nothing here)."""
    from collections import Counter

    ref, hyp = Counter(words(known)), Counter(words(read))
    missing, extra = sum((ref - hyp).values()), sum((hyp - ref).values())
    return max(missing, extra), sum(ref.values())
