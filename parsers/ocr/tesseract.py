"""Tesseract through tesserocr (in-process: 5x the pages per CPU-second of pytesseract's child
process, benchmarks/suites/ocr). tesserocr's wheel bundles libtesseract; the language model is
``eng.traineddata``, from Debian's ``tesseract-ocr-eng`` (or a folder given as ``ocr_tessdata``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsegate.parsers.ocr import INSTALL, OcrUnavailable, TextLine, Word

if TYPE_CHECKING:
    from PIL.Image import Image

# Where Debian (bookworm: 5, bullseye: 4.00) and a source build put the models.
TESSDATA = (
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
    "/usr/local/share/tessdata",
)
LANGUAGE = "eng"


def find_tessdata(given: str | None) -> str:
    for folder in (given,) if given else TESSDATA:
        if (Path(folder) / f"{LANGUAGE}.traineddata").is_file():
            return str(folder)
    where = given or ", ".join(TESSDATA)
    raise OcrUnavailable(
        f"Tesseract's English model ({LANGUAGE}.traineddata) is not in {where}: "
        "apt-get install tesseract-ocr-eng (or set PARSEGATE_OCR_TESSDATA)"
    )


@dataclass
class Tesseract:
    api: Any
    name: str

    @classmethod
    def load(cls, tessdata: str | None) -> Tesseract:
        try:
            import tesserocr
        except ImportError:
            raise OcrUnavailable(f"OCR needs tesserocr, which is not installed: {INSTALL}") from None
        folder = find_tessdata(tessdata)
        api = tesserocr.PyTessBaseAPI(path=folder + "/", lang=LANGUAGE, psm=tesserocr.PSM.AUTO)
        version = str(tesserocr.tesseract_version()).split()[1]
        return cls(api, f"tesseract {version}")

    def read(self, image: Image) -> list[TextLine]:
        from tesserocr import RIL, iterate_level

        self.api.SetImage(image)
        self.api.Recognize()
        lines: list[TextLine] = []
        iterator = self.api.GetIterator()
        if iterator is None:  # a blank page
            return lines
        for word in iterate_level(iterator, RIL.WORD):
            if word.Empty(RIL.WORD):  # a page with no word yields one empty (its row attributes crash)
                continue
            if not lines or word.IsAtBeginningOf(RIL.TEXTLINE):
                row = word.RowAttributes()
                lines.append(TextLine(height=float(row["row_height"])))
            text = (word.GetUTF8Text(RIL.WORD) or "").strip()
            box = word.BoundingBox(RIL.WORD)
            if text and box is not None:
                x0, top, x1, bottom = box
                lines[-1].words.append(Word(text, x0, top, x1, bottom, round(word.Confidence(RIL.WORD) / 100, 4)))
        return [line for line in lines if line.words]
