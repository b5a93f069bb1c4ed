"""The shared document model: what every parser produces and every chunker reads.

Nothing here imports a parser library. Offsets are character offsets into ``Document.text``, the
one canonical text of a document. ``document`` (Document, its errors and warnings), ``element``
(Element), ``kinds`` (element kinds and the typed data each carries) and ``spans`` (line starts,
trimming, a text built piece by piece); the names below are the model's public face.
"""

from parsegate.parsers.model.document import Document, ParseError, ParseWarning, content_version
from parsegate.parsers.model.element import Element
from parsegate.parsers.model.kinds import (
    BLOCK_KINDS,
    CONTAINER_KINDS,
    KIND_DATA,
    NON_BODY_KINDS,
    CodeData,
    Data,
    FurnitureData,
    ImageData,
    ItemData,
    ListData,
    OutputData,
    RowData,
    TableData,
    TextData,
    TurnData,
    data_class,
)
from parsegate.parsers.model.spans import TextBuilder, byte_line_starts, line_starts, trim_span

__all__ = [
    "BLOCK_KINDS",
    "CONTAINER_KINDS",
    "KIND_DATA",
    "NON_BODY_KINDS",
    "CodeData",
    "Data",
    "Document",
    "Element",
    "FurnitureData",
    "ImageData",
    "ItemData",
    "ListData",
    "OutputData",
    "ParseError",
    "ParseWarning",
    "RowData",
    "TableData",
    "TextBuilder",
    "TextData",
    "TurnData",
    "byte_line_starts",
    "content_version",
    "data_class",
    "line_starts",
    "trim_span",
]
