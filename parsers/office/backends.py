"""docling's declarative format backends, imported once per process and only when an Office
file is met (importing them costs seconds), and run without torch: ``InputDocument`` +
``backend.convert()``, never ``docling.document_converter``.

docling strips each run of a paragraph it splits by formatting ("Customers may request a",
"full refund", "within"), so the spacing between them is lost. For DOCX the Word backend is
subclassed to note, for each such paragraph, the whitespace the source has between its pieces;
docling's output itself is left exactly as docling makes it. The Word and PowerPoint backends are
also subclassed to note what the source says of each picture they place (its alt text, whether it
is decorative, its image format: images.py), which docling does not keep.
"""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import PurePosixPath
from typing import Any

from parsegate.parsers.model import ParseError
from parsegate.parsers.office.images import Picture, docx_picture, pptx_picture, vml_picture

_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
_RID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


@cache
def _backends() -> dict[str, tuple[Any, Any]]:
    from docling.backend.msexcel_backend import MsExcelDocumentBackend
    from docling.backend.mspowerpoint_backend import MsPowerpointDocumentBackend
    from docling.datamodel.base_models import InputFormat

    return {
        "docx": (InputFormat.DOCX, _spacing_word_backend()),
        "pptx": (InputFormat.PPTX, _picture_slides_backend(MsPowerpointDocumentBackend)),
        "xlsx": (InputFormat.XLSX, MsExcelDocumentBackend),
    }


def _spacing_word_backend() -> Any:
    from docling.backend.msword_backend import MsWordDocumentBackend

    class SpacingWordBackend(MsWordDocumentBackend):
        """docling's Word backend, noting the source's whitespace between a paragraph's pieces,
        and reading a "heading" style with no level as the paragraph it is."""

        gaps: dict[tuple[str, ...], list[str]]
        pictures: dict[str, Picture]

        def _get_label_and_level(self, paragraph: Any) -> tuple[str, int | None]:
            # docling takes every style whose id holds "Heading" for a section heading. One with
            # no level (no outline level, no number in its name) is not: LibreOffice writes an
            # HTML definition term (<dt>) as "List Heading" and a table's header cell as "Table
            # Heading"; as headings, a manual's contents list became a hundred empty sections.
            label, level = super()._get_label_and_level(paragraph)
            if level is None and "Heading" in label:
                return "Normal", None
            return label, level

        def _get_paragraph_elements(self, paragraph: Any) -> Any:
            pieces = super()._get_paragraph_elements(paragraph)
            if len(pieces) > 1:
                texts = tuple(str(text) for text, _, _ in pieces)
                if texts not in self.gaps:
                    self.gaps[texts] = source_gaps(self._get_paragraph_text(paragraph), texts)
            return pieces

        def _handle_pictures(self, drawing_blip: Any, doc: Any) -> Any:
            refs = super()._handle_pictures(drawing_blip, doc)
            for blip, ref in zip(drawing_blip, refs, strict=False):
                data = self._get_image_from_relationship(blip, _EMBED, "image")
                self.pictures[ref.cref] = docx_picture(blip, data)
            return refs

        def _handle_vml_pictures(self, vml_imagedatas: Any, doc: Any) -> Any:
            refs = super()._handle_vml_pictures(vml_imagedatas, doc)
            for imagedata, ref in zip(vml_imagedatas, refs, strict=False):
                data = self._get_image_from_relationship(imagedata, _RID, "VML image")
                self.pictures[ref.cref] = vml_picture(imagedata, data)
            return refs

    SpacingWordBackend.gaps = {}
    SpacingWordBackend.pictures = {}
    return SpacingWordBackend


def _picture_slides_backend(base: Any) -> Any:
    class PictureSlidesBackend(base):  # type: ignore[misc,valid-type]
        """docling's PowerPoint backend, noting what the source says of each picture it places."""

        pictures: dict[str, Picture]

        def _handle_pictures(  # type: ignore[no-untyped-def]
            self, shape, parent_slide, slide_ind, doc, slide_size, fill_rid=None
        ):
            before = len(doc.pictures)
            super()._handle_pictures(shape, parent_slide, slide_ind, doc, slide_size, fill_rid=fill_rid)
            if len(doc.pictures) > before:
                try:
                    image = shape.image if fill_rid is None else shape.part.related_part(fill_rid).image
                    data = image.blob
                except Exception:  # docling placed it; its bytes are only for its format
                    data = None
                self.pictures[doc.pictures[-1].self_ref] = pptx_picture(shape._element, data)

    PictureSlidesBackend.pictures = {}
    return PictureSlidesBackend


def source_gaps(raw: str, pieces: tuple[str, ...]) -> list[str]:
    """The text between consecutive stripped pieces of ``raw`` (found in order), or " " where a
    piece cannot be found (docling rewrote it)."""
    gaps: list[str] = []
    cursor = 0
    for n, piece in enumerate(pieces):
        at = raw.find(piece, cursor) if piece else -1
        if n:
            gap = raw[cursor:at] if at >= 0 else " "
            gaps.append(gap if not gap.strip() else " ")
        if at >= 0:
            cursor = at + len(piece)
    return gaps


def convert(data: bytes, doc_id: str, fmt: str) -> tuple[Any, dict[tuple[str, ...], list[str]], dict[str, Picture]]:
    """docling's DoclingDocument for the file, the source spacing it noted (DOCX), and what the
    source says of each picture (DOCX, PPTX), by the picture's ``self_ref``."""
    from docling.datamodel.document import InputDocument

    input_format, backend = _backends()[fmt]
    name = PurePosixPath(doc_id).name
    try:
        source = InputDocument(path_or_stream=io.BytesIO(data), format=input_format, backend=backend, filename=name)
        if not source.valid:
            raise ParseError("corrupt", f"docling could not open this .{fmt} file")
        instance: Any = source._backend
        if fmt == "docx":
            instance.gaps = {}
        instance.pictures = {}
        ddoc = instance.convert()
    except (ParseError, MemoryError):
        raise  # out of memory is the run's limit, not a property of the file (the worker says "memory")
    except Exception as exc:  # the backends raise whatever their libraries raise
        raise ParseError("corrupt", f"docling could not read this .{fmt} file: {type(exc).__name__}: {exc}") from None
    return ddoc, dict(getattr(instance, "gaps", {})), dict(instance.pictures)


def from_json(data: bytes) -> Any:
    """A DoclingDocument written by docling elsewhere."""
    from docling_core.types.doc.document import DoclingDocument

    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise ParseError("invalid_json", "not valid JSON") from None
    if not isinstance(raw, dict) or raw.get("schema_name") != "DoclingDocument":
        raise ParseError("unsupported", "a JSON file that is not a DoclingDocument (no schema_name 'DoclingDocument')")
    try:
        return DoclingDocument.model_validate(raw)
    except Exception as exc:  # pydantic's ValidationError and whatever a validator raises
        raise ParseError("invalid_docling", f"not a valid DoclingDocument: {str(exc)[:300]}") from None
