"""Checks before any backend reads an Office or HTML file: a corrupt or oversized zip (a zip bomb
is refused from its directory, before anything is inflated), XML that declares a DTD or entities
(refused, never expanded), and a file over its size limit.
"""

from __future__ import annotations

import io
import zipfile

from parsegate.parsers.model import ParseError


def check_zip(data: bytes, fmt: str, max_inflated_mb: float) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ParseError(
            "corrupt", f"not a valid .{fmt} file (an OOXML file is a zip archive; this one is not)"
        ) from None
    most = int(max_inflated_mb * 1_000_000)
    inflated = sum(info.file_size for info in archive.infolist())
    if inflated > most:
        raise ParseError(
            "zip_bomb",
            f"would inflate to {inflated / 1e6:.0f} MB, over the {most / 1e6:.0f} MB limit "
            "(PARSEGATE_MAX_INFLATED_MB); refused before inflating",
        )
    for info in archive.infolist():
        if info.filename.endswith((".xml", ".rels")):
            head = archive.open(info).read(4096)
            if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
                raise ParseError(
                    "unsafe_xml",
                    f"{info.filename} declares a DTD or entities (possible XXE); refused, nothing fetched or expanded",
                )


def check_html(data: bytes, max_html_mb: float) -> None:
    most = int(max_html_mb * 1_000_000)
    if len(data) > most:
        raise ParseError(
            "too_large",
            f"HTML page of {len(data) / 1e6:.1f} MB is over the {most / 1e6:.0f} MB limit (PARSEGATE_MAX_HTML_MB)",
        )
