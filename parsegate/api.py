"""parsegate's Python API: ``parse``, ``chunk`` and ``run``, re-exported by ``parsegate``.

Libraries are imported on first use, so ``import parsegate`` stays cheap. Document warnings
are logged to ``logging.getLogger("parsegate")``; nothing here prints.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from parsegate.log import log_warnings

if TYPE_CHECKING:
    from parsers.model import Document


def parse(
    source: str | os.PathLike[str] | bytes,
    *,
    format: str | None = None,
    doc_id: str | None = None,
) -> Document:
    """Parse one document into elements with exact offsets into ``Document.text``.

    ``source`` is a path (``str`` or ``Path``) or the document's bytes (for text you hold as a
    ``str``, pass ``text.encode()``). ``format`` names the format by a suffix (``"md"``,
    ``"pdf"``, ``".docx"``…); by default a path's suffix, then the content, decides; for bytes,
    ``doc_id``'s suffix, then the content. ``doc_id`` defaults to the file's name (``"document"``
    for bytes). Raises ``parsers.model.ParseError`` (``.code``, ``.message``) for a file that
    cannot be read or parsed. A PDF password is read from ``PARSEGATE_PDF_PASSWORD``.
    """
    from parsers.registry import parse_data, read_regular_file

    if isinstance(source, bytes):
        data, name = source, doc_id or "document"
    else:
        path = Path(source)
        data, name = read_regular_file(path), path.name
    hint = Path(name)
    if format:
        hint = Path(f"{hint.stem or 'document'}.{format.lower().lstrip('.')}")
    doc = parse_data(data, hint, doc_id or name)
    log_warnings(doc)
    return doc
