"""An Office or HTML file as docling's own text export reads it, for the gate.

The gate converts the source bytes with docling's format backend itself (no torch, as the
parser does) and serializes the result with docling's plain-text serializer: the body text in
docling's reading order, tables as cells, chart data as tables. Our parser's mapping of docling
items onto a Document (what it keeps, what it skips, the headings it makes up for slides) plays
no part. Generated list numbers and picture classifications are left out: they are docling's
words, not the document's.
"""

from __future__ import annotations

import io
import json
from pathlib import PurePosixPath
from typing import Any

BACKENDS = {"docx": "DOCX", "pptx": "PPTX", "xlsx": "XLSX", "html": "HTML"}


def docling_text(data: bytes, fmt: str, doc_id: str) -> tuple[str, str] | None:
    """docling's plain-text export of the file's body, and of everything docling holds (the
    furniture layer, and the names of its groups: sheet names); None when docling cannot read
    the file here."""
    ddoc = _docling_json(data) if fmt == "docling" else _convert(data, fmt, doc_id)
    if ddoc is None:
        return None
    from docling_core.transforms.serializer.markdown import OrigListItemMarkerMode
    from docling_core.transforms.serializer.plain_text import PlainTextDocSerializer, PlainTextParams
    from docling_core.types.doc.common.content_layer import ContentLayer

    def export(layers: set[ContentLayer]) -> str:
        params = PlainTextParams(
            layers=layers,
            orig_list_item_marker_mode=OrigListItemMarkerMode.NEVER,
            ensure_valid_list_item_marker=False,
            include_picture_classification=False,
        )
        return str(PlainTextDocSerializer(doc=ddoc, params=params).serialize().text)

    names = [str(group.name) for group in ddoc.groups if getattr(group, "name", None)]
    body = export({ContentLayer.BODY})
    # The other layers exported alone, after the body: one serialization of the body, not two.
    rest = export(set(ContentLayer) - {ContentLayer.BODY})
    return body, "\n".join([body, rest, *names] if rest else [body, *names])


def _convert(data: bytes, fmt: str, doc_id: str) -> Any:
    if fmt not in BACKENDS:
        return None
    from docling.backend.html_backend import HTMLDocumentBackend
    from docling.backend.msexcel_backend import MsExcelDocumentBackend
    from docling.backend.mspowerpoint_backend import MsPowerpointDocumentBackend
    from docling.backend.msword_backend import MsWordDocumentBackend
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.document import InputDocument

    backend = {
        "docx": MsWordDocumentBackend,
        "pptx": MsPowerpointDocumentBackend,
        "xlsx": MsExcelDocumentBackend,
        "html": HTMLDocumentBackend,
    }[fmt]
    source = InputDocument(
        path_or_stream=io.BytesIO(data),
        format=InputFormat[BACKENDS[fmt]],
        backend=backend,  # type: ignore[arg-type]
        filename=PurePosixPath(doc_id).name,
    )
    if not source.valid:
        return None
    try:
        return source._backend.convert()  # type: ignore[attr-defined]
    except RecursionError:
        # docling walks the HTML tree recursively; a page nested deeper than Python's stack
        # (which our own parser reads iteratively) has no docling view, and the document is not
        # failed for docling's limit (reference.py reads a web page with libxml2 instead).
        return None
    except Exception:
        if fmt != "html":
            raise
        # For a web page docling is only the gate's second reading (our parser reads it with
        # lxml); a page that breaks docling's backend (a KeyError on a mangled table, seen by
        # fuzzing) is checked against libxml2's reading alone, which the report names.
        return None


def _docling_json(data: bytes) -> Any:
    from docling_core.types.doc.document import DoclingDocument

    return DoclingDocument.model_validate(json.loads(data))
