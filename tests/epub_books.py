"""Small EPUB files for the tests, written with zipfile: chapters given as their <body>'s XHTML."""

from __future__ import annotations

import io
import zipfile

CONTAINER = (
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
    '<rootfiles><rootfile full-path="{opf}" media-type="application/oebps-package+xml"/></rootfiles></container>'
)
XHTML = (
    '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" '
    'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>{name}</title></head><body>{body}</body></html>'
)


def opf(title: str | None, items: list[tuple[str, str, str, str]], spine: list[str], extra: str = "") -> str:
    """items: (id, href, media type, properties)."""
    meta = f"<dc:title>{title}</dc:title>" if title else ""
    manifest = "".join(
        f'<item id="{i}" href="{href}" media-type="{mt}"' + (f' properties="{props}"' if props else "") + "/>"
        for i, href, mt, props in items
    )
    refs = "".join(f'<itemref idref="{i}"/>' for i in spine)
    return (
        f'<?xml version="1.0"?>{extra}<package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">{meta}<dc:language>en</dc:language></metadata>'
        f"<manifest>{manifest}</manifest><spine>{refs}</spine></package>"
    )


def epub(
    chapters: dict[str, str],
    title: str | None = "A Book",
    spine: list[str] | None = None,
    nav: str | None = None,
    files: dict[str, bytes | str] | None = None,
    opf_extra: str = "",
    skip: tuple[str, ...] = (),
) -> bytes:
    """chapters: file name (under OEBPS/) → body XHTML; spine: their order (default: as given);
    nav: a navigation document's body, first in the spine; files: more entries, or ones replacing
    these; skip: entries left out of the zip."""
    items = [(f"c{n}", name, "application/xhtml+xml", "") for n, name in enumerate(chapters)]
    order = [f"c{list(chapters).index(name)}" for name in (spine or list(chapters))]
    entries: dict[str, bytes | str] = {
        "mimetype": "application/epub+zip",
        "META-INF/container.xml": CONTAINER.format(opf="OEBPS/content.opf"),
    }
    if nav is not None:
        items.append(("nav", "nav.xhtml", "application/xhtml+xml", "nav"))
        order.insert(0, "nav")
        entries["OEBPS/nav.xhtml"] = XHTML.format(name="nav", body=nav)
    entries["OEBPS/content.opf"] = opf(title, items, order, opf_extra)
    for name, body in chapters.items():
        entries[f"OEBPS/{name}"] = XHTML.format(name=name, body=body)
    entries.update(files or {})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            if name not in skip:
                info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
    return out.getvalue()
