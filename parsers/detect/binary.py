"""Binary containers told by their first bytes and, for zip and OLE2, by the members they hold:
PDF (``%PDF-`` within the first kilobyte, as PDF readers allow), Office Open XML and OpenDocument
packages (zip), Word, Excel and PowerPoint 97-2003 files (OLE2 compound files, by their streams:
olefile, with the office extra), RTF, and the images OCR reads (PNG, JPEG, TIFF: their signatures).
Each answer says what it went by."""

from __future__ import annotations

import io
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    import zipfile

_PDF = b"%PDF-"
_ZIP = b"PK\x03\x04"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_RTF = b"{\\rtf"
# The part each OOXML package's [Content_Types].xml names as its main document, by folder.
_OOXML = (("word/", "docx"), ("ppt/", "pptx"), ("xl/", "xlsx"))
# An OpenDocument package's first member, "mimetype", stored uncompressed.
_ODF = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
}
_EPUB = "application/epub+zip"  # an EPUB's first member, "mimetype", as OpenDocument's
# The stream at the root of an OLE2 compound file that names the program that wrote it.
_OLE_STREAMS = (("WordDocument", "doc"), ("Workbook", "xls"), ("Book", "xls"), ("PowerPoint Document", "ppt"))


def pdf(head: bytes) -> str | None:
    at = head.find(_PDF, 0, 1024)
    if at < 0:
        return None
    return "content: a %PDF- header" + (f" at byte {at}" if at else "")


# The images the image parser reads by OCR: their signatures, the suffix that reads them.
_IMAGES = (
    (b"\x89PNG\r\n\x1a\n", ".png", "PNG"),
    (b"\xff\xd8\xff", ".jpg", "JPEG"),
    (b"II*\x00", ".tif", "TIFF (little-endian)"),
    (b"MM\x00*", ".tif", "TIFF (big-endian)"),
)


def image(head: bytes) -> tuple[str, str] | None:
    """The suffix of a PNG, JPEG or TIFF image and what told it, else None."""
    for signature, suffix, name in _IMAGES:
        if head.startswith(signature):
            return suffix, f"content: a {name} signature"
    return None


def container(head: bytes) -> str | None:
    """'zip', 'ole' or 'rtf' when the bytes begin like one (its members say more), else None."""
    if head.startswith(_ZIP):
        return "zip"
    if head.startswith(_OLE):
        return "ole"
    if head.startswith(_RTF):
        return "rtf"
    return None


def zip_kind(source: IO[bytes]) -> tuple[str | None, str]:
    """The OOXML or OpenDocument form of a zip package, and what told it; None and what was seen
    when it is another zip archive (or a broken one). ``source`` is read through its central
    directory, not whole."""
    import zipfile  # here: a worker that meets no unnamed zip does not import it

    try:
        with zipfile.ZipFile(source) as archive:
            names = archive.namelist()
            mimetype = _mimetype(archive, names)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return None, "a zip archive that cannot be opened (cut short or damaged)"
    if "[Content_Types].xml" in names:
        for folder, form in _OOXML:
            if any(name.startswith(folder) for name in names):
                return form, f"content: a zip package with [Content_Types].xml and {folder}"
        return None, "an Office Open XML package that is no Word, PowerPoint or Excel document"
    if mimetype in _ODF:
        return _ODF[mimetype], f"content: a zip package whose mimetype is {mimetype}"
    if mimetype == _EPUB:
        return "epub", f"content: a zip package whose mimetype is {mimetype}"
    if mimetype:
        return None, f"a zip package of {mimetype}"
    return None, f"a zip archive of {len(names)} files, not an Office or OpenDocument package"


def _mimetype(archive: zipfile.ZipFile, names: list[str]) -> str | None:
    if "mimetype" not in names or archive.getinfo("mimetype").file_size > 200:
        return None
    return archive.read("mimetype").decode("ascii", errors="replace").strip()


def ole_kind(source: IO[bytes]) -> tuple[str | None, str]:
    """The legacy Office form of an OLE2 compound file, by the stream at its root (olefile, which
    the office extra brings); None and what was seen otherwise."""
    try:
        import olefile
    except ImportError:
        return None, (
            "an OLE2 compound file (a Word, Excel or PowerPoint 97-2003 file, or an Outlook message...);"
            " olefile (pip install 'parsegate[office]') tells them apart"
        )
    try:
        with olefile.OleFileIO(source) as ole:
            roots = {entry[0] for entry in ole.listdir(streams=True, storages=False) if len(entry) == 1}
    except Exception:  # olefile raises OSError, struct.error, IndexError... on a damaged file
        return None, "an OLE2 compound file that cannot be opened (cut short or damaged)"
    for stream, form in _OLE_STREAMS:
        if stream in roots:
            return form, f"content: an OLE2 compound file with a {stream} stream"
    return None, "an OLE2 compound file with no Word, Excel or PowerPoint stream"


def office_kind(head: bytes, source: IO[bytes] | None) -> tuple[str | None, str]:
    """The form of a zip, OLE2 or RTF file (``source``: the whole file, seekable; else the head)."""
    kind = container(head)
    whole = source if source is not None else io.BytesIO(head)
    if kind == "zip":
        return zip_kind(whole)
    if kind == "ole":
        return ole_kind(whole)
    if kind == "rtf":
        return "rtf", "content: an {\\rtf header"
    return None, ""
