"""RapidOCR (rapidocr-onnxruntime: PP-OCR's detection and recognition models inside the wheel,
run by onnxruntime). It reads lines; a line's words get its confidence and boxes cut from the
line's box by their share of its characters."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from parsegate.parsers.ocr import INSTALL, OcrUnavailable, TextLine, Word

if TYPE_CHECKING:
    from PIL.Image import Image

_SIZE = 0.75  # type size to a detected line's box height (the box holds descenders and a margin)


@dataclass
class Rapid:
    engine: Any
    name: str

    @classmethod
    def load(cls) -> Rapid:
        try:
            from rapidocr_onnxruntime import RapidOCR
        except ImportError:
            raise OcrUnavailable(
                f"OCR with RapidOCR needs rapidocr-onnxruntime, which is not installed: {INSTALL} "
                "and pip install rapidocr-onnxruntime"
            ) from None
        return cls(RapidOCR(), f"rapidocr-onnxruntime {version('rapidocr-onnxruntime')}")

    def read(self, image: Image) -> list[TextLine]:
        import numpy as np

        found, _ = self.engine(np.array(image.convert("RGB")))
        lines = []
        for points, text, score in found or []:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            lines.append(_line(str(text), min(xs), min(ys), max(xs), max(ys), float(score)))
        return [line for line in lines if line.words]


def _line(text: str, x0: float, top: float, x1: float, bottom: float, score: float) -> TextLine:
    line = TextLine(height=(bottom - top) * _SIZE)
    per_char = (x1 - x0) / max(len(text), 1)
    at = 0
    for word in text.split(" "):
        if word:
            left = x0 + at * per_char
            line.words.append(Word(word, left, top, left + len(word) * per_char, bottom, round(score, 4)))
        at += len(word) + 1
    return line
